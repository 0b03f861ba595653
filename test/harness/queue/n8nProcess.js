'use strict';

// A queue-mode main (`n8n start`) or worker (`n8n worker`) of the pinned n8n through ../n8n/, the
// packed package in its own user folder; and the executions it enqueued, started and finished,
// from its own JSON log lines (N8N_LOG_FORMAT=json).

const path = require('node:path');
const n8n = require('../n8n');
const { deadlineMs } = require('../deadlines');

// n8n's drain window on SIGTERM (N8N_GRACEFUL_SHUTDOWN_TIMEOUT, s; n8n's default 30): on a busy
// machine, time to finish what a stopped worker holds (the SIGTERM test proves it does).
const N8N_SHUTDOWN_SECONDS = 60;
const EVENTS = {
	started: /^Worker started execution (\S+)/,
	finished: /^Worker finished execution (\S+)/,
	errored: /^Worker errored while running execution (\S+)/, // failed, or stopped
	enqueued: /^Enqueued execution (\S+)/,
	mainFinished: /^Execution (\S+) \(job \S+\) finished/,
};

/**
 * @typedef {{ kind: keyof typeof EVENTS, id: string, workerId?: string, success?: boolean,
 *   at: number }} QueueEvent mainFinished: with the worker id the worker reported to the main
 * @typedef {Awaited<ReturnType<typeof startN8nProcess>>} N8nProcess
 */

/**
 * Starts `main` or `worker-<n>`; resolves once its /healthz/readiness answers (a worker's health
 * server). track() hears of it at once, so that a failed start is stopped by pid too.
 * @param {string} name
 * @param {{ packageTarball: string, env: Record<string, string>, concurrency: number,
 *   track: (p: { name: string, supervisorPid: number, stop: (ms?: number) => Promise<unknown> }) => void }} options
 */
async function startN8nProcess(name, { packageTarball, env, concurrency, track }) {
	const userFolder = await n8n.createN8nUserFolder({ packageTarball });
	// Picked at once, so that the three differ.
	const [port, brokerPort, healthPort] = await Promise.all([1, 2, 3].map(() => n8n.getFreePort()));
	const main = name === 'main';
	const extra = {
		...env,
		N8N_GRACEFUL_SHUTDOWN_TIMEOUT: String(N8N_SHUTDOWN_SECONDS),
		// Its own host name, hence its own worker id in a container too (./hostName.js).
		NODE_OPTIONS: `--require=${path.join(__dirname, 'hostName.js')}`,
		QUEUE_HOST_NAME: `queue-${name}`,
		...(!main && {
			QUEUE_HEALTH_CHECK_ACTIVE: 'true',
			QUEUE_HEALTH_CHECK_PORT: String(healthPort),
			N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
		}),
	};
	const args = main ? ['start'] : ['worker', `--concurrency=${concurrency}`];
	const graceMs = (N8N_SHUTDOWN_SECONDS + 8) * 1000;
	const fullEnv = n8n.n8nEnv(userFolder, port, brokerPort, extra);
	const run = n8n.superviseN8n(args, fullEnv, userFolder, { tailOnly: true, graceMs });
	const stop = async (ms = graceMs) => {
		await run.stop(ms);
		n8n.removeN8nUserFolder(userFolder);
	};
	track({ name, supervisorPid: Number(run.supervisor.pid), stop });
	/** @type {QueueEvent[]} */
	const events = [];
	for (const stream of [run.supervisor.stdout, run.supervisor.stderr]) {
		let partial = '';
		stream?.on('data', (/** @type {string} */ chunk) => {
			const lines = (partial + chunk).split('\n');
			partial = lines.pop() ?? '';
			for (const event of lines.map(parseEvent)) if (event) events.push(event);
		});
	}
	/** @type {{ code: number | null, signal: string | null } | undefined} */
	let exit;
	void run.exited.then((e) => (exit = e));
	const url = `http://127.0.0.1:${main ? port : healthPort}`;
	const logs = () => `${run.stdout()}\n${run.stderr()}`;
	await n8n.untilReady(run, [`${url}/healthz/readiness`], deadlineMs('n8nReady')).catch((error) => {
		throw new Error(`n8n ${name}: ${error.message}\n${logs().slice(-6000)}`);
	});
	const pid = await run.childPid;
	const ids = (/** @type {QueueEvent['kind']} */ kind) =>
		events.filter((e) => e.kind === kind).map((e) => e.id);
	/** Starts logged at or after `since` (ms), so an earlier test's leftovers do not count. */
	const startsSince = (since = 0) => events.filter((e) => e.kind === 'started' && e.at >= since);
	/** Executions it started since `since` and has not ended, per its own log. */
	const running = (since = 0) => {
		const ended = [...ids('finished'), ...ids('errored')];
		return startsSince(since)
			.map((e) => e.id)
			.filter((id) => !ended.includes(id));
	};
	return {
		name,
		pid,
		url,
		events,
		logs,
		ids,
		running,
		started: (/** @type {string} */ id) => ids('started').includes(id),
		/** How long the longest of its executions running since `since` has run (0 if none). */
		longestRunningMs(since = 0) {
			const now = running(since);
			const starts = startsSince(since).filter((e) => now.includes(e.id));
			return starts.length === 0 ? 0 : Date.now() - Math.min(...starts.map((e) => e.at));
		},
		/** A test's signal to n8n itself. @param {NodeJS.Signals} signal */
		signal: (signal) => !exit && process.kill(pid, signal),
		exitStatus: () => exit,
	};
}

/** @param {string} line one line of n8n's output @returns {QueueEvent | undefined} */
function parseEvent(line) {
	/** @type {any} */
	let entry;
	try {
		entry = JSON.parse(line);
	} catch {
		return undefined;
	}
	const message = String(entry?.message ?? '').trim();
	for (const [kind, pattern] of Object.entries(EVENTS)) {
		const id = pattern.exec(message)?.[1];
		const { workerId, success } = entry.metadata ?? entry;
		if (id) return { kind: /** @type {any} */ (kind), id, workerId, success, at: Date.now() };
	}
	return undefined;
}

module.exports = { startN8nProcess, N8N_SHUTDOWN_SECONDS };
