'use strict';

// What every real-n8n scenario test shares. useN8n() registers the jest hooks: before all, a user
// folder with the packed package installed as n8n installs it, the credentials imported with the
// CLI, the reference service (and the fake OpenAI model if asked) on 127.0.0.1, `n8n start` and
// an owner (later, when the file runs `n8n execute` first); before each test, the service and the
// model reset; after each, what the test activated deactivated and the server log checked for
// keys; after all, every process stopped by pid, on failure too. One scenario serves a whole test
// file, so a case leaves n8n as it found it or says what it leaves. run() (REST, as the editor's
// "Execute workflow") and execute() (CLI) take a workflow file's name (workflowFile.js) and return
// status, error, items(node).

const fs = require('node:fs');
const path = require('node:path');
const n8n = require('../harness/n8n');
const { packageTarball } = require('../harness/packageTarball');
const { startReferenceService } = require('../harness/referenceService');
const { startFakeOpenAi } = require('../harness/fakeModel');
const { poll } = require('../harness/poll');
const { deadlineMs } = require('../harness/deadlines');
const { loadWorkflow, outcome } = require('./workflowFile');
const { ledgerRow } = require('./ledger');

// Test keys only ('dummy' tells secret scanners they are not real).
const KEYS = {
	sound: 'dummy-e2e-key-4b7d1c0a',
	wrongKey: 'dummy-wrong-key-9e2a5713',
	openAi: 'dummy-openai-key-c31f08d2',
};
/** The id and name examples/ refer to, and a second one with a key the service refuses. */
const CREDENTIALS = {
	sound: { id: 'soundSearchDemo', name: 'Sound Search account' },
	wrongKey: { id: 'soundSearchWrongK', name: 'Sound Search wrong key' },
};
const OPENAI_CREDENTIAL = { id: 'openAiDemo', name: 'OpenAI account' };
const UNFINISHED = ['new', 'running', 'waiting'];
const UNSET = /** @type {any} */ (undefined);

/**
 * @typedef {import('./workflowFile').LoadOptions & { credential?: keyof CREDENTIALS }} RunOptions
 *   credential: the one "$credential" stands for (default: the valid key)
 */

const soundIds = (/** @type {any[]} */ items) => items.map((item) => item.soundId);

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** @param {string} text @param {string} where */
function expectNoSecrets(text, where) {
	for (const key of Object.values(KEYS)) {
		if (text.includes(key)) throw new Error(`an API key appears in ${where}`);
	}
}

class Scenario {
	// Set by setUp() and start(), before any test.
	/** @type {import('../harness/referenceService').ReferenceService} */ service = UNSET;
	/** @type {Awaited<ReturnType<typeof startFakeOpenAi>>} */ model = UNSET;
	/** @type {import('../harness/n8n/server').N8nServer | undefined} */ server;
	/** @type {Awaited<ReturnType<typeof n8n.setupOwner>>} */ rest = UNSET;
	userFolder = '';
	filesDir = ''; // the folder n8n may read and write (N8N_RESTRICT_FILE_ACCESS_TO)
	/** @type {string[]} */ active = []; // workflows the current test activated

	/** @param {{ model?: boolean, start?: boolean, readmeInstall?: boolean }} options */
	constructor(options) {
		this.options = options;
	}

	async setUp() {
		await n8n.ensureN8nInstalled();
		const tarball = packageTarball();
		this.service = await startReferenceService({ keys: [KEYS.sound] });
		if (this.options.model) {
			this.model = await startFakeOpenAi({ apiKey: KEYS.openAi, query: 'rainy lofi' });
		}
		const { readmeInstall: asReadme } = this.options;
		this.userFolder = await n8n.createN8nUserFolder({ packageTarball: tarball, asReadme });
		// The examples' .n8n-files, relative to the folder n8n runs in (its user folder here, as
		// /home/node in n8n's Docker image); outside <userFolder>/.n8n, which n8n blocks.
		this.filesDir = path.join(this.userFolder, '.n8n-files');
		fs.mkdirSync(this.filesDir);
		/** @type {Parameters<typeof n8n.importCredentials>[1]} */
		const credentials = [];
		for (const key of /** @type {const} */ (['sound', 'wrongKey'])) {
			const data = { apiKey: KEYS[key], baseUrl: this.service.url };
			credentials.push({ ...CREDENTIALS[key], type: 'soundSearchApi', data });
		}
		if (this.model) {
			const data = { apiKey: KEYS.openAi, url: this.model.url };
			credentials.push({ ...OPENAI_CREDENTIAL, type: 'openAiApi', data });
		}
		await n8n.importCredentials(this.userFolder, credentials);
		if (this.options.start !== false) await this.start();
	}

	/** `n8n start` on the user folder (127.0.0.1, a free port), and the owner logged in. */
	async start() {
		const env = { N8N_RESTRICT_FILE_ACCESS_TO: this.filesDir };
		this.server = await n8n.startN8n(this.userFolder, { env });
		this.rest = await n8n.setupOwner(this.server.url);
	}

	/** n8n stopped and started on the same state; its log checked now (tearDown sees the last). */
	async restart() {
		const stopped = this.server;
		await stopped?.stop();
		if (stopped) expectNoSecrets(stopped.logs(), 'the log of the n8n server before a restart');
		await this.start();
	}

	async tearDown() {
		await Promise.allSettled([this.server?.stop(), this.service?.stop(), this.model?.stop()]);
		if (this.userFolder) n8n.removeN8nUserFolder(this.userFolder);
		if (this.server) expectNoSecrets(this.server.logs(), 'the n8n server log');
	}

