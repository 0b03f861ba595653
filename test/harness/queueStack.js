'use strict';

// n8n in queue mode, on one machine, for the queue-mode suite (test/queue/) and for exploration
// (`bash scripts/queue-env.sh up`): a private Redis, a private PostgreSQL cluster (initdb into a
// temp folder, loopback only, a free port), one `n8n start` (the main instance: triggers,
// webhooks, the editor API) and N `n8n worker` processes of the pinned n8n (n8n-host/).
//
// Every n8n process gets its own user folder with the packed package installed into
// <folder>/.n8n/nodes/node_modules the way n8n installs a community package, as on separate
// machines; its own N8N_PORT, N8N_RUNNERS_BROKER_PORT and (workers) QUEUE_HEALTH_CHECK_PORT; and,
// where `unshare --uts` works, its own host name (queue-main, queue-worker-1, ...), so that n8n's
// worker ids (`worker-<hostname>` in containers) differ. Readiness: Redis answers PING, PostgreSQL `pg_isready` and the database
// exists, main and workers answer 200 on /healthz/readiness.
//
// Which worker ran an execution: each process logs in JSON (N8N_LOG_FORMAT=json); a worker logs
// "Worker started/finished execution <id>" and the main "Execution <id> (job <j>) finished" with
// the worker's id. The harness parses every process's own output, so an execution is attributed to
// the process that printed it (QueueStack.workerOf), and cross-checked with what the main reports.
//
// Teardown is by process id: every process (Redis, PostgreSQL, main, workers) runs under a small
// supervisor that leads its own process group. stop() stops workers, then the main, then Redis and
// PostgreSQL, each by SIGTERM (PostgreSQL: SIGINT, its fast shutdown) and SIGKILL of its group
// after a grace period, and removes the temp folder; a failed start stops what it had started. If
// the test process dies, every supervisor notices (its IPC channel closes) and stops its process
// the same way; the PostgreSQL supervisor then also removes the temp folder.
//
// Plain CommonJS, built-ins only (the project's strict linter applies node-code rules to .ts).

