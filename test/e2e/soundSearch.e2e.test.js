'use strict';

// End to end in a real, pinned n8n (n8n-host/<line>/) with the package installed from its
// `npm pack` tarball exactly as n8n installs a community package: the three examples/ workflows,
// the node's own cases and its fault cases (faultCases.js), against the local reference service (a
// real process on 127.0.0.1, whose ledger tells which requests and credits n8n caused) and, for the
// AI Agent, a fake OpenAI model.
//
// The file runs once per n8n line (a jest project each, jest.e2e.config.js; N8N_LINE tells the
// harness which). The node's own cases, the fault cases and one example run on every line, with
// the same expectations; the other examples and n8n's own features (activation, file access
// rules, the AI Agent) only on the newest line: their titles end in "[newest n8n line only]"
// (test/e2e/selectLine.js skips them on the others).
//
// One user folder and one running n8n for the whole file (starting n8n is the slow part):
//  1. headless: credentials and one workflow imported with the CLI, run with `n8n execute`;
//  2. then `n8n start` on the same folder, the owner set up, and everything else created and run
//     through the REST API the editor uses (POST /rest/workflows, /rest/workflows/:id/run, ...),
//     including a Schedule Trigger workflow activated to fire by itself.
// The reference service is reset (ledger, cache, overrides) before every test.

const fs = require('node:fs');
const path = require('node:path');
const n8n = require('../harness/n8n');
const { packageTarball, REPO_ROOT } = require('../harness/packageTarball');
const { startReferenceService } = require('../harness/referenceService');
const { startFakeOpenAi } = require('../harness/fakeOpenAi');
const { describeFaultCases } = require('./faultCases');

// Test keys only ('dummy' tells secret scanners they are not real).
const API_KEY = 'dummy-e2e-key-4b7d1c0a';
const WRONG_KEY = 'dummy-wrong-key-9e2a5713';
const OPENAI_KEY = 'dummy-openai-key-c31f08d2';
const SECRETS = [API_KEY, WRONG_KEY, OPENAI_KEY];

const EXAMPLES_DIR = path.join(REPO_ROOT, 'examples');
const XLSX_MODULE = path.join(REPO_ROOT, '.cache', 'n8n-host', 'node_modules', '@e965', 'xlsx');
const SOUND_CREDENTIAL = { id: 'soundSearchDemo', name: 'Sound Search account' };
const WRONG_KEY_CREDENTIAL = { id: 'soundSearchWrongK', name: 'Sound Search wrong key' };
const OPENAI_CREDENTIAL = { id: 'openAiDemo', name: 'OpenAI account' };
const PRICE = { shortvideo: 1, photosocial: 2 };
const SETUP_TIMEOUT_MS = 600_000; // a cold machine installs n8n first (about 4.5 min)

/** @type {Array<[string, number]>} where the suite's time goes, printed at the end */
const timings = [];
/**
 * @template T
 * @param {string} label
 * @param {() => Promise<T> | T} fn
 * @returns {Promise<T>}
 */
async function timed(label, fn) {
	const start = Date.now();
	try {
		return await fn();
	} finally {
		timings.push([label, Date.now() - start]);
	}
}

/** @type {Awaited<ReturnType<typeof startReferenceService>>} */
let service;
/** @type {Awaited<ReturnType<typeof startFakeOpenAi>>} */
let model;
/** @type {string} */
let userFolder;
/** @type {string} files n8n may read and write (N8N_RESTRICT_FILE_ACCESS_TO) */
let filesDir;
/** @type {n8n.N8nServer | undefined} */
let server;
/** @type {Awaited<ReturnType<typeof n8n.setupOwner>>} */
let rest;

