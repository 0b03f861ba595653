'use strict';

// Where a queue-mode main or worker is started: `n8n start` or `n8n worker` of the pinned n8n,
// through the same supervisor and environment as every other n8n process of the harness
// (../n8n.js), plus its queue events parsed from its JSON log lines (./events.js).

const path = require('node:path');
const { getFreePort, n8nEnv, superviseN8n, untilReady } = require('../n8n');
const { parseQueueEvent } = require('./events');

// n8n's own drain window on SIGTERM (N8N_GRACEFUL_SHUTDOWN_TIMEOUT, seconds); the supervisor
// SIGKILLs the process group if n8n is still there some seconds after it. n8n's default is 30;
// 60 leaves a busy machine (npm test runs other layers beside this one) time to finish the
// executions a stopped worker holds, which is what the SIGTERM case proves n8n does.
const N8N_SHUTDOWN_SECONDS = 60;
const STOP_GRACE_MS = (N8N_SHUTDOWN_SECONDS + 8) * 1000;
const HOST_NAME_JS = path.join(__dirname, 'hostName.js');

/**
 * @typedef {{ code: number | null, signal: string | null }} Exit
 * @typedef {object} N8nProcess
 * @property {'main' | 'worker'} role
 * @property {string} name e.g. 'main', 'worker-1'
 * @property {string} hostName the host name n8n sees (queue-<name>)
 * @property {string} userFolder its own user folder (the package is installed in it)
 * @property {number} pid n8n's own pid
 * @property {number} supervisorPid leader of its process group
 * @property {string} url main: its URL; worker: its health server's URL
 * @property {import('./events').QueueEvent[]} events queue events it logged, in order
 * @property {() => string} logs the tail of its output
 * @property {(signal: NodeJS.Signals) => Promise<boolean>} signal to n8n itself (a test's
 *   SIGTERM or SIGKILL); false if it had already exited
 * @property {Promise<Exit>} exited
 * @property {() => Exit | undefined} exitStatus
 * @property {(graceMs?: number) => Promise<unknown>} stop
 */

/**
 * @param {object} options
 * @param {'main' | 'worker'} options.role
 * @param {string} options.name
 * @param {string} options.userFolder
 * @param {Record<string, string | undefined>} options.env queue mode, Redis, PostgreSQL
 * @param {number} options.concurrency jobs per worker at a time
 * @param {number} options.readyTimeoutMs
 * @param {(p: { name: string, supervisorPid: number, stop: (graceMs?: number) => Promise<unknown> }) => void} options.track
 * @returns {Promise<N8nProcess>}
 */
async function startN8nProcess({
	role,
	name,
	userFolder,
	env,
	concurrency,
	readyTimeoutMs,
	track,
}) {
	// Open at the same time, so the three are distinct.
	const [port, brokerPort, healthPort] = await Promise.all([1, 2, 3].map(() => getFreePort()));
	const hostName = `queue-${name}`;
	const extra = queueProcessEnv(role, env, hostName, healthPort);
	const args = role === 'main' ? ['start'] : ['worker', `--concurrency=${concurrency}`];
	/** @type {import('./events').QueueEvent[]} */
	const events = [];
	/** @type {Exit | undefined} */
	let exit;
	const url = `http://127.0.0.1:${role === 'main' ? port : healthPort}`;
	const run = superviseN8n(args, n8nEnv(userFolder, port, brokerPort, extra), userFolder, {
		tailOnly: true,
		graceMs: STOP_GRACE_MS,
	});
	const stop = stopOf(run);
	track({ name, supervisorPid: /** @type {number} */ (run.supervisor.pid), stop });
	onLines(run.supervisor, (line) => {
		const event = parseQueueEvent(line);
		if (event) events.push(event);
	});
	void run.exited.then((e) => (exit = e));
	const logs = () => logsOf(run);
	await untilReady(run, [`${url}/healthz/readiness`], readyTimeoutMs).catch((error) => {
		throw new Error(`n8n ${role} ${name}: ${error.message}\n${logs().slice(-6000)}`);
	});
	const pid = await run.childPid;
	/** @param {NodeJS.Signals} signal */
	const signal = async (signal) => {
		if (exit) return false;
		try {
			return process.kill(pid, signal);
		} catch {
			return false;
		}
	};
	const supervisorPid = /** @type {number} */ (run.supervisor.pid);
	const exitStatus = () => exit;
	return {
		role,
		name,
		hostName,
		userFolder,
		pid,
		supervisorPid,
		url,
		events,
		logs,
		signal,
		exited: run.exited,
		exitStatus,
		stop,
	};
}

/** SIGTERM, then SIGKILL of its group after `graceMs`. @param {ReturnType<typeof superviseN8n>} run */
const stopOf =
	(run) =>
	(graceMs = STOP_GRACE_MS) =>
		run.stop(graceMs);
/** @param {ReturnType<typeof superviseN8n>} run */
const logsOf = (run) => `${run.stdout()}\n${run.stderr()}`;

/**
 * What a main or a worker adds to n8n's environment: the queue settings, its own host name (the
 * worker id n8n reports), and for a worker its health server, which says when it is ready.
 * @param {'main' | 'worker'} role
 * @param {Record<string, string | undefined>} env
 * @param {string} hostName
 * @param {number} healthPort
 */
function queueProcessEnv(role, env, hostName, healthPort) {
	return {
		...env,
		N8N_GRACEFUL_SHUTDOWN_TIMEOUT: String(N8N_SHUTDOWN_SECONDS),
		NODE_OPTIONS: `--require=${HOST_NAME_JS}`,
		QUEUE_HOST_NAME: hostName,
		...(role === 'worker' && {
			QUEUE_HEALTH_CHECK_ACTIVE: 'true',
			QUEUE_HEALTH_CHECK_PORT: String(healthPort),
			N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
		}),
	};
}

/**
 * Calls back with every complete line the process writes (n8n logs to stdout and stderr).
 * @param {import('node:child_process').ChildProcess} child
 * @param {(line: string) => void} onLine
 */
function onLines(child, onLine) {
	for (const stream of [child.stdout, child.stderr]) {
		let partial = '';
		stream?.on('data', (/** @type {string} */ chunk) => {
			const lines = (partial + chunk).split('\n');
			partial = /** @type {string} */ (lines.pop());
			lines.forEach(onLine);
		});
	}
}

module.exports = { startN8nProcess, N8N_SHUTDOWN_SECONDS };