const { spawn, spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const n8n = require('./n8n');
const { liveSupervisors, spawnSupervised, stopSupervised } = require('./supervisor');

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const QUEUE_ENV_SH = path.join(REPO_ROOT, 'scripts', 'queue-env.sh');
const LIB_SH = path.join(n8n.HOST_DIR, 'lib.sh');

const DB_NAME = 'n8n';
const DB_USER = 'n8n';
const DEFAULT_READY_TIMEOUT_MS = 180_000;
const SERVICE_READY_TIMEOUT_MS = 60_000;
const INSTALL_TIMEOUT_MS = 15 * 60_000;
// n8n's own drain window on SIGTERM (N8N_GRACEFUL_SHUTDOWN_TIMEOUT, seconds); the supervisor
// SIGKILLs the process group if n8n is still there some seconds after it.
const N8N_SHUTDOWN_SECONDS = 20;
const N8N_STOP_GRACE_MS = (N8N_SHUTDOWN_SECONDS + 8) * 1000;
const SERVICE_STOP_GRACE_MS = 10_000;
// Enough raw output to explain a failure, without growing without bound.
const LOG_TAIL_CHARS = 60_000;

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * @typedef {object} Supervised
 * @property {string} name
 * @property {number} supervisorPid leader of the process group
 * @property {Promise<number>} childPid the command's own pid (-1 if it never started)
 * @property {Promise<{code: number | null, signal: string | null}>} exited the command's exit
 * @property {() => {code: number | null, signal: string | null} | undefined} exitStatus set once exited
 * @property {() => string} logs the tail of its stdout and stderr
 * @property {(signal: NodeJS.Signals) => Promise<boolean>} signal sends a signal to the command
 *   itself (not the supervisor); false if it had already exited
 * @property {() => Promise<{code: number | null, signal: string | null}>} stop the stop signal,
 *   SIGKILL of the group after the grace period; waits for the exit. Safe to call twice.
 */

/**
 * Starts a command under a supervisor (see supervisor.js).
 * @param {string} name for messages
 * @param {string[]} command executable and arguments
 * @param {{ env?: NodeJS.ProcessEnv, cwd?: string, graceMs: number, stopSignal?: NodeJS.Signals,
 *   cleanupDir?: string, onLine?: (line: string) => void }} options
 * @returns {Supervised}
 */
function supervise(
	name,
	command,
	{ env = process.env, cwd, graceMs, stopSignal = 'SIGTERM', cleanupDir = '', onLine },
) {
	const supervisor = spawnSupervised(command, { env, cwd, graceMs, stopSignal, cleanupDir });
	const pgid = /** @type {number} */ (supervisor.pid);
	let tail = '';
	let partial = '';
	/** @param {string} chunk */
	const take = (chunk) => {
		tail = (tail + chunk).slice(-LOG_TAIL_CHARS);
		if (!onLine) return;
		partial += chunk;
		const lines = partial.split('\n');
		partial = /** @type {string} */ (lines.pop());
		for (const line of lines) onLine(line);
	};
	supervisor.stdout?.setEncoding('utf8').on('data', take);
	supervisor.stderr?.setEncoding('utf8').on('data', take);

	/** @type {{code: number | null, signal: string | null} | undefined} */
	let childExit;
	/** @type {{code: number | null, signal: string | null} | undefined} */
	let finalExit;
	/** @type {(pid: number) => void} */
	let gotPid = () => {};
	/** @type {Promise<number>} */
	const childPid = new Promise((resolve) => (gotPid = resolve));
	supervisor.on('message', (/** @type {any} */ message) => {
		if (message?.event === 'spawned') gotPid(message.pid);
		if (message?.event === 'exit') childExit = { code: message.code, signal: message.signal };
		if (message?.event === 'error')
			tail += `\n[queueStack] could not start ${name}: ${message.message}\n`;
	});
	/** @type {Promise<{code: number | null, signal: string | null}>} */
	const exited = new Promise((resolve) => {
		supervisor.on('close', (code, signal) => {
			liveSupervisors.delete(pgid);
			try {
				process.kill(-pgid, 'SIGKILL'); // anything left in the group
			} catch {
				// group already empty
			}
			if (partial && onLine) onLine(partial);
			gotPid(-1);
			finalExit = childExit ?? { code, signal };
			resolve(finalExit);
		});
	});
	return {
		name,
		supervisorPid: pgid,
		childPid,
		exited,
		exitStatus: () => finalExit,
		logs: () => tail,
		signal: async (signal) => {
			const pid = await childPid;
			if (pid <= 0 || finalExit) return false;
			try {
				process.kill(pid, signal);
				return true;
			} catch {
				return false;
			}
		},
		stop: async () => await stopSupervised(pgid, exited, graceMs + 3_000),
	};
}

/**
 * Runs a command to completion (no supervisor: short-lived, killed on timeout).
 * @param {string[]} command
 * @param {{ env?: NodeJS.ProcessEnv, cwd?: string, timeoutMs?: number }} [options]
 * @returns {Promise<{ code: number | null, stdout: string, stderr: string }>}
 */
function run(command, { env = process.env, cwd, timeoutMs = 60_000 } = {}) {
	return new Promise((resolve) => {
		const child = spawn(command[0], command.slice(1), {
			env,
			cwd,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let stdout = '';
		let stderr = '';
		child.stdout
			.setEncoding('utf8')
			.on('data', (chunk) => (stdout = (stdout + chunk).slice(-LOG_TAIL_CHARS)));
		child.stderr
			.setEncoding('utf8')
			.on('data', (chunk) => (stderr = (stderr + chunk).slice(-LOG_TAIL_CHARS)));
		const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
		child.on('error', (error) => {
			clearTimeout(timer);
			resolve({ code: 127, stdout, stderr: `${stderr}${error.message}` });
		});
		child.on('close', (code) => {
			clearTimeout(timer);
			resolve({ code, stdout, stderr });
		});
	});
}

/**
 * @typedef {object} QueuePrerequisites
 * @property {boolean} available
 * @property {string} [reason] why not (when not available)
 * @property {string} [redisServer] path of redis-server
 * @property {string} [pgBin] folder of the PostgreSQL server binaries
 * @property {string} [redisVersion]
 * @property {string} [pgVersion]
 */

/**
 * Makes sure Debian's redis-server and the PostgreSQL server binaries are there, installing what is
 * missing (`scripts/queue-env.sh install`; apt-get, so root or password-less sudo). Resolves with
 * available: false only when they truly cannot be installed here (the script's exit code 3);
 * rejects on any other failure.
 * @param {{ install?: boolean }} [options] install: false only checks
 * @returns {Promise<QueuePrerequisites>}
 */
async function ensureQueuePrerequisites({ install = true } = {}) {
	const result = await run(['bash', QUEUE_ENV_SH, install ? 'install' : 'check'], {
		timeoutMs: INSTALL_TIMEOUT_MS,
	});
	return readPrerequisites(result, install);
}

/**
 * The same, blocking: for a test file that must decide at load time whether its suite can run.
 * @param {{ install?: boolean }} [options]
 * @returns {QueuePrerequisites}
 */
function ensureQueuePrerequisitesSync({ install = true } = {}) {
	const result = spawnSync('bash', [QUEUE_ENV_SH, install ? 'install' : 'check'], {
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
		timeout: INSTALL_TIMEOUT_MS,
		maxBuffer: 16 * 1024 * 1024,
	});
	return readPrerequisites(
		{ code: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? '' },
		install,
	);
}

/**
 * @param {{ code: number | null, stdout: string, stderr: string }} result of queue-env.sh
 * @param {boolean} install
 * @returns {QueuePrerequisites}
 */
function readPrerequisites(result, install) {
	if (result.code === 3) {
		return { available: false, reason: result.stderr.trim().split('\n').slice(-5).join('\n') };
	}
	if (result.code !== 0) {
		throw new Error(
			`scripts/queue-env.sh ${install ? 'install' : 'check'} failed (${result.code}):\n${result.stderr.slice(-4000)}`,
		);
	}
	/** @type {Record<string, string>} */
	const values = {};
	for (const line of result.stdout.split('\n')) {
		const eq = line.indexOf('=');
		if (eq > 0) values[line.slice(0, eq)] = line.slice(eq + 1);
	}
	return {
		available: true,
		redisServer: values.REDIS_SERVER,
		pgBin: values.PG_BIN,
		redisVersion: values.REDIS_VERSION,
		pgVersion: values.PG_VERSION,
	};
}

/**
 * Whether `unshare --uts` can give a process its own host name here (root, or user namespaces).
 * @returns {Promise<boolean>}
 */
async function canSetHostName() {
	const result = await run(
		['unshare', '--uts', '--', 'sh', '-c', 'hostname queue-stack-probe && hostname'],
		{
			timeoutMs: 10_000,
		},
	);
	return result.code === 0 && result.stdout.trim() === 'queue-stack-probe';
}

/**
 * The uid and gid of the `postgres` user, when this process runs as root (PostgreSQL refuses to
 * run as root), else undefined.
 * @returns {{ uid: number, gid: number } | undefined}
 */
function postgresAccount() {
	if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
	const line = fs
		.readFileSync('/etc/passwd', 'utf8')
		.split('\n')
		.find((entry) => entry.startsWith('postgres:'));
	if (!line)
		throw new Error('running as root, but there is no `postgres` user to run PostgreSQL as');
	const [, , uid, gid] = line.split(':');
	return { uid: Number(uid), gid: Number(gid) };
}

/**
 * @param {string} what
 * @param {() => Promise<boolean>} probe
 * @param {{ timeoutMs: number, exited?: () => unknown, logs?: () => string, intervalMs?: number }} options
 */
async function waitUntil(
	what,
	probe,
	{ timeoutMs, exited = () => undefined, logs = () => '', intervalMs = 250 },
) {
	const deadline = Date.now() + timeoutMs;
	for (let attempt = 0; ; attempt++) {
		const exit = exited();
		if (exit)
			throw new Error(
				`${what}: the process exited while starting (${JSON.stringify(exit)})\n${logs().slice(-6000)}`,
			);
		if (await probe().catch(() => false)) return;
		if (Date.now() > deadline)
			throw new Error(
				`${what}: not ready after ${timeoutMs} ms (${attempt} probes)\n${logs().slice(-6000)}`,
			);
		await sleep(intervalMs);
	}
}

/**
 * Sends PING to Redis and expects +PONG.
 * @param {number} port
 * @returns {Promise<boolean>}
 */
function redisPing(port) {
	return new Promise((resolve) => {
		const socket = net.connect({ host: '127.0.0.1', port });
		let answer = '';
		const done = (/** @type {boolean} */ ok) => {
			socket.destroy();
			resolve(ok);
		};
		socket.setTimeout(2_000, () => done(false));
		socket.on('error', () => done(false));
		socket.on('connect', () => socket.write('PING\r\n'));
		socket.on('data', (chunk) => {
			answer += chunk.toString('latin1');
			if (answer.includes('\r\n')) done(answer.startsWith('+PONG'));
		});
	});
}

/**
 * GET a URL, true on 200.
 * @param {string} url
 */
async function answers200(url) {
	const response = await fetch(url, { signal: AbortSignal.timeout(3_000) });
	await response.arrayBuffer();
	return response.status === 200;
}

/**
 * One parsed line of n8n's JSON log that matters for queue mode.
 * @typedef {object} QueueEvent
 * @property {'worker-started' | 'worker-finished' | 'worker-errored' | 'enqueued' | 'main-finished' | 'main-failed'} kind
 * @property {string} executionId
 * @property {string} jobId
 * @property {string} [workerId] main-finished / main-failed: the worker id the worker reported
 * @property {boolean} [success]
 * @property {number} at Date.now() when the harness read the line
 */

const EVENT_PATTERNS = /** @type {Array<[QueueEvent['kind'], RegExp]>} */ ([
	['worker-started', /^Worker started execution (\S+) \(job (\S+)\)/],
	['worker-finished', /^Worker finished execution (\S+) \(job (\S+)\)/],
	['worker-errored', /^Worker errored while running execution (\S+) \(job (\S+)\)/],
	['enqueued', /^Enqueued execution (\S+) \(job (\S+)\)/],
	['main-finished', /^Execution (\S+) \(job (\S+)\) finished/],
	['main-failed', /^Execution (\S+) \(job (\S+)\) failed/],
]);

/**
 * @param {string} line one line of n8n's output
 * @returns {QueueEvent | undefined}
 */
function parseQueueEvent(line) {
	const text = line.trim();
	if (!text.startsWith('{')) return undefined;
	/** @type {any} */
	let entry;
	try {
		entry = JSON.parse(text);
	} catch {
		return undefined;
	}
	const message = typeof entry?.message === 'string' ? entry.message.trim() : '';
	const meta = entry?.metadata ?? entry ?? {};
	for (const [kind, pattern] of EVENT_PATTERNS) {
		const match = pattern.exec(message);
		if (!match) continue;
		/** @type {QueueEvent} */
		const event = { kind, executionId: match[1], jobId: match[2], at: Date.now() };
		if (typeof meta.workerId === 'string') event.workerId = meta.workerId;
		if (typeof meta.success === 'boolean') event.success = meta.success;
		return event;
	}
	return undefined;
}

/**
 * @typedef {object} N8nProcess
 * @property {'main' | 'worker'} role
 * @property {string} name e.g. 'main', 'worker-1'
 * @property {string | undefined} hostName the host name it runs under (`unshare --uts`), if any
 * @property {string} userFolder its own user folder (the package is installed in it)
 * @property {number} pid n8n's own pid
 * @property {number} port N8N_PORT
 * @property {number} brokerPort N8N_RUNNERS_BROKER_PORT
 * @property {number | undefined} healthPort QUEUE_HEALTH_CHECK_PORT (workers)
 * @property {string} url main: its URL; worker: its health server's URL
 * @property {QueueEvent[]} events queue events it logged, in order
 * @property {() => string} logs the tail of its output
 * @property {(signal: NodeJS.Signals) => Promise<boolean>} signal signal to n8n itself (e.g. the
 *   SIGTERM/SIGKILL of a test); false if it had already exited
 * @property {Promise<{code: number | null, signal: string | null}>} exited
 * @property {() => {code: number | null, signal: string | null} | undefined} exitStatus
 * @property {() => Promise<{code: number | null, signal: string | null}>} stop
 */

/**
 * @typedef {object} QueueStackOptions
 * @property {string} packageTarball the `npm pack` tarball installed into every process's user folder
 * @property {number} [workers] number of workers (default 2)
 * @property {number} [concurrency] jobs per worker at a time (`n8n worker --concurrency`, default 5)
 * @property {Array<{ id?: string, name: string, type: string, data: Record<string, unknown> }>} [credentials]
 *   created once n8n runs (REST, as the editor does), before the workflows
 * @property {Array<Record<string, any>>} [workflows] created once n8n runs (REST; inactive: publish
 *   them with activateWorkflow); their references to the credentials' given ids are rewritten
 * @property {Record<string, string | undefined>} [env] extra environment for every n8n process
 * @property {Record<string, string | undefined>} [workerEnv] extra environment for workers only
 * @property {{ lockDurationMs: number, lockRenewMs: number, stalledIntervalMs: number }} [stall]
 *   Bull's job lock settings (QUEUE_WORKER_LOCK_DURATION, ..._LOCK_RENEW_TIME, ..._STALLED_INTERVAL):
 *   how soon the running jobs of a killed worker are declared stalled (n8n's defaults: 60 s, 10 s,
 *   30 s)
 * @property {number} [readyTimeoutMs] per process (default 180 s: the machine may be busy)
 * @property {(line: string) => void} [log] progress lines
 */

/**
 * Starts Redis and PostgreSQL, then the main and the workers; sets up the owner, creates the
 * credentials and workflows, and resolves once everything is ready. On failure everything started is stopped before it rejects.
 * @param {QueueStackOptions} options
 * @returns {Promise<QueueStack>}
 */
async function startQueueStack(options) {
	const stack = new QueueStack(options);
	try {
		await stack.start();
		return stack;
	} catch (error) {
		await stack.stop().catch(() => undefined);
		throw error;
	}
}

class QueueStack {
	/** @param {QueueStackOptions} options */
	constructor(options) {
		if (!options?.packageTarball) throw new Error('startQueueStack: packageTarball is required');
		this.options = options;
		this.log = options.log ?? (() => {});
		this.readyTimeoutMs = options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
		/** @type {string} */
		this.baseDir = '';
		/** Where workers may read and write files (N8N_RESTRICT_FILE_ACCESS_TO). */
		this.filesDir = '';
		/** @type {{ port: number, pid: number, version?: string, process: Supervised } | undefined} */
		this.redis = undefined;
		/** @type {{ port: number, pid: number, version?: string, database: string, user: string, process: Supervised } | undefined} */
		this.postgres = undefined;
		/** @type {N8nProcess | undefined} */
		this.main = undefined;
		/** @type {N8nProcess[]} */
		this.workers = [];
		/** @type {Supervised[]} all supervised processes, in start order */
		this.processes = [];
		/** @type {Record<string, number>} */
		this.timings = {};
		this.hostNames = false;
		this.stopping = false;
		/** @type {Promise<void> | undefined} */
		this.stopPromise = undefined;
		/** @type {(RestRequestFn & { owner: any }) | undefined} */
		this.rest = undefined;
		/** @type {QueuePrerequisites | undefined} */
		this.prerequisites = undefined;
		this.workerCount = 0;
		/** @type {Map<string, string>} credential id given -> id n8n gave it (createCredential) */
		this.credentialIds = new Map();
	}

	/**
	 * @template T
	 * @param {string} label
	 * @param {() => Promise<T>} fn
	 * @returns {Promise<T>}
	 */
	async step(label, fn) {
		if (this.stopping) throw new Error('queue stack stopped while starting');
		const t0 = Date.now();
		const result = await fn();
		this.timings[label] = Date.now() - t0;
		this.log(`${label}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
		if (this.stopping) throw new Error('queue stack stopped while starting');
		return result;
	}

	async start() {
		const t0 = Date.now();
		this.prerequisites = await this.step(
			'Redis and PostgreSQL present (scripts/queue-env.sh)',
			() => ensureQueuePrerequisites(),
		);
		if (!this.prerequisites.available) {
			throw new Error(
				`the queue-mode environment cannot be set up here: ${this.prerequisites.reason}`,
			);
		}
		await this.step('n8n installed', () => n8n.ensureN8nInstalled());
		this.baseDir = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-queue-'));
		// Traversable by the postgres user (its data folder inside stays 0700, owned by it).
		fs.chmodSync(this.baseDir, 0o755);
		this.filesDir = path.join(this.baseDir, 'files');
		fs.mkdirSync(this.filesDir);
		this.hostNames = await canSetHostName();
		await this.step('Redis and PostgreSQL ready', () =>
			Promise.all([this.startRedis(), this.startPostgres()]),
		);

		const mainFolder = this.newUserFolder('main');
		// All n8n processes start together: the first to reach the fresh database runs n8n's
		// migrations under its advisory lock, the others wait for it.
		await this.step(`main and ${this.options.workers ?? 2} workers ready`, async () => {
			const workers = Array.from({ length: this.options.workers ?? 2 }, () => this.addWorker());
			const main = this.startN8nProcess('main', 'main', mainFolder);
			const results = await Promise.allSettled([main, ...workers]);
			const failed = results.find((r) => r.status === 'rejected');
			if (failed) throw /** @type {PromiseRejectedResult} */ (failed).reason;
		});
		const mainUrl = /** @type {N8nProcess} */ (this.main).url;
		this.rest = await this.step('owner set up', () => n8n.setupOwner(mainUrl));
		await this.step('credentials and workflows created (REST)', async () => {
			for (const credential of this.options.credentials ?? [])
				await this.createCredential(credential);
			for (const workflow of this.options.workflows ?? []) await this.createWorkflow(workflow);
		});
		this.timings.total = Date.now() - t0;
	}

	/** @param {string} name */
	newUserFolder(name) {
		const folder = path.join(this.baseDir, name);
		fs.mkdirSync(folder);
		const result = spawnSync(
			'bash',
			[
				'-c',
				'source "$0" && install_package_tarball "$1" "$2"',
				LIB_SH,
				path.resolve(this.options.packageTarball),
				folder,
			],
			{ encoding: 'utf8' },
		);
		if (result.status !== 0)
			throw new Error(
				`install_package_tarball into ${folder} failed (${result.status}): ${result.stderr}`,
			);
		return folder;
	}

	/** @param {Supervised} proc */
	track(proc) {
		this.processes.push(proc);
		// stop() already ran its course for the processes it knew: this one goes at once.
		if (this.stopping) void proc.stop();
		return proc;
	}

	async startRedis() {
		const redisServer = /** @type {string} */ (this.prerequisites?.redisServer);
		const dir = path.join(this.baseDir, 'redis');
		fs.mkdirSync(dir);
		const port = await n8n.getFreePort();
		const proc = this.track(
			supervise(
				'redis',
				[
					redisServer,
					'--bind',
					'127.0.0.1',
					'--port',
					String(port),
					'--save',
					'',
					'--appendonly',
					'no',
					'--dir',
					dir,
					'--daemonize',
					'no',
					'--protected-mode',
					'yes',
					'--logfile',
					'',
				],
				{ cwd: dir, graceMs: SERVICE_STOP_GRACE_MS, stopSignal: 'SIGTERM' },
			),
		);
		await waitUntil('redis-server', () => redisPing(port), {
			timeoutMs: SERVICE_READY_TIMEOUT_MS,
			exited: proc.exitStatus,
			logs: proc.logs,
		});
		this.redis = {
			port,
			pid: await proc.childPid,
			version: this.prerequisites?.redisVersion,
			process: proc,
		};
	}

	async startPostgres() {
		const pgBin = /** @type {string} */ (this.prerequisites?.pgBin);
		const dataDir = path.join(this.baseDir, 'pgdata');
		fs.mkdirSync(dataDir, { mode: 0o700 });
		const account = postgresAccount();
		/** @type {string[]} */
		let asPostgres = [];
		if (account) {
			fs.chownSync(dataDir, account.uid, account.gid);
			asPostgres = [
				'setpriv',
				`--reuid=${account.uid}`,
				`--regid=${account.gid}`,
				'--clear-groups',
				'--',
			];
		}
		const env = { ...process.env, LANG: 'C', LC_ALL: 'C' };
		const init = await run(
			[
				...asPostgres,
				path.join(pgBin, 'initdb'),
				'-D',
				dataDir,
				'-U',
				DB_USER,
				'--auth=trust',
				'-E',
				'UTF8',
				'--locale=C',
				'--no-sync',
			],
			{ env, cwd: this.baseDir, timeoutMs: 120_000 },
		);
		if (init.code !== 0)
			throw new Error(
				`initdb failed (${init.code}):\n${init.stdout.slice(-3000)}\n${init.stderr.slice(-3000)}`,
			);
		const port = await n8n.getFreePort();
		const proc = this.track(
			supervise(
				'postgres',
				[
					...asPostgres,
					path.join(pgBin, 'postgres'),
					'-D',
					dataDir,
					'-p',
					String(port),
					'-c',
					'listen_addresses=127.0.0.1',
					'-c',
					'unix_socket_directories=',
					'-c',
					'fsync=off',
					'-c',
					'synchronous_commit=off',
					'-c',
					'full_page_writes=off',
					'-c',
					'max_connections=200',
				],
				// SIGINT is PostgreSQL's fast shutdown (SIGTERM would wait for every client to leave).
				{
					env,
					cwd: this.baseDir,
					graceMs: SERVICE_STOP_GRACE_MS,
					stopSignal: 'SIGINT',
					cleanupDir: this.baseDir,
				},
			),
		);
		const probe = async () =>
			(
				await run(
					[
						path.join(pgBin, 'pg_isready'),
						'-q',
						'-h',
						'127.0.0.1',
						'-p',
						String(port),
						'-U',
						DB_USER,
						'-d',
						'postgres',
					],
					{ timeoutMs: 5_000 },
				)
			).code === 0;
		await waitUntil('postgres', probe, {
			timeoutMs: SERVICE_READY_TIMEOUT_MS,
			exited: proc.exitStatus,
			logs: proc.logs,
		});
		const created = await run(
			[path.join(pgBin, 'createdb'), '-h', '127.0.0.1', '-p', String(port), '-U', DB_USER, DB_NAME],
			{ timeoutMs: 30_000 },
		);
		if (created.code !== 0) throw new Error(`createdb failed (${created.code}): ${created.stderr}`);
		this.postgres = {
			port,
			pid: await proc.childPid,
			version: this.prerequisites?.pgVersion,
			database: DB_NAME,
			user: DB_USER,
			process: proc,
		};
	}

	/**
	 * The environment every n8n process of this stack shares (queue mode, Redis, PostgreSQL, JSON
	 * logs), on top of n8n_env from n8n-host/lib.sh.
	 * @returns {Record<string, string | undefined>}
	 */
	queueEnv() {
		const redis = /** @type {NonNullable<QueueStack['redis']>} */ (this.redis);
		const pg = /** @type {NonNullable<QueueStack['postgres']>} */ (this.postgres);
		/** @type {Record<string, string | undefined>} */
		const env = {
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
			N8N_GRACEFUL_SHUTDOWN_TIMEOUT: String(N8N_SHUTDOWN_SECONDS),
			N8N_RESTRICT_FILE_ACCESS_TO: this.filesDir,
		};
		const stall = this.options.stall;
		if (stall) {
			env.QUEUE_WORKER_LOCK_DURATION = String(stall.lockDurationMs);
			env.QUEUE_WORKER_LOCK_RENEW_TIME = String(stall.lockRenewMs);
			env.QUEUE_WORKER_STALLED_INTERVAL = String(stall.stalledIntervalMs);
		}
		return { ...env, ...this.options.env };
	}

	/**
	 * Runs an n8n CLI command against this stack's database (e.g. import:workflow).
	 * @param {string[]} args
	 * @param {string} [userFolder] default: the main's
	 */
	async cli(args, userFolder = this.main?.userFolder) {
		if (!userFolder) throw new Error('cli: no user folder yet');
		const result = await n8n.n8nCli(userFolder, args, { env: this.queueEnv(), timeoutMs: 180_000 });
		if (result.code !== 0) {
			throw new Error(
				`n8n ${args[0]} failed (code ${result.code}, signal ${result.signal})\n${result.stdout.slice(-4000)}\n${result.stderr.slice(-2000)}`,
			);
		}
		return result;
	}

	/**
	 * Creates a credential through the REST API, as the editor does (n8n encrypts `data` with the
	 * shared key). n8n picks the id: workflows created afterwards by createWorkflow that refer to
	 * `credential.id` are pointed at the new one (see credentialIds).
	 * @param {{ id?: string, name: string, type: string, data: Record<string, unknown> }} credential
	 * @returns {Promise<string>} the new id
	 */
	async createCredential(credential) {
		const response = await this.requireRest()('POST', '/rest/credentials', {
			name: credential.name,
			type: credential.type,
			data: credential.data,
		});
		const id = response.body?.data?.id;
		if (response.status !== 200 || !id)
			throw new Error(
				`POST /rest/credentials: ${response.status} ${JSON.stringify(response.body).slice(0, 1000)}`,
			);
		if (credential.id) this.credentialIds.set(credential.id, id);
		return id;
	}

	/**
	 * Creates a workflow through the REST API (inactive; its id is kept when it has one). Node
	 * credentials that refer to a credential given to createCredential by its id are rewritten to
	 * the id n8n gave it.
	 * @param {Record<string, any>} workflow
	 * @returns {Promise<{ id: string, versionId: string }>}
	 */
	async createWorkflow(workflow) {
		const nodes = (workflow.nodes ?? []).map((/** @type {any} */ node) => {
			if (!node.credentials) return node;
			const credentials = Object.fromEntries(
				Object.entries(node.credentials).map(([type, ref]) => {
					const ref2 = /** @type {{ id?: string, name?: string }} */ (ref);
					const mapped = ref2?.id ? this.credentialIds.get(ref2.id) : undefined;
					return [type, mapped ? { ...ref2, id: mapped } : ref2];
				}),
			);
			return { ...node, credentials };
		});
		const { active: _active, versionId: _versionId, ...rest } = workflow;
		const response = await this.requireRest()('POST', '/rest/workflows', {
			settings: { executionOrder: 'v1' },
			connections: {},
			...rest,
			nodes,
		});
		const data = response.body?.data;
		if (response.status !== 200 || !data?.id)
			throw new Error(
				`POST /rest/workflows (${workflow.name}): ${response.status} ${JSON.stringify(response.body).slice(0, 1000)}`,
			);
		return { id: data.id, versionId: data.versionId };
	}

	/**
	 * Publishes (activates) a workflow through the REST API, as the editor's "Publish" does: its
	 * webhooks and triggers start on the main instance at once.
	 * @param {string} id
	 */
	async activateWorkflow(id) {
		const rest = this.requireRest();
		const current = await rest('GET', `/rest/workflows/${id}`);
		const versionId = current.body?.data?.versionId;
		if (current.status !== 200 || !versionId)
			throw new Error(
				`GET /rest/workflows/${id}: ${current.status} ${JSON.stringify(current.body).slice(0, 500)}`,
			);
		const activated = await rest('POST', `/rest/workflows/${id}/activate`, { versionId });
		if (activated.status !== 200)
			throw new Error(
				`POST /rest/workflows/${id}/activate: ${activated.status} ${JSON.stringify(activated.body).slice(0, 2000)}`,
			);
		return activated.body?.data;
	}

	/**
	 * Waits until the main serves a production webhook (path, method): n8n registers the webhooks of
	 * a just-published workflow a moment after the publish call returns. Probes with a CORS
	 * preflight (OPTIONS with an Origin), which n8n answers 204 listing the path's methods once the
	 * webhook is registered, without running anything.
	 * @param {string} webhookPath
	 * @param {string} [method]
	 * @param {number} [timeoutMs]
	 */
	async waitForWebhook(webhookPath, method = 'POST', timeoutMs = 60_000) {
		const url = `${/** @type {N8nProcess} */ (this.main).url}/webhook/${webhookPath}`;
		const t0 = Date.now();
		await waitUntil(
			`webhook ${method} ${webhookPath}`,
			async () => {
				const response = await fetch(url, {
					method: 'OPTIONS',
					headers: { origin: 'http://127.0.0.1', 'access-control-request-method': method },
					signal: AbortSignal.timeout(5_000),
				});
				await response.arrayBuffer();
				const allowed = (response.headers.get('access-control-allow-methods') ?? '')
					.split(',')
					.map((m) => m.trim());
				return response.status === 204 && allowed.includes(method);
			},
			{ timeoutMs },
		);
		return Date.now() - t0;
	}

	/** @param {string} id */
	async deactivateWorkflow(id) {
		const rest = this.requireRest();
		const response = await rest('POST', `/rest/workflows/${id}/deactivate`, {});
		if (response.status !== 200)
			throw new Error(
				`POST /rest/workflows/${id}/deactivate: ${response.status} ${JSON.stringify(response.body).slice(0, 2000)}`,
			);
	}

	requireRest() {
		if (!this.rest) throw new Error('the owner is not set up yet');
		return this.rest;
	}

	/**
	 * An execution as stored (GET /rest/executions/:id): { status, finished, mode, workflowId,
	 * startedAt, stoppedAt, data (flatted) }, or undefined if unknown.
	 * @param {string} id
	 */
	async execution(id) {
		const response = await this.requireRest()('GET', `/rest/executions/${id}`);
		if (response.status === 404) return undefined;
		if (response.status !== 200) throw new Error(`GET /rest/executions/${id}: ${response.status}`);
		return response.body?.data;
	}

	/**
	 * Executions of a workflow as listed by the editor's API (newest first, at most `limit`, which n8n
	 * caps at 100).
	 * @param {string} workflowId
	 * @param {number} [limit]
	 * @returns {Promise<Array<{ id: string, status: string, mode: string, finished: boolean, startedAt: string, stoppedAt: string }>>}
	 */
	async executionsOf(workflowId, limit = 100) {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const response = await this.requireRest()(
			'GET',
			`/rest/executions?filter=${filter}&limit=${limit}`,
		);
		if (response.status !== 200)
			throw new Error(
				`GET /rest/executions: ${response.status} ${JSON.stringify(response.body).slice(0, 500)}`,
			);
		return response.body?.data?.results ?? [];
	}

	/**
	 * Starts one more worker (its own user folder with the package installed, ports, host name)
	 * and resolves once it is ready.
	 * @returns {Promise<N8nProcess>}
	 */
	async addWorker() {
		this.workerCount += 1;
		const name = `worker-${this.workerCount}`;
		return this.startN8nProcess('worker', name, this.newUserFolder(name));
	}

	/**
	 * @param {'main' | 'worker'} role
	 * @param {string} name
	 * @param {string} userFolder
	 * @returns {Promise<N8nProcess>}
	 */
	async startN8nProcess(role, name, userFolder) {
		const port = await n8n.getFreePort();
		const brokerPort = await n8n.getFreePort();
		const healthPort = role === 'worker' ? await n8n.getFreePort() : undefined;
		/** @type {Record<string, string | undefined>} */
		const extra = { ...this.queueEnv() };
		if (role === 'worker') {
			Object.assign(extra, {
				QUEUE_HEALTH_CHECK_ACTIVE: 'true',
				QUEUE_HEALTH_CHECK_PORT: String(healthPort),
				N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
				...this.options.workerEnv,
			});
		}
		const env = n8n.n8nEnv(userFolder, port, brokerPort, extra);
		const n8nArgs =
			role === 'main' ? ['start'] : ['worker', `--concurrency=${this.options.concurrency ?? 5}`];
		const hostName = this.hostNames ? `queue-${name}` : undefined;
		const command = hostName
			? [
					'unshare',
					'--uts',
					'--',
					'sh',
					'-c',
					'hostname "$0" && exec "$@"',
					hostName,
					n8n.N8N_BIN,
					...n8nArgs,
				]
			: [n8n.N8N_BIN, ...n8nArgs];
		/** @type {QueueEvent[]} */
		const events = [];
		const proc = this.track(
			supervise(name, command, {
				env,
				cwd: userFolder,
				graceMs: N8N_STOP_GRACE_MS,
				onLine: (line) => {
					const event = parseQueueEvent(line);
					if (event) events.push(event);
				},
			}),
		);
		const url = role === 'main' ? `http://127.0.0.1:${port}` : `http://127.0.0.1:${healthPort}`;
		await waitUntil(`n8n ${role} ${name}`, () => answers200(`${url}/healthz/readiness`), {
			timeoutMs: this.readyTimeoutMs,
			exited: proc.exitStatus,
			logs: proc.logs,
			intervalMs: 500,
		});
		/** @type {N8nProcess} */
		const handle = {
			role,
			name,
			hostName,
			userFolder,
			pid: await proc.childPid,
			port,
			brokerPort,
			healthPort,
			url,
			events,
			logs: proc.logs,
			signal: proc.signal,
			exited: proc.exited,
			exitStatus: proc.exitStatus,
			stop: proc.stop,
		};
		if (role === 'main') this.main = handle;
		else this.workers.push(handle);
		return handle;
	}

	/**
	 * The worker whose own log says it started the execution, or undefined.
	 * @param {string | number} executionId
	 * @returns {string | undefined}
	 */
	workerOf(executionId) {
		const id = String(executionId);
		return this.workers.find((w) =>
			w.events.some((e) => e.kind === 'worker-started' && e.executionId === id),
		)?.name;
	}

	/**
	 * How many of the given executions each worker started (all workers listed, zeros included).
	 * @param {Array<string | number>} executionIds
	 * @returns {Record<string, number>}
	 */
	countByWorker(executionIds) {
		/** @type {Record<string, number>} */
		const counts = Object.fromEntries(this.workers.map((w) => [w.name, 0]));
		for (const id of executionIds) {
			const worker = this.workerOf(id) ?? '(no worker)';
			counts[worker] = (counts[worker] ?? 0) + 1;
		}
		return counts;
	}

	/**
	 * What the main logged when each execution's job finished: execution id -> the worker id
	 * the worker sent (`worker-<hostname>` in containers, else a random id per process).
	 * @returns {Map<string, { workerId?: string, success?: boolean }>}
	 */
	mainFinished() {
		/** @type {Map<string, { workerId?: string, success?: boolean }>} */
		const map = new Map();
		for (const event of this.main?.events ?? []) {
			if (event.kind === 'main-finished')
				map.set(event.executionId, { workerId: event.workerId, success: event.success });
		}
		return map;
	}

	/**
	 * Worker process name -> the worker ids the main reported for executions that process ran
	 * (one each when attribution is consistent).
	 * @returns {Record<string, string[]>}
	 */
	workerIds() {
		const finished = this.mainFinished();
		/** @type {Record<string, Set<string>>} */
		const ids = {};
		for (const worker of this.workers) {
			ids[worker.name] = new Set();
			for (const event of worker.events) {
				const reported =
					event.kind === 'worker-finished' ? finished.get(event.executionId)?.workerId : undefined;
				if (reported) ids[worker.name].add(reported);
			}
		}
		return Object.fromEntries(Object.entries(ids).map(([name, set]) => [name, [...set]]));
	}

	/**
	 * Waits until the execution is no longer new/running/waiting, and returns it (or the last state
	 * seen on timeout).
	 * @param {string} id
	 * @param {number} timeoutMs
	 */
	async waitForExecutionEnd(id, timeoutMs) {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const execution = await this.execution(id);
			if (execution && !['new', 'running', 'waiting'].includes(execution.status)) return execution;
			if (Date.now() > deadline) return execution;
			await sleep(500);
		}
	}

	/**
	 * Stops everything by process id (workers, main, then Redis and PostgreSQL) and removes the
	 * temp folder. Idempotent; safe while start() is still running.
	 * @returns {Promise<void>}
	 */
	stop() {
		this.stopping = true;
		this.stopPromise ??= (async () => {
			const t0 = Date.now();
			const n8nProcesses = this.processes.filter(
				(p) => p.name !== 'redis' && p.name !== 'postgres',
			);
			const workers = n8nProcesses.filter((p) => p.name !== 'main');
			await Promise.allSettled(workers.map((p) => p.stop()));
			await Promise.allSettled(n8nProcesses.filter((p) => p.name === 'main').map((p) => p.stop()));
			await Promise.allSettled(
				this.processes
					.filter((p) => p.name === 'redis' || p.name === 'postgres')
					.map((p) => p.stop()),
			);
			if (this.baseDir) fs.rmSync(this.baseDir, { recursive: true, force: true, maxRetries: 3 });
			this.timings.stop = Date.now() - t0;
			if (this.processes.length > 0)
				this.log(
					`stopped ${this.processes.length} processes by pid: ${((Date.now() - t0) / 1000).toFixed(1)} s`,
				);
		})();
		return this.stopPromise;
	}

	/** The pids of everything this stack started (for reports and leak checks). */
	pids() {
		return {
			redis: this.redis?.pid,
			postgres: this.postgres?.pid,
			main: this.main?.pid,
			workers: Object.fromEntries(this.workers.map((w) => [w.name, w.pid])),
			supervisors: this.processes.map((p) => p.supervisorPid),
		};
	}
}

/**
 * @typedef {(method: string, urlPath: string, body?: unknown, headers?: Record<string, string>)
 *   => Promise<{ status: number, body: any }>} RestRequestFn
 */

/**
 * A pass-through HTTP proxy on 127.0.0.1 in front of `target` (the reference service) that
 * forwards every request at once and holds the answer `delayMs` (settable) before passing it on:
 * network latency on the way back. Executions then last long enough to be caught mid-flight by a
 * worker's SIGTERM or SIGKILL, and a call the service has already answered (and charged) can be
 * lost with a killed worker, as on a real network. Counts requests and those in flight.
 * @param {string} target e.g. http://127.0.0.1:40123
 * @param {{ delayMs: number }} options
 * @returns {Promise<DelayProxy>}
 */
function startDelayProxy(target, { delayMs }) {
	const to = new URL(target);
	let delay = delayMs;
	let requests = 0;
	let inFlight = 0;
	let maxInFlight = 0;
	let undelivered = 0;
	const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
	const server = http.createServer((req, res) => {
		requests += 1;
		inFlight += 1;
		maxInFlight = Math.max(maxInFlight, inFlight);
		let settled = false;
		res.on('close', () => {
			if (settled) return;
			settled = true;
			inFlight -= 1;
			if (!res.writableFinished) undelivered += 1;
		});
		const upstream = http.request(
			{
				host: to.hostname,
				port: to.port,
				method: req.method,
				path: req.url,
				headers: { ...req.headers, host: to.host },
				agent,
			},
			(answer) => {
				const body = /** @type {Buffer[]} */ ([]);
				answer.on('data', (chunk) => body.push(chunk));
				answer.on('end', () => {
					const timer = setTimeout(() => {
						if (res.destroyed) return;
						res.writeHead(answer.statusCode ?? 502, answer.headers);
						res.end(Buffer.concat(body));
					}, delay);
					res.on('close', () => clearTimeout(timer));
				});
			},
		);
		upstream.on('error', () => res.destroy());
		req.pipe(upstream);
	});
	return new Promise((resolve, reject) => {
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = /** @type {net.AddressInfo} */ (server.address());
			resolve({
				url: `http://127.0.0.1:${address.port}`,
				setDelay: (ms) => {
					delay = ms;
				},
				stats: () => ({ requests, inFlight, maxInFlight, undelivered }),
				resetStats: () => {
					requests = 0;
					maxInFlight = inFlight;
					undelivered = 0;
				},
				stop: () =>
					new Promise((done) => {
						server.closeAllConnections();
						agent.destroy();
						server.close(() => done());
					}),
			});
		});
	});
}

/**
 * @typedef {object} DelayProxy
 * @property {string} url
 * @property {(ms: number) => void} setDelay
 * @property {() => { requests: number, inFlight: number, maxInFlight: number, undelivered: number }} stats
 *   undelivered: answers the client was gone for (e.g. its worker was killed)
 * @property {() => void} resetStats
 * @property {() => Promise<void>} stop
 */

/**
 * `node test/harness/queueStack.js up [--workers N] [--minutes M]` (what `bash scripts/queue-env.sh
 * up` runs): the reference service, the stack with the demo credential (id soundSearchDemo) and
 * the examples imported, the owner created; prints how to reach it and stays up until Ctrl-C,
 * SIGTERM or M minutes (default 60), then tears everything down.
 */
async function cli() {
	const argv = process.argv.slice(2);
	if (argv[0] !== 'up') {
		console.error('usage: node test/harness/queueStack.js up [--workers N] [--minutes M]');
		process.exit(2);
	}
	/** @param {string} flag @param {number} fallback */
	const numberFlag = (flag, fallback) => {
		const index = argv.indexOf(flag);
		const value = index >= 0 ? Number(argv[index + 1]) : fallback;
		if (!Number.isInteger(value) || value < 1)
			throw new Error(`${flag} must be a positive integer`);
		return value;
	};
	const workers = numberFlag('--workers', 2);
	const minutes = numberFlag('--minutes', 60);
	const { packageTarball } = require('./packageTarball');
	const { startReferenceService } = require('./referenceService');
	/** @param {string} line */
	const log = (line) => console.log(`[queue-env] ${line}`);
	const service = await startReferenceService({});
	/** @type {QueueStack | undefined} */
	let stack;
	let stopping = false;
	const shutdown = async (/** @type {string} */ why) => {
		if (stopping) return;
		stopping = true;
		log(`${why}: tearing down`);
		await stack?.stop();
		await service.stop();
		log('stopped');
		process.exit(0);
	};
	process.on('SIGINT', () => void shutdown('SIGINT'));
	process.on('SIGTERM', () => void shutdown('SIGTERM'));
	try {
		const examplesDir = path.join(REPO_ROOT, 'examples');
		const examples = fs.existsSync(examplesDir)
			? fs
					.readdirSync(examplesDir)
					.filter((f) => f.endsWith('.json'))
					.flatMap((f) => {
						const parsed = JSON.parse(fs.readFileSync(path.join(examplesDir, f), 'utf8'));
						return (Array.isArray(parsed) ? parsed : [parsed]).map((w, i) => ({
							...w,
							id:
								w.id ?? crypto.createHash('sha256').update(`${f}#${i}`).digest('hex').slice(0, 16),
						}));
					})
			: [];
		log(`packing the package and starting Redis, PostgreSQL, n8n main and ${workers} workers ...`);
		stack = await startQueueStack({
			packageTarball: packageTarball(),
			workers,
			credentials: [
				{
					id: 'soundSearchDemo',
					name: 'Sound Search account',
					type: 'soundSearchApi',
					data: { apiKey: 'sandbox-key', baseUrl: service.url },
				},
			],
			workflows: examples,
			log,
		});
		const main = /** @type {N8nProcess} */ (stack.main);
		log(
			`reference service: ${service.url} (API key sandbox-key; ledger: ${service.url}/__sandbox/ledger)`,
		);
		log(
			`Redis 127.0.0.1:${stack.redis?.port} (pid ${stack.redis?.pid}), PostgreSQL 127.0.0.1:${stack.postgres?.port} database ${DB_NAME} user ${DB_USER} (pid ${stack.postgres?.pid})`,
		);
		log(
			`n8n main: ${main.url} (pid ${main.pid}); owner ${stack.rest?.owner.email} / ${stack.rest?.owner.password}`,
		);
		for (const w of stack.workers)
			log(
				`${w.name}: pid ${w.pid}, health ${w.url}/healthz/readiness, host name ${w.hostName ?? '(shared)'}`,
			);
		log(`examples imported (inactive): ${examples.map((w) => w.name).join('; ') || 'none'}`);
		log(`up for at most ${minutes} min; Ctrl-C to stop`);
		setTimeout(() => void shutdown(`${minutes} min passed`), minutes * 60_000);
	} catch (error) {
		console.error(error);
		await stack?.stop();
		await service.stop();
		process.exit(1);
	}
}

if (require.main === module) void cli();

module.exports = {
	ensureQueuePrerequisites,
	ensureQueuePrerequisitesSync,
	startQueueStack,
	startDelayProxy,
	parseQueueEvent,
	canSetHostName,
	supervise,
	QueueStack,
	DB_NAME,
	DB_USER,
};
