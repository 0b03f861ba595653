'use strict';

// n8n in queue mode on one machine, for the queue suite and `bash scripts/queue-env.sh up`
// (./cli.js): the reference service, a private Redis and PostgreSQL (./services.js), one main and
// N workers (./n8nProcess.js), as on separate machines; the owner and the examples' credential
// (pointing at the service) set up over REST, as the editor does. All on 127.0.0.1. stop() stops
// it all by pid (workers, main, Redis and PostgreSQL, service) and removes the temp folder; a
// failed start stops what it had started.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const n8n = require('../n8n');
const { inTurn } = require('../n8n/startLock');
const { poll } = require('../poll');
const { deadlineMs } = require('../deadlines');
const { startReferenceService } = require('../referenceService');
const { isAlive } = require('../supervisor');
const { DEMO_CREDENTIAL } = require('../stack/demo');
const { startN8nProcess } = require('./n8nProcess');
const { ensureQueuePrerequisitesSync } = require('./prerequisites');
const { queueEnv, startPostgres, startRedis } = require('./services');

// The tests are over by then: n8n gets 15 s before SIGKILL of its group, not its drain window.
const TEARDOWN_GRACE_MS = 15_000;

/**
 * @typedef {object} QueueStackOptions
 * @property {string} packageTarball the `npm pack` tarball installed into every user folder
 * @property {import('../referenceService').ReferenceServiceOptions} [service]
 * @property {number} [workers] default 2
 * @property {number} [concurrency] jobs per worker at a time, default 5
 * @property {{ lockDurationMs: number, lockRenewMs: number, stalledIntervalMs: number }} [stall]
 *   how soon a dead worker's jobs are declared stalled (n8n's defaults: 60 s, 10 s, 30 s)
 * @property {(line: string) => void} [log] a line per step
 * @typedef {{ name: string, supervisorPid: number, stop: (graceMs?: number) => Promise<unknown> }} Stoppable
 * @typedef {import('./n8nProcess').N8nProcess} N8nProcess
 */

class QueueStack {
	/** @type {import('../referenceService').ReferenceService} */
	service = /** @type {any} */ (undefined);
	/** @type {{ port: number, pid: number } | undefined} */ redis;
	/** @type {Awaited<ReturnType<typeof startPostgres>> | undefined} */ postgres;
	/** @type {N8nProcess | undefined} */ main;
	/** @type {N8nProcess[]} */ workers = [];
	/** @type {Stoppable[]} in start order */ processes = [];
	/** @type {any} the owner's REST session (n8n.setupOwner) */ rest;
	credentialId = '';
	mainUrl = '';
	stopping = false;
	/** @type {Promise<void> | undefined} */ stopped;

	/** @param {QueueStackOptions} options */
	constructor(options) {
		this.options = options;
		this.baseDir = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-queue-'));
		fs.chmodSync(this.baseDir, 0o755); // for the postgres user (its data folder stays 0700)
		/** Where workers may read and write files (N8N_RESTRICT_FILE_ACCESS_TO). */
		this.filesDir = path.join(this.baseDir, 'files');
		fs.mkdirSync(this.filesDir);
	}

