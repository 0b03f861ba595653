'use strict';

// Sound trends in a real n8n. The Sound Search Trigger, activated: n8n polls it by itself (every
// minute, the shortest Poll Times n8n allows) while the reference service's catalogue changes, and
// exactly the new (or, in another workflow, the rising) sounds come out, each once, also across a
// restart of n8n. Activating a workflow makes n8n poll at once; that starts the polls the test does
// not wait a minute for. Then the two trend examples: the rising sounds alert and the trend
// history (n8n's Data Table, a spreadsheet of the week's top risers).

const fs = require('node:fs');
const path = require('node:path');
const n8n = require('../harness/n8n');
const { packageTarball, REPO_ROOT } = require('../harness/packageTarball');
const { startReferenceService } = require('../harness/referenceService');

const API_KEY = 'dummy-trigger-key-5e1f2a9c';
const CREDENTIAL = { id: 'soundSearchDemo', name: 'Sound Search account' };
const TRIGGER = 'Sound Trends';
const MINUTE_POLL_TIMEOUT_MS = 80_000;
// This file runs once per n8n line (jest.e2e.config.js). On the older line the trigger's cases that
// poll on demand and the alert example run; the minute-long polling and restart case and the Data
// Table example (n8n 1.123's Data Table node does not find by name a table its REST API just
// created: an n8n difference, not the node's) are "[newest n8n line only]".

/** @type {Awaited<ReturnType<typeof startReferenceService>>} */
let service;
/** @type {string} */
let userFolder;
/** @type {string} files n8n may write (N8N_RESTRICT_FILE_ACCESS_TO) */
let filesDir;
/** @type {n8n.N8nServer | undefined} */
let server;
/** @type {Awaited<ReturnType<typeof n8n.setupOwner>>} */
let rest;

async function startServer() {
	server = await n8n.startN8n(userFolder, { env: { N8N_RESTRICT_FILE_ACCESS_TO: filesDir } });
	rest = await n8n.setupOwner(server.url);
}

beforeAll(async () => {
	await n8n.ensureN8nInstalled();
	service = await startReferenceService({ keys: [API_KEY] });
	userFolder = await n8n.createN8nUserFolder({ packageTarball: packageTarball() });
	filesDir = path.join(userFolder, 'files');
	fs.mkdirSync(filesDir);
	await n8n.importCredentials(userFolder, [
		{ ...CREDENTIAL, type: 'soundSearchApi', data: { apiKey: API_KEY, baseUrl: service.url } },
	]);
	await startServer();
}, 600_000);

