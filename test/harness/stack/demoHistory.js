'use strict';

// Day-one trend data for `npm start` and the editor check, so that the trend examples show more
// than "no history yet" in a first session: the reference service's own catalogue on the six days
// before the stack started (reference-service/catalogue.js), so today's searches continue it, as
//   - rows of the trend examples' Data Table, marked `source: "demo"` (the report names them);
//   - the Rising Sound trigger's memory of 24 hours ago (Breakout Sound's: 48 and 24 hours ago, the
//     two windows it compares), written with the installed TrendState.
// Each seeded workflow gets a sticky note saying so. Seeded once per n8n state.

const path = require('node:path');
const { readPage, normalizeQuery } = require('../../../reference-service/catalogue');
const { dataOf } = require('../n8n');

const HISTORY_TABLE = 'sound trend history';
const DEMO_SOURCE = 'demo';
const DEMO_DAYS = 6;
const DAY_MS = 86_400_000;
const COLUMNS = [
	...['soundId', 'day', 'keyword', 'title', 'source'].map((name) => ({ name, type: 'string' })),
	{ name: 'postCount', type: 'number' },
];
const TRIGGER_TYPE = 'n8n-nodes-sound-search.soundSearchTrigger';

/**
 * A keyword's short-video sounds as the service would have answered `daysAgo` days before.
 * @param {string} keyword @param {number} limit @param {number} daysAgo @param {number} nowMs
 */
function soundsBefore(keyword, limit, daysAgo, nowMs) {
	const query = normalizeQuery(keyword);
	const readingMs = nowMs - daysAgo * DAY_MS;
	const page = { platform: 'shortvideo', query, offset: 0, limit, overrides: new Map() };
	return readPage({ ...page, readingMs, day: -daysAgo }).items;
}

/** Keywords as the examples write them: comma- or line-separated. @param {string} text */
const keywordsOf = (text) =>
	String(text)
		.split(/[,\n]/)
		.map((keyword) => keyword.trim())
		.filter(Boolean);

/**
 * The Data Table rows of the six days before `nowMs`.
 * @param {Record<string, any>} settings its keywords and soundsPerKeyword @param {number} nowMs
 */
function historyRows({ keywords, soundsPerKeyword }, nowMs) {
	const rows = [];
	for (let daysAgo = DEMO_DAYS; daysAgo >= 1; daysAgo--) {
		const day = new Date(nowMs - daysAgo * DAY_MS).toISOString().slice(0, 10);
		for (const keyword of keywordsOf(keywords)) {
			for (const sound of soundsBefore(keyword, soundsPerKeyword, daysAgo, nowMs)) {
				const { soundId, title, postCount } = sound;
				rows.push({ soundId, day, keyword, title, postCount, source: DEMO_SOURCE });
			}
		}
	}
	return rows;
}

/** A workflow's Settings by name. @param {any} workflow @returns {Record<string, any>} */
function settingsOf(workflow) {
	const node = workflow.nodes.find((/** @type {any} */ n) => n.name === 'Settings');
	const assignments = node?.parameters?.assignments?.assignments ?? [];
	return Object.fromEntries(assignments.map((/** @type {any} */ a) => [a.name, a.value]));
}

/**
 * Creates the Data Table with six days of demo rows, unless it exists (a kept n8n state); resolves
 * what it did.
 * @param {import('../n8n/rest').RestRequest} request @param {any} historyWorkflow
 * @param {number} nowMs
 */
async function seedHistoryTable(request, historyWorkflow, nowMs) {
	const { id: projectId } = await dataOf(request, 'GET', '/rest/projects/personal');
	const base = `/rest/projects/${projectId}/data-tables`;
	const filter = encodeURIComponent(JSON.stringify({ name: HISTORY_TABLE }));
	const existing = await dataOf(request, 'GET', `${base}?filter=${filter}`);
	if (existing.count > 0) return `Data Table "${HISTORY_TABLE}" exists, kept (not seeded again)`;
	const table = await dataOf(request, 'POST', base, { name: HISTORY_TABLE, columns: COLUMNS });
	const rows = historyRows(settingsOf(historyWorkflow), nowMs);
	await dataOf(request, 'POST', `${base}/${table.id}/insert`, { data: rows, returnType: 'count' });
	return `${rows.length} demo rows (${DEMO_DAYS} days, source "${DEMO_SOURCE}") in Data Table "${HISTORY_TABLE}"`;
}

