'use strict';

// The Sound Search Trigger in a real n8n, activated: n8n polls it by itself (every minute, the
// shortest Poll Times n8n allows) while the reference service's catalogue changes, and exactly the
// new (or, in another workflow, the rising) sounds come out, each once, also across a restart of
// n8n. Activating a workflow makes n8n poll at once; that starts the polls the test does not wait
// a minute for.

const n8n = require('../harness/n8n');
const { packageTarball } = require('../harness/packageTarball');
const { startReferenceService } = require('../harness/referenceService');

const API_KEY = 'dummy-trigger-key-5e1f2a9c';
const CREDENTIAL = { id: 'soundSearchTrig1', name: 'Sound Search account' };
const TRIGGER = 'Sound Trends';
const MINUTE_POLL_TIMEOUT_MS = 80_000;

/** @type {Awaited<ReturnType<typeof startReferenceService>>} */
let service;
/** @type {string} */
let userFolder;
/** @type {n8n.N8nServer | undefined} */
let server;
/** @type {Awaited<ReturnType<typeof n8n.setupOwner>>} */
let rest;

async function startServer() {
	server = await n8n.startN8n(userFolder);
	rest = await n8n.setupOwner(server.url);
}

beforeAll(async () => {
	await n8n.ensureN8nInstalled();
	service = await startReferenceService({ keys: [API_KEY] });
	userFolder = await n8n.createN8nUserFolder({ packageTarball: packageTarball() });
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
				parameters: { pollTimes: { item: [{ mode: 'everyMinute' }] }, limit: 10, ...parameters },
				credentials: { soundSearchApi: CREDENTIAL },
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
}

/** Saves and activates a workflow (n8n polls the trigger once, at once). */
async function activate(workflow) {
	const created = await rest('POST', '/rest/workflows', workflow);
	const { id, versionId } = created.body.data;
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

test('New Sound: polling by itself, exactly the new sounds come out, each once, across a restart', async () => {
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
