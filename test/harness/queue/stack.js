'use strict';

// n8n in queue mode on one machine, the one harness of the queue suite and of `bash
// scripts/queue-env.sh up` (./cli.js): the reference service (behind a delay proxy if asked,
// ./delayProxy.js), a private Redis and PostgreSQL (./services.js), one `n8n start` (the main:
// triggers, webhooks, the editor API) and N `n8n worker` processes (./n8nProcess.js) of the
// pinned n8n. Every n8n process gets its own user folder with the packed package installed, its
// own ports and host name, as on separate machines. What a test asks of the stack goes through
// the main's REST API, as the editor does. stop() stops by pid: workers, then the main, then
// Redis and PostgreSQL, then the service; it removes the temp folder. A failed start stops what
// it had started.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const n8n = require('../n8n');
const { poll } = require('../poll');
const { deadlineMs } = require('../deadlines');
const { startReferenceService } = require('../referenceService');
const { startDelayProxy } = require('./delayProxy');
const events = require('./events');
const { startN8nProcess } = require('./n8nProcess');
const { inTurn } = require('../n8n/startLock');
const { ensureQueuePrerequisitesSync } = require('./prerequisites');
const { queueEnv, startPostgres, startRedis } = require('./services');

const TEARDOWN_GRACE_MS = 15_000;

/**
 * @typedef {object} QueueStackOptions
 * @property {string} packageTarball the `npm pack` tarball installed into every user folder
 * @property {import('../referenceService').ReferenceServiceOptions & { delayMs?: number }} service
 *   the reference service the credentials point at (with its first key); delayMs: every answer
 *   held that long by a proxy (setDelay changes it), so executions can be caught mid-flight
 * @property {number} [workers] number of workers (default 2)
 * @property {number} [concurrency] jobs per worker at a time (default 5)
 * @property {Array<{ id?: string, name: string, type: string }>} [credentials] Sound Search
 *   credentials, created once n8n runs
 * @property {Array<Record<string, any>>} [workflows] created once n8n runs, inactive
 * @property {{ lockDurationMs: number, lockRenewMs: number, stalledIntervalMs: number }} [stall]
 *   how soon the jobs of a killed worker are declared stalled (n8n's defaults: 60 s, 10 s, 30 s)
 * @property {(line: string) => void} [log] progress lines
 * @typedef {{ name: string, supervisorPid: number, stop: (graceMs?: number) => Promise<unknown> }} Stoppable
 */

const UNSET = /** @type {any} */ (undefined);

class QueueStack {
	/** @type {Awaited<ReturnType<typeof startReferenceService>>} */ service = UNSET;
	/** @type {Awaited<ReturnType<typeof startDelayProxy>> | undefined} */ proxy;
	/** @type {Awaited<ReturnType<typeof startRedis>> | undefined} */ redis;
	/** @type {Awaited<ReturnType<typeof startPostgres>> | undefined} */ postgres;
	/** @type {import('./n8nProcess').N8nProcess | undefined} */ main;
	/** @type {import('./n8nProcess').N8nProcess[]} */ workers = [];
	/** @type {Stoppable[]} everything started, in start order */ processes = [];
	/** @type {Awaited<ReturnType<typeof n8n.setupOwner>> | undefined} */ rest;
	/** @type {Map<string, string>} credential id given -> id n8n gave it */
	credentialIds = new Map();
	mainUrl = '';
	stopping = false;
	workerCount = 0;
	/** @type {Promise<void> | undefined} */ stopped;

	/** @param {QueueStackOptions} options */
	constructor(options) {
		this.options = options;
		this.log = options.log ?? (() => {});
		this.baseDir = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-queue-'));
		// Traversable by the postgres user (its data folder inside stays 0700, owned by it).
		fs.chmodSync(this.baseDir, 0o755);
		/** Where workers may read and write files (N8N_RESTRICT_FILE_ACCESS_TO). */
		this.filesDir = path.join(this.baseDir, 'files');
		fs.mkdirSync(this.filesDir);
	}

