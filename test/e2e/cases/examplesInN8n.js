'use strict';

// The examples/ workflows, as users get them, in a running n8n through the REST API the editor
// uses: the scheduled trend collection run from its Schedule Trigger, activated to fire by itself
// and writing where n8n may not; the AI Agent against the fake OpenAI model. n8n's own features
// and the examples that need not run twice: newest n8n line only. What they leave: in the files
// folder sound-trends-<day>.csv and scheduled/, in the user folder outside/ (no other case
// counts those).

const fs = require('node:fs');
const path = require('node:path');
const { KEYS } = require('../scenario');
const { poll } = require('../../harness/poll');
const { deadlineMs } = require('../../harness/deadlines');
const { page, bySearch, onePageEach, PRICE } = require('../ledger');
const { readSheet } = require('../sheets');
const { SIMPLIFIED_FIELDS } = require('../../harness/outputShape');

const TREND_COLLECTION = 'examples/scheduled-trend-collection.json';
/** @typedef {import('../ledger').Platform} Platform */
/** @typedef {import('../scenario').E2eScenario} E2eScenario */

/**
 * What the scheduled-trend example produced: 3 keywords x 2 platforms, 20 sounds each, one page
 * each at the platform's price, and a CSV row per sound.
 * @param {E2eScenario} scenario @param {ReturnType<import('../workflowFile').outcome>} run
 */
async function expectTrendCollection(scenario, run) {
	const searches = ['lofi', 'rainy jazz', 'workout motivation'].flatMap((q) =>
		/** @type {Platform[]} */ (['shortvideo', 'photosocial']).map((platform) => ({ q, platform })),
	);
	expect(bySearch(await scenario.ledger())).toEqual(
		onePageEach(searches, { limit: '20', outcome: 'ok', items: 20 }),
	);
	expect((await scenario.service.ledger()).totals).toEqual({ requests: 6, creditsCharged: 9 });

	const sounds = run.items('Sound Search');
	expect(sounds).toHaveLength(120);
	searches.forEach(({ q, platform }, search) => {
		for (const sound of sounds.slice(search * 20, search * 20 + 20)) {
			expect(sound).toMatchObject({ query: q, platform, creditsCharged: PRICE[platform] });
			// Simplify (node version 2): its 10 fields, flat values only, ready for a spreadsheet.
			expect(Object.keys(sound)).toEqual(SIMPLIFIED_FIELDS);
			expect(Object.values(sound).every((v) => v === null || typeof v !== 'object')).toBe(true);
		}
	});

	const [written] = run.items('Write CSV to Disk');
	// Relative paths are the folder n8n runs in: its user folder here.
	const fileName = path.resolve(scenario.userFolder, String(written.fileName));
	const { rows } = readSheet(fileName);
	expect(rows).toHaveLength(sounds.length); // one row per sound
	// The columns are the items' fields: Simplify's, in its order.
	expect(Object.keys(rows[0])).toEqual(SIMPLIFIED_FIELDS);
	rows.forEach((row, i) => {
		for (const column of ['soundId', 'title', 'query', 'platform', 'creditsCharged'])
			expect(row[column]).toBe(String(sounds[i][column]));
	});
	return fileName;
}

/** @param {E2eScenario} scenario (started) */
function scheduledTrendCollection(scenario) {
	test('run from its Schedule Trigger (editor "Execute workflow"): every keyword on both platforms, a CSV row per sound', async () => {
		const run = await scenario.run(TREND_COLLECTION);
		expect(run.status).toBe('success');
		const fileName = await expectTrendCollection(scenario, run);
		const today = /^sound-trends-\d{4}-\d{2}-\d{2}\.csv$/;
		expect(path.dirname(fileName)).toBe(scenario.filesDir);
		expect(path.basename(fileName)).toMatch(today);
	});

	test('activated, its Schedule Trigger starts the run by itself (interval shortened to 5 s) [newest n8n line only]', async () => {
		const outputFolder = path.join(scenario.filesDir, 'scheduled');
		fs.mkdirSync(outputFolder);
		const rule = { interval: [{ field: 'seconds', secondsInterval: 5 }] };
		const id = await scenario.activate(TREND_COLLECTION, {
			settings: { outputFolder },
			set: { 'Every Day at 06:00.rule': rule },
		});
		let executions = [];
		try {
			executions = await poll(
				() => scenario.executions(id),
				(list) => list.length > 0,
				deadlineMs(60),
				200,
			);
		} finally {
			// As soon as the first scheduled run shows up, so that it is the only one.
			await scenario.deactivate(id);
		}
		expect(executions).toHaveLength(1);
		const run = await scenario.finished(executions[0].id);
		expect(run).toMatchObject({ mode: 'trigger', status: 'success' });
		expect(await scenario.executions(id)).toHaveLength(1);
		expect(path.dirname(await expectTrendCollection(scenario, run))).toBe(outputFolder);
	});

	test('a folder n8n may not write: the run still ends green, File Not Saved says why (the searches were paid, their CSV stays in the run) [newest n8n line only]', async () => {
		const outside = path.join(scenario.userFolder, 'outside');
		fs.mkdirSync(outside);
		const run = await scenario.run(TREND_COLLECTION, { settings: { outputFolder: outside } });
		expect(run.status).toBe('success');
		expect(run.items('File Not Saved')).toEqual([
			expect.objectContaining({ notSaved: expect.stringMatching(/not allowed/) }),
		]);
		expect(run.runData['Convert to CSV'][0].data.main[0][0].binary.data).toBeDefined();
		expect(fs.readdirSync(outside)).toEqual([]);
		expect((await scenario.service.ledger()).totals).toEqual({ requests: 6, creditsCharged: 9 });
	});
}