	/** @param {string} name @param {RunOptions} [options] */
	workflow(name, options = {}) {
		const credential = CREDENTIALS[options.credential ?? 'sound'];
		return loadWorkflow(name, { ...options, credential, filesDir: this.filesDir });
	}

	/**
	 * Saves the workflow and runs it like the editor's "Execute workflow" button (REST).
	 * @param {string} name @param {RunOptions} [options]
	 */
	async run(name, options = {}) {
		const workflow = this.workflow(name, options);
		const { id } = await n8n.createWorkflowViaRest(this.rest, workflow);
		const triggerNode = workflow.nodes[0].name;
		const { execution, run } = await n8n.runWorkflowViaRest(this.rest, id, { triggerNode });
		expectNoSecrets(JSON.stringify(execution), `execution ${execution.id} of "${workflow.name}"`);
		return outcome(execution.status, run);
	}

	/**
	 * Imports the workflow with the CLI and runs it headless (`n8n execute`); it must succeed.
	 * @param {string} name @param {RunOptions} [options]
	 */
	async execute(name, options = {}) {
		const { id } = await n8n.importWorkflow(this.userFolder, this.workflow(name, options));
		const env = { N8N_RESTRICT_FILE_ACCESS_TO: this.filesDir };
		const result = await n8n.executeWorkflow(this.userFolder, id, { env });
		if (result.code !== 0 || result.run?.status !== 'success') {
			const logs = `${result.stdout.slice(-4000)}\n${result.stderr.slice(-2000)}`;
			throw new Error(`n8n execute failed (code ${result.code}):\n${logs}`);
		}
		expectNoSecrets(result.stdout + result.stderr, '`n8n execute` output');
		return outcome(result.run.status, result.run.data);
	}

	/** Every request the service got since the test began, in order (ledgerRow). */
	async ledger() {
		return (await this.service.ledger()).requests.map(ledgerRow);
	}

	/** The first sounds the service lists for a keyword right now (short-video platform). */
	async searchService(/** @type {string} */ q, limit = 50) {
		const answer = await this.service.search('shortvideo', { q, limit: String(limit) });
		return /** @type {any[]} */ (answer.body.data.items);
	}

	/** The soundIds the service lists first for a keyword right now. */
	async topSoundIds(/** @type {string} */ q, /** @type {number} */ count) {
		return soundIds(await this.searchService(q, count));
	}

	/** A REST call the editor makes that must answer 200; returns the answer's data. */
	async ok(method, route, body = method === 'GET' ? undefined : {}) {
		return n8n.dataOf(this.rest, method, route, body);
	}

	/** Saves and activates a workflow (n8n polls a polling trigger once, at once). */
	async activate(/** @type {string} */ name, /** @type {RunOptions} */ options = {}) {
		const { id } = await n8n.createWorkflowViaRest(this.rest, this.workflow(name, options));
		await this.reactivate(id);
		return id;
	}

	async reactivate(id) {
		await n8n.activateWorkflow(this.rest, id);
		this.active.push(id);
	}

	async deactivate(id) {
		await n8n.deactivateWorkflow(this.rest, id);
		this.active = this.active.filter((active) => active !== id);
	}

	/** Deactivates and activates again: n8n polls at once. */
	async pollNow(id) {
		await this.deactivate(id);
		await this.reactivate(id);
	}

	/** The workflow's finished runs, oldest first: { mode, status, items(node), ... }. */
	async runs(id) {
		const done = (await n8n.executionsOf(this.rest, id)).filter(
			(/** @type {any} */ e) => !UNFINISHED.includes(e.status),
		);
		const finished = async (/** @type {any} */ { id: executionId }) => {
			const execution = await this.ok('GET', `/rest/executions/${executionId}`);
			expectNoSecrets(JSON.stringify(execution), `execution ${executionId}`);
			const run = outcome(execution.status, n8n.parseExecutionData(execution.data));
			return { ...run, mode: execution.mode, execution };
		};
		return Promise.all(done.reverse().map(finished));
	}

	/** Waits until the workflow has `count` finished runs (or the time is up), then returns them. */
	async waitForRuns(id, count, timeoutMs = deadlineMs(30)) {
		return poll(
			() => this.runs(id),
			(runs) => runs.length >= count,
			timeoutMs,
			1000,
		);
	}
}

/** @typedef {Scenario} E2eScenario what a case module of cases/ gets from its test file */

/**
 * The real n8n of one test file, its hooks registered (see the top of this file).
 * @param {{ model?: boolean, start?: boolean, readmeInstall?: boolean }} [options] model: the
 *   fake OpenAI model too; start: false when the file starts n8n itself (scenario.start()), after
 *   headless cases; readmeInstall: the package installed by the README's own lines
 *   (test/harness/n8n/readmeInstall.js), not as n8n's installer does
 */
function useN8n(options = {}) {
	const scenario = new Scenario(options);
	// A cold machine installs n8n first (about 4.5 min).
	beforeAll(() => scenario.setUp(), deadlineMs('setUp'));
	afterAll(() => scenario.tearDown(), deadlineMs('tearDown'));
	beforeEach(async () => {
		await scenario.service?.reset();
		await scenario.model?.reset();
	});
	afterEach(async () => {
		for (const id of [...scenario.active]) await scenario.deactivate(id);
		// Each test, not only the last: a server keeps only its log's tail and serves many tests.
		if (scenario.server) expectNoSecrets(scenario.server.logs(), 'the n8n server log');
	});
	return scenario;
}

module.exports = { useN8n, expectNoSecrets, sleep, soundIds, KEYS, CREDENTIALS };