	/** A step of the start, timed. @template T @param {string} label @param {() => Promise<T>} fn */
	async step(label, fn) {
		const [t0, result] = [Date.now(), await fn()];
		this.options.log?.(`${label}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
		if (this.stopping) throw new Error('queue stack stopped while starting');
		return result;
	}

	async start() {
		const { service = {}, workers = 2 } = this.options;
		const found = ensureQueuePrerequisitesSync();
		if (!found.available) throw new Error(`no Redis or PostgreSQL here: ${found.reason}`);
		this.service = await startReferenceService(service);
		await this.step('n8n installed', () => n8n.ensureN8nInstalled());
		// A process started while stop() runs is stopped at once: stop() has gone through the others.
		const track = (/** @type {Stoppable} */ p) =>
			this.processes.push(p) && this.stopping && p.stop();
		await this.step('Redis and PostgreSQL ready', async () => {
			const dir = path.join(this.baseDir, 'redis');
			[this.redis, this.postgres] = await Promise.all([
				startRedis({ redisServer: String(found.REDIS_SERVER), dir, track }),
				startPostgres({ pgBin: String(found.PG_BIN), baseDir: this.baseDir, track }),
			]);
		});
		// All in one turn of the machine's n8n starts (../n8n/startLock.js): one at a time they took
		// 78 s on 3 Dec, together about 20; the first at the fresh database migrates it, under
		// n8n's advisory lock.
		const { packageTarball, stall, concurrency = 5 } = this.options;
		const env = queueEnv(this.redis, this.postgres, this.filesDir, stall);
		const names = ['main', ...Array.from({ length: workers }, (_, i) => `worker-${i + 1}`)];
		await this.step(`main and ${workers} workers ready`, () =>
			inTurn(async () => {
				const all = names.map((name) =>
					startN8nProcess(name, { packageTarball, env, concurrency, track }),
				);
				await Promise.allSettled(all); // none left starting when one failed
				[this.main, ...this.workers] = await Promise.all(all);
			}),
		);
		this.mainUrl = String(this.main?.url);
		this.rest = await this.step('owner set up', () => n8n.setupOwner(this.mainUrl));
		const { id: _, ...credential } = DEMO_CREDENTIAL;
		const data = { apiKey: this.service.keys[0], baseUrl: this.service.url };
		const created = await this.call('POST', '/rest/credentials', { ...credential, data });
		this.credentialId = created.id;
	}

	/** A REST call that must answer 200; its `data`. @param {string} method @param {string} route @param {unknown} [body] */
	call(method, route, body) {
		return n8n.dataOf(this.rest, method, route, body);
	}

	/**
	 * Creates a workflow, inactive (n8n gives it its id), its Sound Search nodes on the stack's
	 * credential. @param {Record<string, any>} workflow
	 */
	createWorkflow({ versionId: _, ...workflow }) {
		const soundSearchApi = { id: this.credentialId, name: DEMO_CREDENTIAL.name };
		const nodes = workflow.nodes.map((/** @type {any} */ node) =>
			node.credentials?.soundSearchApi ? { ...node, credentials: { soundSearchApi } } : node,
		);
		const settings = { executionOrder: 'v1' };
		return n8n.createWorkflowViaRest(this.rest, { settings, connections: {}, ...workflow, nodes });
	}

	/** Publishes a workflow: its webhooks and triggers start on the main. @param {string} id */
	activateWorkflow = (id) => n8n.activateWorkflow(this.rest, id);
	/** @param {string} id */
	deactivateWorkflow = (id) => n8n.deactivateWorkflow(this.rest, id);
	/** Executions of a workflow, newest first. @param {string} workflowId */
	executionsOf = (workflowId) => n8n.executionsOf(this.rest, workflowId);
	/** An execution as stored (status, mode, startedAt, stoppedAt, data). @param {string} id */
	execution = (id) => this.call('GET', `/rest/executions/${id}`);

	/** The execution once no longer new, running or waiting (the last state seen on timeout). */
	waitForExecutionEnd(/** @type {string} */ id) {
		const ended = (/** @type {any} */ e) => e && !['new', 'running', 'waiting'].includes(e.status);
		return poll(() => this.execution(id).catch(() => undefined), ended, deadlineMs('execution'));
	}

	/** The worker whose own log says it started the execution. @param {string} id */
	workerOf = (id) => this.workers.find((w) => w.started(id))?.name;

	/** Executions per worker, zeros included, from the workers' logs. @param {string[]} ids */
	countByWorker(ids) {
		/** @type {Record<string, number>} */
		const counts = Object.fromEntries(this.workers.map((w) => [w.name, 0]));
		for (const name of ids.map((id) => this.workerOf(id) ?? '(no worker)'))
			counts[name] = (counts[name] ?? 0) + 1;
		return counts;
	}

	/** From the main's log: execution id -> { workerId, success } when its job finished. */
	mainFinished() {
		const finished = (this.main?.events ?? []).filter((e) => e.kind === 'mainFinished');
		return new Map(finished.map((e) => [e.id, e]));
	}

	/** Stops everything by pid, in order, and removes the temp folder. Idempotent. */
	stop() {
		this.stopping = true;
		this.stopped ??= (async () => {
			const t0 = Date.now();
			for (const which of [/^worker-/, /^main$/, /^(redis|postgres)$/]) {
				const group = this.processes.filter((p) => which.test(p.name));
				await Promise.allSettled(group.map((p) => p.stop(TEARDOWN_GRACE_MS)));
			}
			fs.rmSync(this.baseDir, { recursive: true, force: true, maxRetries: 3 });
			const left = this.processes.filter((p) => isAlive(p.supervisorPid)).length;
			const took = `${((Date.now() - t0) / 1000).toFixed(1)} s`;
			this.options.log?.(
				`stopped ${this.processes.length} processes by pid in ${took}, ${left} left`,
			);
			await this.service?.stop();
		})();
		return this.stopped;
	}
}

/**
 * Starts the whole stack; on failure everything started is stopped before it rejects.
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

module.exports = { startQueueStack };