	/** @template T @param {string} label @param {() => Promise<T>} fn */
	async step(label, fn) {
		const t0 = Date.now();
		const result = await fn();
		this.log(`${label}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
		if (this.stopping) throw new Error('queue stack stopped while starting');
		return result;
	}

	async start() {
		const { delayMs, ...serviceOptions } = this.options.service;
		this.service = await startReferenceService(serviceOptions);
		if (delayMs !== undefined) this.proxy = await startDelayProxy(this.service.url, { delayMs });
		const found = await this.step('Redis and PostgreSQL present (scripts/queue-env.sh)', async () =>
			ensureQueuePrerequisitesSync(),
		);
		if (!found.available)
			throw new Error(`the queue-mode environment cannot be set up here: ${found.reason}`);
		await this.step('n8n installed', () => n8n.ensureN8nInstalled());
		const track = (/** @type {Stoppable} */ p) => this.track(p);
		await this.step('Redis and PostgreSQL ready', async () => {
			[this.redis, this.postgres] = await Promise.all([
				startRedis({
					redisServer: String(found.redisServer),
					dir: path.join(this.baseDir, 'redis'),
					track,
				}),
				startPostgres({ pgBin: String(found.pgBin), baseDir: this.baseDir, track }),
			]);
		});
		const count = this.options.workers ?? 2;
		// All n8n processes start together, in one turn of the machine's n8n starts
		// (../n8n/startLock.js: one at a time, they took 78 s on 3 Dec, together about 20): the
		// first to reach the fresh database runs n8n's migrations under its advisory lock.
		await this.step(`main and ${count} workers ready`, () =>
			inTurn(async () => {
				const all = [
					this.startN8n('main', 'main'),
					...Array.from({ length: count }, () => this.addWorker()),
				];
				const failed = (await Promise.allSettled(all)).find((r) => r.status === 'rejected');
				if (failed) throw failed.reason;
			}),
		);
		this.mainUrl = /** @type {import('./n8nProcess').N8nProcess} */ (this.main).url;
		this.rest = await this.step('owner set up', () => n8n.setupOwner(this.mainUrl));
		await this.step('credentials and workflows created (REST)', async () => {
			const data = { apiKey: this.service.keys[0], baseUrl: (this.proxy ?? this.service).url };
			for (const { id, ...credential } of this.options.credentials ?? []) {
				const created = await this.call('POST', '/rest/credentials', { ...credential, data });
				if (id) this.credentialIds.set(id, created.id);
			}
			for (const workflow of this.options.workflows ?? []) await this.createWorkflow(workflow);
		});
	}

	/** @param {Stoppable} proc */
	track(proc) {
		this.processes.push(proc);
		// stop() already ran its course for the processes it knew: this one goes at once.
		if (this.stopping) void proc.stop();
	}

	/** One more worker, with its own user folder, ports and host name; resolves once it is ready. */
	addWorker() {
		return this.startN8n('worker', `worker-${++this.workerCount}`);
	}

	/** @param {'main' | 'worker'} role @param {string} name */
	async startN8n(role, name) {
		const { packageTarball } = this.options;
		const userFolder = await n8n.createN8nUserFolder({ packageTarball });
		const proc = await startN8nProcess({
			role,
			name,
			userFolder,
			env: queueEnv(this.redis, this.postgres, this.filesDir, this.options.stall),
			concurrency: this.options.concurrency ?? 5,
			readyTimeoutMs: deadlineMs('n8nReady'),
			track: (p) =>
				this.track({
					...p,
					stop: async (graceMs) => (await p.stop(graceMs), n8n.removeN8nUserFolder(userFolder)),
				}),
		});
		if (role === 'main') this.main = proc;
		else this.workers.push(proc);
		return proc;
	}

	/** A REST call that must answer 200; its `data`. @param {string} method @param {string} route @param {unknown} [body] */
	async call(method, route, body) {
		if (!this.rest) throw new Error('the owner is not set up yet');
		return n8n.dataOf(this.rest, method, route, body);
	}

	/**
	 * Creates a workflow, inactive (publish it with activateWorkflow); its nodes' credentials
	 * pointed at the ids n8n gave the stack's credentials.
	 * @param {Record<string, any>} workflow
	 */
	async createWorkflow({ active: _active, versionId: _versionId, ...workflow }) {
		const mapped = (/** @type {any} */ ref) => ({
			...ref,
			id: this.credentialIds.get(ref?.id) ?? ref?.id,
		});
		const nodes = (workflow.nodes ?? []).map((/** @type {any} */ node) => {
			if (!node.credentials) return node;
			const entries = Object.entries(node.credentials).map(([type, ref]) => [type, mapped(ref)]);
			return { ...node, credentials: Object.fromEntries(entries) };
		});
		const body = { settings: { executionOrder: 'v1' }, connections: {}, ...workflow, nodes };
		const { id, versionId } = await this.call('POST', '/rest/workflows', body);
		return { id, versionId };
	}

	/** Publishes a workflow: its webhooks and triggers start on the main. @param {string} id */
	activateWorkflow(id) {
		return n8n.activateWorkflow(/** @type {any} */ (this.rest), id);
	}

	/** @param {string} id */
	deactivateWorkflow(id) {
		return n8n.deactivateWorkflow(/** @type {any} */ (this.rest), id);
	}

	/** An execution as stored (status, mode, startedAt, stoppedAt, data). @param {string} id */
	execution(id) {
		return this.call('GET', `/rest/executions/${id}`);
	}

	/** Executions of a workflow, newest first. @param {string} workflowId */
	executionsOf(workflowId, limit = 100) {
		return n8n.executionsOf(/** @type {any} */ (this.rest), workflowId, limit);
	}

	/** The execution once no longer new/running/waiting (the last state seen on timeout). */
	waitForExecutionEnd(/** @type {string} */ id) {
		const ended = (/** @type {any} */ e) => e && !['new', 'running', 'waiting'].includes(e.status);
		const read = () => this.execution(id).catch(() => undefined);
		return poll(read, ended, deadlineMs('execution'));
	}

	/**
	 * Waits until the main serves a just-published production webhook; how long that took.
	 * @param {string} webhookPath
	 */
	waitForWebhook(webhookPath, method = 'POST') {
		return n8n.untilWebhookServed(`${this.mainUrl}/webhook/${webhookPath}`, method);
	}

	/** The worker whose own log says it started the execution. @param {string | number} id */
	workerOf(id) {
		return this.workers.find((w) => events.started(w, String(id)))?.name;
	}

	/** Executions per worker, from the workers' logs. @param {Array<string | number>} ids */
	countByWorker(ids) {
		return events.countByWorker(this.workers, ids);
	}

	/** From the main's log: execution id -> { workerId, success }. */
	mainFinished = () => events.mainFinished(this.main);

	/** Worker name -> the worker ids the main reported for it. */
	workerIds = () => events.workerIds(this.main, this.workers);

	/** Stops everything by pid, in order, and removes the temp folder. Idempotent. */
	stop() {
		this.stopping = true;
		this.stopped ??= (async () => {
			const t0 = Date.now();
			/** @param {(p: Stoppable) => boolean} which @param {number} [graceMs] */
			const stage = (which, graceMs) =>
				Promise.allSettled(this.processes.filter(which).map((p) => p.stop(graceMs)));
			// The tests are over: n8n's drain window (60 s, for the SIGTERM test) only delays the
			// teardown when an execution hangs, so n8n gets 15 s before SIGKILL of its group.
			await stage((p) => p.name.startsWith('worker-'), TEARDOWN_GRACE_MS);
			await stage((p) => p.name === 'main', TEARDOWN_GRACE_MS);
			await stage((p) => p.name === 'redis' || p.name === 'postgres');
			fs.rmSync(this.baseDir, { recursive: true, force: true, maxRetries: 3 });
			this.log(
				`stopped ${this.processes.length} processes by pid: ${((Date.now() - t0) / 1000).toFixed(1)} s`,
			);
			await Promise.allSettled([this.proxy?.stop(), this.service?.stop()]);
		})();
		return this.stopped;
	}

	/** The supervisors' pids (each leads the process group of what it started), for leak checks. */
	supervisorPids() {
		return this.processes.map((p) => p.supervisorPid);
	}
}

/**
 * Starts the whole stack and sets up the owner, credentials and workflows; on failure everything
 * started is stopped before it rejects.
 * @param {QueueStackOptions} options
 */
async function startQueueStack(options) {
	const stack = new QueueStack(options);
	try {
		await stack.start();
		return stack;
	} catch (error) {
		await stack.stop();
		throw error;
	}
}

module.exports = { startQueueStack, QueueStack };
