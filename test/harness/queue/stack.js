'use strict';

// n8n in queue mode on one machine: a private Redis (./redis.js), a private PostgreSQL
// (./postgres.js), one `n8n start` (the main: triggers, webhooks, the editor API) and N `n8n
// worker` processes (./n8nProcess.js) of the pinned n8n. Every n8n process gets its own user
// folder with the packed package installed, its own ports and host name, as on separate machines.
// stop() stops by pid: workers, then the main, then Redis and PostgreSQL, and removes the temp
// folder; a failed start stops what it had started.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const n8n = require('../n8n');
const events = require('./events');
const { MainApi } = require('./mainApi');
const { startN8nProcess } = require('./n8nProcess');
const { startPostgres } = require('./postgres');
const { ensureQueuePrerequisitesSync } = require('./prerequisites');
const { startRedis } = require('./redis');

/**
 * @typedef {object} QueueStackOptions
 * @property {string} packageTarball the `npm pack` tarball installed into every user folder
 * @property {number} [workers] number of workers (default 2)
 * @property {number} [concurrency] jobs per worker at a time (default 5)
 * @property {import('./mainApi').Credential[]} [credentials] created once n8n runs
 * @property {Array<Record<string, any>>} [workflows] created once n8n runs, inactive
 * @property {{ lockDurationMs: number, lockRenewMs: number, stalledIntervalMs: number }} [stall]
 *   how soon the jobs of a killed worker are declared stalled (n8n's defaults: 60 s, 10 s, 30 s)
 * @property {(line: string) => void} [log] progress lines
 */

/** @typedef {{ name: string, supervisorPid: number, stop: () => Promise<unknown> }} Stoppable */

class QueueStack extends MainApi {
	/** @param {QueueStackOptions} options */
	constructor(options) {
		super();
		this.options = options;
		this.log = options.log ?? (() => {});
		this.baseDir = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-queue-'));
		// Traversable by the postgres user (its data folder inside stays 0700, owned by it).
		fs.chmodSync(this.baseDir, 0o755);
		/** Where workers may read and write files (N8N_RESTRICT_FILE_ACCESS_TO). */
		this.filesDir = path.join(this.baseDir, 'files');
		/** @type {Awaited<ReturnType<typeof startRedis>> | undefined} */
		this.redis = undefined;
		/** @type {Awaited<ReturnType<typeof startPostgres>> | undefined} */
		this.postgres = undefined;
		/** @type {import('./n8nProcess').N8nProcess | undefined} */
		this.main = undefined;
		/** @type {import('./n8nProcess').N8nProcess[]} */
		this.workers = [];
		/** @type {Stoppable[]} everything started, in start order */
		this.processes = [];
		this.stopping = false;
		this.workerCount = 0;
		/** @type {Promise<void> | undefined} */
		this.stopped = undefined;
	}

	/**
	 * @template T
	 * @param {string} label
	 * @param {() => Promise<T>} fn
	 */
	async step(label, fn) {
		const t0 = Date.now();
		const result = await fn();
		this.log(`${label}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
		if (this.stopping) throw new Error('queue stack stopped while starting');
		return result;
	}

	async start() {
		const found = await this.step('Redis and PostgreSQL present (scripts/queue-env.sh)', async () =>
			ensureQueuePrerequisitesSync(),
		);
		if (!found.available)
			throw new Error(`the queue-mode environment cannot be set up here: ${found.reason}`);
		await this.step('n8n installed', () => n8n.ensureN8nInstalled());
		fs.mkdirSync(this.filesDir);
		const track = (/** @type {Stoppable} */ p) => this.track(p);
		await this.step('Redis and PostgreSQL ready', async () => {
			const redis = startRedis({
				redisServer: String(found.redisServer),
				dir: path.join(this.baseDir, 'redis'),
				track,
			});
			const postgres = startPostgres({ pgBin: String(found.pgBin), baseDir: this.baseDir, track });
			[this.redis, this.postgres] = await Promise.all([redis, postgres]);
		});
		const count = this.options.workers ?? 2;
		// All n8n processes start together: the first to reach the fresh database runs n8n's
		// migrations under its advisory lock, the others wait for it.
		await this.step(`main and ${count} workers ready`, async () => {
			const all = [
				this.startN8n('main', 'main'),
				...Array.from({ length: count }, () => this.addWorker()),
			];
			const failed = (await Promise.allSettled(all)).find((r) => r.status === 'rejected');
			if (failed) throw failed.reason;
		});
		this.mainUrl = /** @type {import('./n8nProcess').N8nProcess} */ (this.main).url;
		this.rest = await this.step('owner set up', () => n8n.setupOwner(this.mainUrl));
		await this.step('credentials and workflows created (REST)', async () => {
			for (const credential of this.options.credentials ?? [])
				await this.createCredential(credential);
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
		const userFolder = await n8n.createN8nUserFolder({
			packageTarball: this.options.packageTarball,
		});
		const proc = await startN8nProcess({
			role,
			name,
			userFolder,
			env: this.queueEnv(),
			concurrency: this.options.concurrency ?? 5,
			readyTimeoutMs: 180_000,
			track: (p) =>
				this.track({
					...p,
					stop: async () => (await p.stop(), n8n.removeN8nUserFolder(userFolder)),
				}),
		});
		if (role === 'main') this.main = proc;
		else this.workers.push(proc);
		return proc;
	}

	/** The environment every n8n process of the stack shares, on top of n8nEnv's. */
	queueEnv() {
		const [redis, pg, stall] = [this.redis, this.postgres, this.options.stall];
		if (!redis || !pg) throw new Error('Redis and PostgreSQL must run first');
		return {
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(redis.port),
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(pg.port),
			DB_POSTGRESDB_DATABASE: pg.database,
			DB_POSTGRESDB_USER: pg.user,
			DB_POSTGRESDB_PASSWORD: 'trust-auth-on-loopback',
			N8N_LOG_FORMAT: 'json',
			N8N_RESTRICT_FILE_ACCESS_TO: this.filesDir,
			...(stall && {
				QUEUE_WORKER_LOCK_DURATION: String(stall.lockDurationMs),
				QUEUE_WORKER_LOCK_RENEW_TIME: String(stall.lockRenewMs),
				QUEUE_WORKER_STALLED_INTERVAL: String(stall.stalledIntervalMs),
			}),
		};
	}

	/** The worker whose own log says it started the execution. @param {string | number} id */
	workerOf(id) {
		return this.workers.find((w) => events.started(w, String(id)))?.name;
	}

	/** @param {Array<string | number>} executionIds */
	countByWorker(executionIds) {
		return events.countByWorker(this.workers, executionIds);
	}

	mainFinished() {
		return events.mainFinished(this.main);
	}

	workerIds() {
		return events.workerIds(this.main, this.workers);
	}

	/** Stops everything by pid, in order, and removes the temp folder. Idempotent. */
	stop() {
		this.stopping = true;
		this.stopped ??= (async () => {
			const t0 = Date.now();
			const stage = (/** @type {(p: Stoppable) => boolean} */ which) =>
				Promise.allSettled(this.processes.filter(which).map((p) => p.stop()));
			await stage((p) => p.name.startsWith('worker-'));
			await stage((p) => p.name === 'main');
			await stage((p) => p.name === 'redis' || p.name === 'postgres');
			fs.rmSync(this.baseDir, { recursive: true, force: true, maxRetries: 3 });
			this.log(
				`stopped ${this.processes.length} processes by pid: ${((Date.now() - t0) / 1000).toFixed(1)} s`,
			);
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