beforeAll(async () => {
	await timed('ensure n8n installed', () => n8n.ensureN8nInstalled());
	const tarball = await timed('build + npm pack', () => packageTarball());
	service = await startReferenceService({ keys: [API_KEY] });
	model = await startFakeOpenAi({ apiKey: OPENAI_KEY, query: 'rainy lofi' });
	userFolder = await timed('user folder + package', () =>
		n8n.createN8nUserFolder({ packageTarball: tarball }),
	);
	// The tarball is packed from the working tree: a build running at the same time elsewhere can
	// leave dist/ half-written. n8n would then just not know the node ("Unrecognized node type").
	const installed = path.join(
		userFolder,
		'.n8n',
		'nodes',
		'node_modules',
		'n8n-nodes-sound-search',
		'dist',
	);
	for (const file of [
		'nodes/SoundSearch/SoundSearch.node.js',
		'credentials/SoundSearchApi.credentials.js',
	]) {
		if (!fs.existsSync(path.join(installed, file)))
			throw new Error(`${tarball} has no dist/${file}`);
	}
	// Outside <userFolder>/.n8n: n8n blocks its own folder (N8N_BLOCK_FILE_ACCESS_TO_N8N_FILES).
	filesDir = path.join(userFolder, 'files');
	fs.mkdirSync(filesDir);
	await timed('n8n import:credentials (fresh folder)', () =>
		n8n.importCredentials(userFolder, [
			{
				...SOUND_CREDENTIAL,
				type: 'soundSearchApi',
				data: { apiKey: API_KEY, baseUrl: service.url },
			},
			{
				...WRONG_KEY_CREDENTIAL,
				type: 'soundSearchApi',
				data: { apiKey: WRONG_KEY, baseUrl: service.url },
			},
			{ ...OPENAI_CREDENTIAL, type: 'openAiApi', data: { apiKey: OPENAI_KEY, url: model.url } },
		]),
	);
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
	const stops = [timed('n8n stop', async () => server?.stop()), service?.stop(), model?.stop()];
	await Promise.allSettled(stops);
	if (userFolder) n8n.removeN8nUserFolder(userFolder);
	process.stderr.write(
		`[e2e] timings: ${timings.map(([label, ms]) => `${label} ${(ms / 1000).toFixed(1)} s`).join(', ')}\n`,
	);
}, 60_000);

beforeEach(async () => {
	await service?.reset();
	await model?.reset();
});

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/**
 * An examples/ workflow, with some Settings values replaced (paths for this test run).
 * @param {string} file
 * @param {Record<string, unknown>} [settings] Settings node field name -> value
 */
function loadExample(file, settings = {}) {
	const workflow = JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8'));
	const assignments = workflow.nodes.find((/** @type {any} */ node) => node.name === 'Settings')
		?.parameters.assignments.assignments;
	for (const [name, value] of Object.entries(settings)) {
		const field = assignments.find((/** @type {any} */ a) => a.name === name);
		if (!field) throw new Error(`${file}: no Settings field ${name}`);
		field.value = value;
	}
	return workflow;
}

/** @param {any} workflow @param {string} name */
function nodeNamed(workflow, name) {
	const node = workflow.nodes.find((/** @type {any} */ n) => n.name === name);
	if (!node) throw new Error(`no node ${name}`);
	return node;
}

/**
 * Saves a workflow the way the editor does (POST /rest/workflows).
 * @param {any} workflow
 * @returns {Promise<{ id: string, versionId: string }>}
 */
async function createWorkflow(workflow) {
	return await n8n.createWorkflowViaRest(rest, workflow);
}

/**
 * Creates the workflow and runs it like the editor's "Execute workflow" button.
 * @param {any} workflow
 * @param {string} triggerNode
 */
async function runViaRest(workflow, triggerNode) {
	const { id } = await createWorkflow(workflow);
	const { execution, run } = await n8n.runWorkflowViaRest(rest, id, { triggerNode });
	expectNoSecrets(JSON.stringify(execution), `execution ${execution.id} of "${workflow.name}"`);
	return {
		execution,
		run,
		items: (/** @type {string} */ node) => n8n.nodeOutputItems({ data: run }, node),
	};
}

/** @param {string} text @param {string} where */
function expectNoSecrets(text, where) {
	for (const secret of SECRETS) {
		if (text.includes(secret)) throw new Error(`an API key appears in ${where}`);
	}
}

/**
 * The ledger's search records, reduced to what the tests compare, in the order the service got
 * them. The node searches the input items of a run concurrently (each item's pages in order): compare
 * several items' requests through bySearch().
 */
async function requestsSeen() {
	const { requests } = await service.ledger();
	return requests.map((/** @type {any} */ r) => ({
		path: r.path,
		q: r.q,
		limit: r.limit,
		cursor: r.cursor,
		status: r.status,
		outcome: r.outcome,
		credits: r.creditsCharged,
		items: r.itemCount,
		authorization: r.authorization,
	}));
}