afterAll(async () => {
	await Promise.allSettled([server?.stop(), service?.stop()]);
	if (userFolder) n8n.removeN8nUserFolder(userFolder);
}, 60_000);

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** @param {string} name @param {Record<string, unknown>} parameters */
function triggerWorkflow(name, parameters) {
	return {
		name,
		nodes: [
			{
				id: `7e2a0000-0000-4000-8000-0000000000${name.length}`,
				name: TRIGGER,
				type: 'n8n-nodes-sound-search.soundSearchTrigger',
				typeVersion: 1,
				position: [0, 0],
				// No minimum interval: the test polls again within the minute.
				parameters: {
					pollTimes: { item: [{ mode: 'everyMinute' }] },
					limit: 10,
					options: { minPollInterval: 0 },
					...parameters,
				},
				credentials: { soundSearchApi: CREDENTIAL },
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
}

/** Saves and activates a workflow (n8n polls the trigger once, at once). */
async function activate(workflow) {
	const { id, versionId } = await n8n.createWorkflowViaRest(rest, workflow);
	expect((await rest('POST', `/rest/workflows/${id}/activate`, { versionId })).status).toBe(200);
	return id;
}

/** Deactivates and activates again: n8n polls at once. */
async function pollNow(id) {
	expect((await rest('POST', `/rest/workflows/${id}/deactivate`, {})).status).toBe(200);
	const { versionId } = (await rest('GET', `/rest/workflows/${id}`)).body.data;
	expect((await rest('POST', `/rest/workflows/${id}/activate`, { versionId })).status).toBe(200);
}

/** The workflow's finished executions, oldest first, with the trigger's items. */
async function triggerRuns(id) {
	const filter = encodeURIComponent(JSON.stringify({ workflowId: id }));
	const { results } = (await rest('GET', `/rest/executions?filter=${filter}`)).body.data;
	const runs = [];
	for (const summary of [...results].reverse()) {
		if (['new', 'running', 'waiting'].includes(summary.status)) continue; // not finished yet
		const execution = (await rest('GET', `/rest/executions/${summary.id}`)).body.data;
		expect(JSON.stringify(execution)).not.toContain(API_KEY);
		const items = n8n.nodeOutputItems({ data: n8n.parseExecutionData(execution.data) }, TRIGGER);
		runs.push({ mode: execution.mode, status: execution.status, items });
	}
	return runs;
}

/** Waits until the workflow has `count` executions (or the time is up), then returns them. */
async function waitForRuns(id, count, timeoutMs) {
	const deadline = Date.now() + timeoutMs;
	let runs = await triggerRuns(id);
	while (runs.length < count && Date.now() < deadline) {
		await sleep(1000);
		runs = await triggerRuns(id);
	}
	return runs;
}

/** The soundIds the service lists first for a keyword right now. */
async function topSoundIds(q, count) {
	const url = `${service.url}/v1/shortvideo/sound/search?q=${encodeURIComponent(q)}&limit=${count}`;
	const response = await fetch(url, { headers: { Authorization: `Bearer ${API_KEY}` } });
	return (await response.json()).data.items.map((/** @type {any} */ sound) => sound.soundId);
}

const soundIds = (/** @type {any[]} */ items) => items.map((item) => item.soundId);

test('New Sound: polling by itself, exactly the new sounds come out, each once, across a restart [newest n8n line only]', async () => {
	const id = await activate(
		triggerWorkflow('new sounds', { keywords: 'trend alpha, trend beta', event: 'newSound' }),
	);
	await sleep(2000);
	expect(await triggerRuns(id)).toEqual([]); // the activation poll took the baseline

	await service.passTime({ newSounds: { 'trend alpha': 2 } });
	const expected = await topSoundIds('trend alpha', 2);
	const [byItself] = await waitForRuns(id, 1, MINUTE_POLL_TIMEOUT_MS);
	expect(byItself).toMatchObject({ mode: 'trigger', status: 'success' });
	expect(soundIds(byItself.items)).toEqual(expected);
	expect(byItself.items[0]).toMatchObject({ query: 'trend alpha', creditsCharged: 1, page: 1 });

	await pollNow(id);
	await sleep(3000);
	expect(await triggerRuns(id)).toHaveLength(1); // nothing twice

	// The memory is saved with the workflow: after a restart only what is new comes out.
	await server?.stop();
	await startServer();
	await service.passTime({ newSounds: { 'trend beta': 1 } });
	await pollNow(id);
	const runs = await waitForRuns(id, 2, 15_000);
	expect(runs).toHaveLength(2);
	expect(soundIds(runs[1].items)).toEqual(await topSoundIds('trend beta', 1));
});

test('Rising Sound: sounds that grew past the thresholds come out once', async () => {
	const keywords = 'trend gamma';
	const day0 = await fetchAll(keywords);
	const id = await activate(
		triggerWorkflow('rising sounds', {
			keywords,
			event: 'risingSound',
			limit: 50,
			minGrowthPercent: 20,
			minGrowthPosts: 1000,
		}),
	);
	await sleep(2000);
	await service.passTime({ days: 1 });
	const day1 = await fetchAll(keywords);
	await pollNow(id);
	const [rising] = await waitForRuns(id, 1, 15_000);

	const expected = day1
		.filter((sound, i) => {
			const growth = sound.postCount - day0[i].postCount;
			return growth >= 1000 && growth / day0[i].postCount >= 0.2;
		})
		.map((sound) => sound.soundId);
	expect(expected.length).toBeGreaterThan(0);
	expect(soundIds(rising.items)).toEqual(expected);
	await pollNow(id);
	await sleep(3000);
	expect(await triggerRuns(id)).toHaveLength(1);
});

/** @param {string} q */
async function fetchAll(q) {
	const url = `${service.url}/v1/shortvideo/sound/search?q=${encodeURIComponent(q)}&limit=50`;
	const response = await fetch(url, { headers: { Authorization: `Bearer ${API_KEY}` } });
	return /** @type {any[]} */ ((await response.json()).data.items);
}

/**
 * An examples/ workflow with Settings values replaced for this run.
 * @param {string} file
 * @param {Record<string, unknown>} settings
 */
function loadExample(file, settings) {
	const workflow = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'examples', file), 'utf8'));
	const assignments = workflow.nodes.find((/** @type {any} */ n) => n.name === 'Settings')
		.parameters.assignments.assignments;
	for (const [name, value] of Object.entries(settings)) {
		const field = assignments.find((/** @type {any} */ a) => a.name === name);
		if (!field) throw new Error(`${file}: no Settings field ${name}`);
		field.value = value;
	}
	return workflow;
}