/** The triggers given a memory, and the days ago it holds readings of. */
const SEEDED_DAYS_AGO = { risingSound: [1], breakoutSound: [2, 1] };

/**
 * The workflow with a memory for each Rising or Breakout Sound trigger: its keywords' sounds read
 * a day ago (and two, for Breakout Sound), the keywords baselined.
 * @param {any} workflow @param {string} packageDir the installed package @param {number} nowMs
 */
function withTriggerMemory(workflow, packageDir, nowMs) {
	const file = path.join(packageDir, 'dist', 'nodes', 'SoundSearchTrigger', 'trendState.js');
	const { TrendState } = require(file);
	const staticData = { ...workflow.staticData };
	for (const node of workflow.nodes.filter((/** @type {any} */ n) => n.type === TRIGGER_TYPE)) {
		const { keywords, limit = 50, platform = 'shortvideo', event } = node.parameters;
		const daysAgo = SEEDED_DAYS_AGO[/** @type {'risingSound'} */ (event)];
		if (!daysAgo || platform !== 'shortvideo') continue;
		const state = new TrendState({});
		const at = (/** @type {number} */ ago) => Math.floor((nowMs - ago * DAY_MS) / 1000);
		for (const keyword of keywordsOf(keywords)) {
			for (const ago of daysAgo) {
				for (const sound of soundsBefore(keyword, limit, ago, nowMs))
					state.record(`${platform}:${sound.soundId}`, { at: at(ago), count: sound.postCount });
			}
			state.markBaselined(platform, keyword);
		}
		const stored = {};
		state.save(stored, Number.MAX_SAFE_INTEGER, at(1), 24 * 3600);
		staticData[`node:${node.name}`] = stored;
	}
	return { ...workflow, staticData };
}

/** A sticky note saying what npm start seeded. @param {any} workflow @param {string} text */
function withDemoNote(workflow, text) {
	const left = Math.min(...workflow.nodes.map((/** @type {any} */ n) => n.position[0]));
	const note = {
		parameters: {
			content: `### Demo data (npm start)\n${text}`,
			height: 260,
			width: 360,
			color: 3,
		},
		id: 'demo-data-note',
		name: 'Demo Data (npm start)',
		type: 'n8n-nodes-base.stickyNote',
		typeVersion: 1,
		position: [left - 440, 220],
	};
	return { ...workflow, nodes: [...workflow.nodes, note] };
}

const TABLE_NOTE =
	`The Data Table **${HISTORY_TABLE}** came with ${DEMO_DAYS} days of demo history (rows with ` +
	`\`source\` = \`${DEMO_SOURCE}\`): the reference service's post counts of the days before npm ` +
	'start first ran. Your own n8n starts with an empty table: see the other note.';
const MEMORY_NOTE =
	"npm start gave this trigger a memory: its keywords' post counts 24 hours ago (Breakout " +
	'Sound: 48 and 24 hours ago), from the reference service (demo data). *Execute workflow* ' +
	'shows the sounds that rose (broke out) since. Your own n8n starts with no memory: see the ' +
	'other note.';

/**
 * The example workflows as the stack imports them: the trigger's memory and the notes added.
 * @param {Array<{ file: string, workflow: any }>} examples @param {string} packageDir
 * @param {number} nowMs
 */
function seededExamples(examples, packageDir, nowMs) {
	return examples.map((entry) => {
		let { workflow } = entry;
		const usesTable = JSON.stringify(workflow.nodes).includes(`"${HISTORY_TABLE}"`);
		const rising = workflow.nodes.some(
			(/** @type {any} */ n) => n.type === TRIGGER_TYPE && n.parameters.event in SEEDED_DAYS_AGO,
		);
		if (rising)
			workflow = withDemoNote(withTriggerMemory(workflow, packageDir, nowMs), MEMORY_NOTE);
		if (usesTable) workflow = withDemoNote(workflow, TABLE_NOTE);
		return { ...entry, workflow };
	});
}

module.exports = { seededExamples, seedHistoryTable };