/**
 * Requests grouped by search (path and query, in that order), each search's own requests kept in
 * the order they were made.
 * @template {{ path: string, q: string }} T
 * @param {T[]} requests
 * @returns {T[]}
 */
function bySearch(requests) {
	const key = (/** @type {T} */ r) => `${r.path} ${r.q}`;
	return [...requests].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/**
 * RFC 4180 CSV (quotes, doubled quotes, CRLF, a UTF-8 BOM) to objects keyed by the header row.
 * @param {string} text
 * @returns {Record<string, string>[]}
 */
function parseCsv(text) {
	/** @type {string[][]} */
	const rows = [];
	/** @type {string[]} */
	let row = [];
	let field = '';
	let quoted = false;
	const body = text.replace(/^\uFEFF/, '');
	for (let i = 0; i < body.length; i++) {
		const c = body[i];
		if (quoted) {
			if (c !== '"') field += c;
			else if (body[i + 1] === '"') field += body[++i];
			else quoted = false;
		} else if (c === '"') quoted = true;
		else if (c === ',') {
			row.push(field);
			field = '';
		} else if (c === '\n' || c === '\r') {
			if (c === '\r' && body[i + 1] === '\n') i++;
			row.push(field);
			rows.push(row);
			row = [];
			field = '';
		} else field += c;
	}
	if (field !== '' || row.length > 0) rows.push([...row, field]);
	const [header, ...data] = rows.filter((r) => r.length > 1 || r[0] !== '');
	return data.map((r) => Object.fromEntries(header.map((name, i) => [name, r[i]])));
}

/**
 * The rows of one sheet of an .xlsx file, read with the SheetJS build n8n itself ships.
 * @param {string} file
 * @param {string} sheet
 * @returns {Record<string, unknown>[]}
 */
function readXlsx(file, sheet) {
	const bytes = fs.readFileSync(file);
	expect(bytes.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004'); // a zip container
	expect(bytes.includes(Buffer.from('xl/worksheets/sheet1.xml'))).toBe(true);
	const XLSX = require(XLSX_MODULE);
	const workbook = XLSX.read(bytes, { type: 'buffer' });
	expect(workbook.SheetNames).toEqual([sheet]);
	return XLSX.utils.sheet_to_json(workbook.Sheets[sheet], { defval: null });
}

/**
 * Manual Trigger -> Code "Input" (the given items) -> Sound Search (the given parameters).
 * @param {string} name
 * @param {Record<string, unknown>[]} items
 * @param {Record<string, unknown>} parameters
 * @param {{ id: string, name: string }} [credential]
 */
function searchWorkflow(name, items, parameters, credential = SOUND_CREDENTIAL) {
	return {
		name,
		nodes: [
			{
				id: 'e2e00000-0000-4000-8000-000000000001',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'e2e00000-0000-4000-8000-000000000002',
				name: 'Input',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [220, 0],
				parameters: { jsCode: `return ${JSON.stringify(items)}.map((json) => ({ json }));` },
			},
			{
				id: 'e2e00000-0000-4000-8000-000000000003',
				name: 'Sound Search',
				type: 'n8n-nodes-sound-search.soundSearch',
				typeVersion: 1,
				position: [440, 0],
				parameters: { resource: 'sound', operation: 'search', ...parameters },
				credentials: { soundSearchApi: credential },
			},
		],
		connections: {
			Start: { main: [[{ node: 'Input', type: 'main', index: 0 }]] },
			Input: { main: [[{ node: 'Sound Search', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Checks what the scheduled-trend example produced: 3 keywords x 2 platforms, 20 sounds each.
 * @param {Record<string, unknown>[]} sounds the Sound Search node's items
 * @param {string} csvFile
 */
async function expectTrendCollection(sounds, csvFile) {
	const keywords = ['lofi', 'rainy jazz', 'workout motivation'];
	const searches = keywords.flatMap((q) =>
		['shortvideo', 'photosocial'].map((platform) => ({ q, platform })),
	);
	expect(bySearch(await requestsSeen())).toEqual(
		bySearch(searches.map(({ q, platform }) => ({ path: `/v1/${platform}/sound/search`, q }))).map(
			({ path: p, q }) =>
				expect.objectContaining({
					path: p,
					q,
					limit: '20',
					outcome: 'ok',
					credits: p.includes('photosocial') ? 2 : 1,
					items: 20,
				}),
		),
	);
	expect((await service.ledger()).totals).toEqual({ requests: 6, creditsCharged: 9 });

	expect(sounds).toHaveLength(120);
	searches.forEach(({ q, platform }, search) => {
		for (const sound of sounds.slice(search * 20, search * 20 + 20)) {
			expect(sound).toMatchObject({ query: q, platform, creditsCharged: PRICE[platform], page: 1 });
			// Simplify Output: flat values only, ready for a spreadsheet.
			expect(Object.values(sound).every((v) => v === null || typeof v !== 'object')).toBe(true);
		}
	});

	const rows = parseCsv(fs.readFileSync(csvFile, 'utf8'));
	expect(rows).toHaveLength(sounds.length); // one row per sound
	expect(Object.keys(rows[0])).toEqual(
		expect.arrayContaining([
			'soundId',
			'title',
			'audioUrl',
			'platform',
			'query',
			'creditsCharged',
			'page',
		]),
	);
	rows.forEach((row, i) => {
		expect(row).toMatchObject({
			soundId: sounds[i].soundId,
			title: sounds[i].title,
			query: sounds[i].query,
			platform: sounds[i].platform,
			creditsCharged: String(sounds[i].creditsCharged),
			page: '1',
		});
	});
}

// ---------------------------------------------------------------------------------------------
// 1. Headless: `n8n execute`
// ---------------------------------------------------------------------------------------------

describe('headless, with `n8n execute`', () => {
	test('examples/keywords-from-spreadsheet.json: one search per CSV row, all results in one XLSX file [newest n8n line only]', async () => {
		fs.copyFileSync(path.join(EXAMPLES_DIR, 'keywords.csv'), path.join(filesDir, 'keywords.csv'));
		const resultsFile = path.join(filesDir, 'sound-search-results.xlsx');
		const workflow = loadExample('keywords-from-spreadsheet.json', {
			keywordsFile: path.join(filesDir, 'keywords.csv'),
			resultsFile,
		});
		const { id } = await timed('n8n import:workflow', () =>
			n8n.importWorkflow(userFolder, workflow),
		);
		const result = await timed('n8n execute', () =>
			n8n.executeWorkflow(userFolder, id, { env: { N8N_RESTRICT_FILE_ACCESS_TO: filesDir } }),
		);
		if (result.code !== 0 || result.run?.status !== 'success') {
			throw new Error(
				`n8n execute failed (code ${result.code}):\n${result.stdout.slice(-4000)}\n${result.stderr.slice(-2000)}`,
			);
		}
		expectNoSecrets(result.stdout + result.stderr, '`n8n execute` output');

		const keywords = n8n.nodeOutputItems(result.run, 'Extract Keywords from CSV');
		expect(keywords).toEqual([
			{ keyword: 'lofi', platform: 'shortvideo' },
			{ keyword: 'rainy jazz', platform: 'photosocial' },
			{ keyword: 'workout motivation', platform: 'shortvideo' },
			{ keyword: 'cinematic piano', platform: 'photosocial' },
		]);
		expect(bySearch(await requestsSeen())).toEqual(
			bySearch(
				keywords.map(({ keyword, platform }) => ({
					path: `/v1/${platform}/sound/search`,
					q: keyword,
				})),
			).map(({ path: p, q }) =>
				expect.objectContaining({
					path: p,
					q,
					limit: '10',
					outcome: 'ok',
					credits: p.includes('photosocial') ? 2 : 1,
					authorization: `Bearer ${API_KEY}`,
				}),
			),
		);
		expect((await service.ledger()).totals).toEqual({ requests: 4, creditsCharged: 6 });

		const sounds = n8n.nodeOutputItems(result.run, 'Sound Search');
		expect(sounds).toHaveLength(40);
		expect(n8n.nodeOutputItems(result.run, 'Write Results File')).toEqual([
			expect.objectContaining({ fileName: resultsFile }),
		]);

		const rows = readXlsx(resultsFile, 'Sounds');
		expect(rows).toHaveLength(40); // one row per sound, the searches of all rows merged
		rows.forEach((row, i) => {
			const keyword = keywords[Math.floor(i / 10)];
			expect(row).toMatchObject({
				soundId: sounds[i].soundId,
				title: sounds[i].title,
				query: keyword.keyword,
				platform: keyword.platform,
				creditsCharged: PRICE[/** @type {'shortvideo' | 'photosocial'} */ (keyword.platform)],
				page: 1,
			});
		});
	});
});

// ---------------------------------------------------------------------------------------------
// 2. A running n8n, driven through the editor's REST API
// ---------------------------------------------------------------------------------------------

describe('in a running n8n (REST API, as the editor uses it)', () => {
	beforeAll(async () => {
		server = await timed('n8n start (ready)', () =>
			n8n.startN8n(userFolder, { env: { N8N_RESTRICT_FILE_ACCESS_TO: filesDir } }),
		);
		rest = await n8n.setupOwner(server.url);
	}, 180_000);

	afterAll(() => {
		if (server) expectNoSecrets(server.logs(), 'the n8n server log');
	});

	describe('examples/scheduled-trend-collection.json', () => {
		test('run from its Schedule Trigger (editor "Execute workflow"): every keyword on both platforms, a CSV row per sound', async () => {
			const workflow = loadExample('scheduled-trend-collection.json', { outputFolder: filesDir });
			const { execution, items } = await runViaRest(workflow, 'Every Day at 06:00');
			expect(execution.status).toBe('success');
			const [written] = items('Write CSV to Disk');
			expect(written.fileName).toMatch(
				new RegExp(`^${filesDir}/sound-trends-\\d{4}-\\d{2}-\\d{2}\\.csv$`),
			);
			await expectTrendCollection(items('Sound Search'), String(written.fileName));
		});

		test('activated, its Schedule Trigger starts the run by itself (interval shortened to 5 s) [newest n8n line only]', async () => {
			const outputFolder = path.join(filesDir, 'scheduled');
			fs.mkdirSync(outputFolder);
			const workflow = loadExample('scheduled-trend-collection.json', { outputFolder });
			workflow.name += ' (every 5 s)';
			nodeNamed(workflow, 'Every Day at 06:00').parameters.rule = {
				interval: [{ field: 'seconds', secondsInterval: 5 }],
			};
			const { id, versionId } = await createWorkflow(workflow);
			const filter = encodeURIComponent(JSON.stringify({ workflowId: id }));
			const listExecutions = async () =>
				(await rest('GET', `/rest/executions?filter=${filter}`)).body.data.results;

			const activated = await rest('POST', `/rest/workflows/${id}/activate`, { versionId });
			expect(activated.status).toBe(200);
			let executions = [];
			try {
				// Deactivate as soon as the first scheduled run shows up, so that it is the only one.
				for (
					const deadline = Date.now() + 30_000;
					executions.length === 0 && Date.now() < deadline;

				) {
					await sleep(200);
					executions = await listExecutions();
				}
			} finally {
				expect((await rest('POST', `/rest/workflows/${id}/deactivate`, {})).status).toBe(200);
			}
			expect(executions).toHaveLength(1);
			const executionId = executions[0].id;
			let execution;
			for (const deadline = Date.now() + 60_000; Date.now() < deadline; await sleep(250)) {
				execution = (await rest('GET', `/rest/executions/${executionId}`)).body.data;
				if (!['new', 'running', 'waiting'].includes(execution.status)) break;
			}
			expect(execution).toMatchObject({ mode: 'trigger', status: 'success' });
			expectNoSecrets(JSON.stringify(execution), 'the scheduled execution');
			expect(await listExecutions()).toHaveLength(1);

			const run = n8n.parseExecutionData(execution.data);
			const [written] = n8n.nodeOutputItems({ data: run }, 'Write CSV to Disk');
			expect(path.dirname(String(written.fileName))).toBe(outputFolder);
			await expectTrendCollection(
				n8n.nodeOutputItems({ data: run }, 'Sound Search'),
				String(written.fileName),
			);
		});

		test('n8n refuses to write outside N8N_RESTRICT_FILE_ACCESS_TO (the searches are paid before the write) [newest n8n line only]', async () => {
			const outside = path.join(userFolder, 'outside');
			fs.mkdirSync(outside);
			const workflow = loadExample('scheduled-trend-collection.json', { outputFolder: outside });
			const { execution, run } = await runViaRest(workflow, 'Every Day at 06:00');
			expect(execution.status).toBe('error');
			expect(run.resultData.lastNodeExecuted).toBe('Write CSV to Disk');
			expect(run.resultData.runData['Write CSV to Disk'][0].error.message).toMatch(
				/Access to the file is not allowed/,
			);
			expect(fs.readdirSync(outside)).toEqual([]);
			expect((await service.ledger()).totals).toEqual({ requests: 6, creditsCharged: 9 });
		});
	});

	test('examples/ai-agent-sound-tool.json: the model gets the Sound_Search tool, calls it, and answers from its result [newest n8n line only]', async () => {
		const { execution, run, items } = await runViaRest(
			loadExample('ai-agent-sound-tool.json'),
			"When clicking 'Execute workflow'",
		);
		expect(execution.status).toBe('success');

		const calls = await model.requests();
		expect(calls.map((c) => `${c.method} ${c.path} ${c.status}`)).toEqual([
			'POST /v1/chat/completions 200',
			'POST /v1/chat/completions 200',
		]);
		for (const call of calls) expect(call.authorization).toBe(`Bearer ${OPENAI_KEY}`);
		const [first, second] = calls;
		expect(first.body.model).toBe('gpt-4.1-mini');
		expect(first.body.tools).toHaveLength(1);
		const [tool] = first.body.tools;
		expect(tool).toMatchObject({ type: 'function', function: { name: 'Sound_Search' } });
		expect(tool.function.description).toMatch(/^Search public sounds/);
		expect(tool.function.parameters).toMatchObject({
			type: 'object',
			properties: { query: { type: 'string', description: 'keyword to search sounds for' } },
			required: ['query'],
		});
		// Only the $fromAI() value is the model's to choose; platform, limit etc. stay fixed.
		expect(Object.keys(tool.function.parameters.properties)).toEqual(['query']);

		// The service saw exactly the model's query, with the tool's fixed platform and Limit.
		expect(await requestsSeen()).toEqual([
			expect.objectContaining({
				path: '/v1/shortvideo/sound/search',
				q: 'rainy lofi',
				limit: '5',
				outcome: 'ok',
				credits: 1,
				items: 5,
			}),
		]);

		// The tool ran as its own node; its items went back to the model as the tool result.
		const toolRun = run.resultData.runData['Sound Search'];
		expect(toolRun).toHaveLength(1);
		const sounds = toolRun[0].data.ai_tool[0].map((/** @type {any} */ item) => item.json);
		expect(sounds).toHaveLength(5);
		expect(sounds[0]).toMatchObject({
			query: 'rainy lofi',
			platform: 'shortvideo',
			creditsCharged: 1,
			page: 1,
		});
		const toolMessage = second.body.messages.find((/** @type {any} */ m) => m.role === 'tool');
		expect(JSON.parse(toolMessage.content).map((/** @type {any} */ s) => s.soundId)).toEqual(
			sounds.map((s) => s.soundId),
		);

		expect(items('AI Agent')).toEqual([
			{ output: `Found 5 sounds for "rainy lofi". The first one is "${sounds[0].title}".` },
		]);
	});

	describe('the node', () => {
		test('both platforms, each at its price per call', async () => {
			const { execution, items } = await runViaRest(
				searchWorkflow(
					'platforms',
					[
						{ keyword: 'lofi', platform: 'shortvideo' },
						{ keyword: 'lofi', platform: 'photosocial' },
					],
					{ platform: '={{ $json.platform }}', query: '={{ $json.keyword }}', limit: 3 },
				),
				'Start',
			);
			expect(execution.status).toBe('success');
			expect(bySearch(await requestsSeen())).toEqual([
				expect.objectContaining({
					path: '/v1/photosocial/sound/search',
					q: 'lofi',
					limit: '3',
					credits: 2,
					items: 3,
				}),
				expect.objectContaining({
					path: '/v1/shortvideo/sound/search',
					q: 'lofi',
					limit: '3',
					credits: 1,
					items: 3,
				}),
			]);
			const sounds = items('Sound Search');
			expect(sounds.map((s) => s.creditsCharged)).toEqual([1, 1, 1, 2, 2, 2]);
			for (const sound of sounds.slice(0, 3)) {
				expect(sound).toMatchObject({
					soundId: expect.stringMatching(/^7\d{18}$/),
					url: expect.any(Object),
					page: 1,
				});
			}
			for (const sound of sounds.slice(3)) {
				expect(sound).toMatchObject({
					soundId: expect.stringMatching(/^1\d{15}$/),
					url: null,
					authorName: null,
					page: 1,
				});
			}
		});

		test('Return All follows nextCursor across several pages, to the last', async () => {
			await service.setCatalogue({ query: 'pages test', total: 120 });
			const { execution, items } = await runViaRest(
				searchWorkflow('return all', [{}], { query: 'pages test', returnAll: true }),
				'Start',
			);
			expect(execution.status).toBe('success');
			const seen = await requestsSeen();
			expect(seen).toEqual([
				expect.objectContaining({
					q: 'pages test',
					limit: '50',
					cursor: null,
					items: 50,
					credits: 1,
				}),
				expect.objectContaining({
					q: 'pages test',
					limit: '50',
					cursor: expect.any(String),
					items: 50,
					credits: 1,
				}),
				expect.objectContaining({
					q: 'pages test',
					limit: '50',
					cursor: expect.any(String),
					items: 20,
					credits: 1,
				}),
			]);
			expect(new Set(seen.map((r) => r.cursor)).size).toBe(3);
			const sounds = items('Sound Search');
			expect(sounds).toHaveLength(120);
			expect(new Set(sounds.map((s) => s.soundId)).size).toBe(120);
			expect(sounds.map((s) => s.page)).toEqual([
				...Array(50).fill(1),
				...Array(50).fill(2),
				...Array(20).fill(3),
			]);
		});

		test('Limit makes the fewest calls and sizes the last page to what is missing', async () => {
			const { execution, items } = await runViaRest(
				searchWorkflow(
					'limit',
					[
						{ keyword: 'lofi', limit: 120 },
						{ keyword: 'jazz', limit: 7 },
					],
					{ query: '={{ $json.keyword }}', limit: '={{ $json.limit }}' },
				),
				'Start',
			);
			expect(execution.status).toBe('success');
			expect(bySearch(await requestsSeen()).map((r) => [r.q, r.limit, r.items])).toEqual([
				['jazz', '7', 7],
				['lofi', '50', 50],
				['lofi', '50', 50],
				['lofi', '20', 20],
			]);
			expect((await service.ledger()).totals).toEqual({ requests: 4, creditsCharged: 4 });
			const sounds = items('Sound Search');
			expect(sounds).toHaveLength(127);
		});

		test('several input items: one search each, the query from an expression, items paired to their input', async () => {
			const keywords = ['lofi', 'rainy jazz', 'workout'];
			const { execution, run } = await runViaRest(
				searchWorkflow(
					'several items',
					keywords.map((keyword) => ({ keyword })),
					{ query: '={{ $json.keyword }}', limit: 2 },
				),
				'Start',
			);
			expect(execution.status).toBe('success');
			expect(bySearch(await requestsSeen()).map((r) => [r.path, r.q, r.limit, r.credits])).toEqual(
				[...keywords].sort().map((q) => ['/v1/shortvideo/sound/search', q, '2', 1]),
			);
			const output = run.resultData.runData['Sound Search'][0].data.main[0];
			expect(output.map((/** @type {any} */ item) => item.pairedItem)).toEqual(
				[0, 0, 1, 1, 2, 2].map((item) => ({ item })),
			);
			expect(
				output.every(
					(/** @type {any} */ item) => item.json.creditsCharged === 1 && item.json.page === 1,
				),
			).toBe(true);
		});

		test('500 keywords against a service capped at 4 calls in flight: every sound, exact credits, no call twice', async () => {
			await service.setCapacity({ capacity: 4, latencyMs: 30 });
			const keywords = Array.from({ length: 500 }, (_, index) => ({ keyword: `scale ${index}` }));
			const { execution, items } = await runViaRest(
				searchWorkflow('500 keywords', keywords, { query: '={{ $json.keyword }}', limit: 2 }),
				'Start',
			);
			expect(execution.status).toBe('success');
			const { requests, totals, capacity } = await service.ledger();
			const paid = requests.filter((/** @type {any} */ r) => r.status === 200);
			const refused = requests.filter((/** @type {any} */ r) => r.status === 429);
			process.stderr.write(
				`[e2e] 500 keywords, service capped at 4: ${requests.length} requests, ${refused.length} answered 429, most in flight ${capacity.mostInFlight}\n`,
			);
			expect(paid.map((/** @type {any} */ r) => r.q).sort()).toEqual(
				keywords.map((k) => k.keyword).sort(),
			);
			expect(refused.length + paid.length).toBe(requests.length);
			expect(refused.every((/** @type {any} */ r) => r.creditsCharged === 0)).toBe(true);
			expect(totals.creditsCharged).toBe(500);
			const sounds = items('Sound Search');
			expect(sounds).toHaveLength(1000);
			expect(sounds.every((s) => s.creditsCharged === 1)).toBe(true);
		});

		test('an empty query fails the run with a clear error before any request', async () => {
			const { execution, run } = await runViaRest(
				searchWorkflow('empty query', [{ keyword: 'lofi' }, { keyword: '   ' }], {
					query: '={{ $json.keyword }}',
					limit: 5,
				}),
				'Start',
			);
			expect(execution.status).toBe('error');
			const expected = 'The "Query" parameter is empty [item 1]';
			expect(run.resultData.error.message).toBe(expected);
			expect(run.resultData.runData['Sound Search'][0].error.message).toBe(expected);
			expect(await requestsSeen()).toEqual([]);
		});

		test('a wrong API key fails with a clear authentication error, and the key shows nowhere', async () => {
			const { execution, run } = await runViaRest(
				searchWorkflow('wrong key', [{}], { query: 'lofi', limit: 5 }, WRONG_KEY_CREDENTIAL),
				'Start',
			);
			expect(execution.status).toBe('error');
			expect(run.resultData.error.message).toMatch(
				/^The service rejected the API key \(401 Unauthorized\)/,
			);
			// runViaRest already checked the execution (items, errors, descriptions) for every key.
			// One request: the node takes every status as an answer, so n8n-core's re-send of a
			// request that failed with 401 (its credential refresh path) does not happen either.
			const refused = expect.objectContaining({
				q: 'lofi',
				status: 401,
				outcome: 'unauthorized',
				credits: 0,
				authorization: `Bearer ${WRONG_KEY}`,
			});
			expect(await requestsSeen()).toEqual([refused]);
		});

		test('credential Test (POST /rest/credentials/test): a valid key passes with one free request', async () => {
			const result = await n8n.testCredential(rest, {
				id: SOUND_CREDENTIAL.id,
				type: 'soundSearchApi',
			});
			expect(result).toMatchObject({ status: 'OK' });
			expect(await requestsSeen()).toEqual([
				expect.objectContaining({
					path: '/v1/shortvideo/sound/search',
					status: 200,
					outcome: 'refused',
					credits: 0,
					authorization: `Bearer ${API_KEY}`,
				}),
			]);
		});

		test('credential Test: a wrong key fails with the credential rule message', async () => {
			const result = await n8n.testCredential(rest, {
				id: WRONG_KEY_CREDENTIAL.id,
				type: 'soundSearchApi',
			});
			// n8n 1.99 to 2.33 (1.123.x included) lose the status of a failed credential test and
			// show their own message instead of the credential's rule (README, Supported versions).
			const message =
				process.env.N8N_LINE === '1.x'
					? 'Authorization failed - please check your credentials'
					: 'The service rejected this API key (401)';
			expect(result).toEqual({ status: 'Error', message });
			// Sent twice: n8n's credential test re-sends a 401 (the node's own requests no longer
			// do, see the wrong-key run above); free.
			const refused = expect.objectContaining({
				q: '',
				status: 401,
				outcome: 'unauthorized',
				credits: 0,
			});
			expect(await requestsSeen()).toEqual([refused, refused]);
			expectNoSecrets(JSON.stringify(result), 'the credential test answer');
		});
	});

	describeFaultCases({
		service: () => service,
		search: (name, parameters) =>
			runViaRest(searchWorkflow(`fault: ${name}`, [{}], parameters), 'Start'),
		requestsSeen,
	});
});