/** The growth of every sound of the keywords between two readings of the first 50 sounds. */
async function growthBetween(
	/** @type {string[]} */ keywords,
	/** @type {() => Promise<void>} */ change,
) {
	const before = new Map();
	for (const q of keywords) for (const sound of await fetchAll(q)) before.set(sound.soundId, sound);
	await change();
	const growth = [];
	for (const q of keywords) {
		for (const sound of await fetchAll(q)) {
			const then = before.get(sound.soundId).postCount;
			growth.push({ soundId: sound.soundId, growthPosts: sound.postCount - then, then });
		}
	}
	return growth;
}

const ALERT_KEYWORDS = ['lofi', 'rainy jazz', 'workout motivation'];

test('examples/rising-sounds-alert.json: the rising sounds of its keywords go to a CSV file, once', async () => {
	await service.reset();
	const workflow = JSON.parse(
		fs
			.readFileSync(path.join(REPO_ROOT, 'examples', 'rising-sounds-alert.json'), 'utf8')
			.replace('/home/node/.n8n-files', filesDir),
	);
	// The test polls again within the hour the trigger would otherwise wait.
	workflow.nodes[0].parameters.options.minPollInterval = 0;
	const id = await activate(workflow); // the baseline
	await sleep(2000);
	const growth = await growthBetween(ALERT_KEYWORDS, async () => {
		await service.passTime({ days: 1 });
	});
	await pollNow(id);
	const [run] = await waitForRuns(id, 1, 15_000);
	expect(run).toMatchObject({ mode: 'trigger', status: 'success' });

	const rising = growth
		.filter((g) => g.growthPosts >= 1000 && g.growthPosts / g.then >= 0.2)
		.map((g) => g.soundId);
	expect(rising.length).toBeGreaterThan(0);
	const files = fs.readdirSync(filesDir).filter((f) => /^rising-sounds-.*\.csv$/.test(f));
	expect(files).toHaveLength(1);
	const csv = fs.readFileSync(path.join(filesDir, files[0]), 'utf8').trim().split(/\r?\n/);
	expect(csv[0]).toMatch(/^soundId,title,.*,query,creditsCharged,page,firstSeenAt,.*,postsPerDay$/);
	expect(csv.slice(1).map((line) => line.split(',')[0])).toEqual(rising);

	await pollNow(id);
	await sleep(3000);
	expect(await triggerRuns(id)).toHaveLength(1);
	expect((await rest('POST', `/rest/workflows/${id}/deactivate`, {})).status).toBe(200);
});

test("examples/trend-history.json: daily post counts in a Data Table, the week's top risers in an XLSX [newest n8n line only]", async () => {
	await service.reset();
	const { id: projectId } = (await rest('GET', '/rest/projects/personal')).body.data;
	const columns = ['soundId', 'day', 'keyword', 'title'].map((name) => ({ name, type: 'string' }));
	const table = await rest('POST', `/rest/projects/${projectId}/data-tables`, {
		name: 'sound trend history',
		columns: [...columns, { name: 'postCount', type: 'number' }],
	});
	expect(table.status).toBe(200);
	const runDay = async (/** @type {string} */ day) => {
		const workflow = loadExample('trend-history.json', { outputFolder: filesDir, day });
		const { id } = await n8n.createWorkflowViaRest(rest, workflow);
		const ran = await n8n.runWorkflowViaRest(rest, id, {
			triggerNode: 'Every Day at 06:00',
		});
		expect(ran.execution.status).toBe('success');
		return ran;
	};

	const growth = await growthBetween(ALERT_KEYWORDS, async () => {
		await runDay('2026-11-20');
		await service.passTime({ days: 1 });
	});
	await runDay('2026-11-21');
	await runDay('2026-11-21'); // the same day again: upserted, not added
	const rows = await rest(
		'GET',
		`/rest/projects/${projectId}/data-tables/${table.body.data.id}/rows?take=1000`,
	);
	expect(rows.body.data.count).toBe(300);

	const XLSX = require(path.join(REPO_ROOT, '.cache', 'n8n-host', 'node_modules', '@e965', 'xlsx'));
	const book = XLSX.read(fs.readFileSync(path.join(filesDir, 'top-risers-2026-11-21.xlsx')));
	const risers = XLSX.utils.sheet_to_json(book.Sheets['Top risers']);
	const percent = (/** @type {{growthPosts: number, then: number}} */ g) =>
		Math.round((g.growthPosts / Math.max(1, g.then)) * 1000) / 10;
	const expected = new Map(growth.map((g) => [g.soundId, percent(g)]));
	expect(risers).toHaveLength(20);
	for (const row of risers) expect(row.growthPercent).toBe(expected.get(String(row.soundId)));
	const top = [...expected.values()].sort((a, b) => b - a).slice(0, 20);
	expect(risers.map((row) => row.growthPercent)).toEqual(top);
});