/** What the example tells the model its one argument is ($fromAI's description). */
const QUERY_FOR_MODEL =
	'One keyword to search sounds for, such as a mood, genre, title or artist. Not empty.';

/**
 * The first model call of the AI Agent example offered exactly one tool, Sound_Search, whose only
 * input is the $fromAI() query. @param {any} first the fake model's record of that call
 */
function expectSoundSearchTool(first) {
	expect(first.body.model).toBe('gpt-4.1-mini');
	expect(first.body.tools).toHaveLength(1);
	const [tool] = first.body.tools;
	expect(tool).toMatchObject({ type: 'function', function: { name: 'Sound_Search' } });
	expect(tool.function.description).toMatch(/^Search public sounds/);
	expect(tool.function.parameters).toMatchObject({
		type: 'object',
		properties: { query: { type: 'string', description: QUERY_FOR_MODEL } },
		required: ['query'],
	});
	// Only the $fromAI() value is the model's to choose; platform, limit etc. stay fixed.
	expect(Object.keys(tool.function.parameters.properties)).toEqual(['query']);
}

/** @param {E2eScenario} scenario (started, with the fake model) */
function aiAgentExample(scenario) {
	test('examples/ai-agent-sound-tool.json: the model gets the Sound_Search tool, calls it, and answers from its result [newest n8n line only]', async () => {
		const run = await scenario.run('examples/ai-agent-sound-tool.json');
		expect(run.status).toBe('success');

		const calls = await scenario.model.requests();
		expect(calls.map((c) => `${c.method} ${c.path} ${c.status}`)).toEqual([
			'POST /v1/chat/completions 200',
			'POST /v1/chat/completions 200',
		]);
		for (const call of calls) expect(call.authorization).toBe(`Bearer ${KEYS.openAi}`);
		const [first, second] = calls;
		expectSoundSearchTool(first);

		// The service saw exactly the model's query, with the tool's fixed platform and Limit.
		expect(await scenario.ledger()).toEqual([
			page({
				platform: 'shortvideo',
				q: 'rainy lofi',
				limit: '5',
				outcome: 'ok',
				credits: 1,
				items: 5,
			}),
		]);

		// The tool ran as its own node; its items went back to the model as the tool result.
		const toolRun = run.runData['Sound Search'];
		expect(toolRun).toHaveLength(1);
		const sounds = toolRun[0].data.ai_tool[0].map((/** @type {any} */ item) => item.json);
		expect(sounds).toHaveLength(5);
		// The tool's Output, Simplified: the 10 fields the README lists.
		expect(Object.keys(sounds[0])).toEqual(SIMPLIFIED_FIELDS);
		expect(sounds[0]).toMatchObject({
			query: 'rainy lofi',
			platform: 'shortvideo',
			creditsCharged: 1,
		});
		const toolMessage = second.body.messages.find((/** @type {any} */ m) => m.role === 'tool');
		expect(JSON.parse(toolMessage.content).map((/** @type {any} */ s) => s.soundId)).toEqual(
			sounds.map((/** @type {any} */ s) => s.soundId),
		);
		expect(run.items('AI Agent')).toEqual([
			{ output: `Found 5 sounds for "rainy lofi". The first one is "${sounds[0].title}".` },
		]);
	});
}

/** The examples in a running n8n. @param {E2eScenario} scenario (started, with the fake model) */
function examplesInN8n(scenario) {
	describe(TREND_COLLECTION, () => scheduledTrendCollection(scenario));
	aiAgentExample(scenario);
}

module.exports = { examplesInN8n };
