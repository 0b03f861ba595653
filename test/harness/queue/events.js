'use strict';

// Which process ran an execution, read from n8n's own JSON logs (N8N_LOG_FORMAT=json): a worker
// logs "Worker started/finished execution <id>", the main "Enqueued execution <id>" and
// "Execution <id> (job <j>) finished" with the worker's id. Each process's output is parsed on its
// own, so an execution is attributed to the process that printed it.

/**
 * @typedef {object} QueueEvent
 * @property {'worker-started' | 'worker-finished' | 'worker-errored' | 'enqueued' | 'main-finished' | 'main-failed'} kind
 * @property {string} executionId
 * @property {string} jobId
 * @property {string} [workerId] main-finished / main-failed: the worker id the worker reported
 * @property {boolean} [success]
 * @property {number} at Date.now() when the harness read the line
 */

/** @typedef {{ name: string, events: QueueEvent[] }} Logged a process and what it logged */

const PATTERNS = /** @type {Array<[QueueEvent['kind'], RegExp]>} */ ([
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
	/** @type {any} */
	let entry;
	try {
		entry = JSON.parse(line.trim());
	} catch {
		return undefined;
	}
	const message = typeof entry?.message === 'string' ? entry.message.trim() : '';
	const meta = entry?.metadata ?? entry ?? {};
	for (const [kind, pattern] of PATTERNS) {
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

/** @param {Logged | undefined} proc @param {QueueEvent['kind']} kind */
const idsOf = (proc, kind) =>
	(proc?.events ?? []).filter((e) => e.kind === kind).map((e) => e.executionId);

/** Whether the process logged that it started the execution. @param {Logged} proc @param {string} id */
const started = (proc, id) => idsOf(proc, 'worker-started').includes(id);

/**
 * Executions a worker has started and not finished, per its own log.
 * @param {Logged} worker
 */
function runningOn(worker) {
	const finished = new Set(idsOf(worker, 'worker-finished'));
	return idsOf(worker, 'worker-started').filter((id) => !finished.has(id));
}

/**
 * How long the longest-running execution of a worker has been running (0 if none).
 * @param {Logged} worker
 */
function longestRunningMs(worker) {
	const running = new Set(runningOn(worker));
	const starts = worker.events
		.filter((e) => e.kind === 'worker-started' && running.has(e.executionId))
		.map((e) => e.at);
	return starts.length === 0 ? 0 : Date.now() - Math.min(...starts);
}

/**
 * What the main logged when each execution's job finished: execution id -> the worker id the
 * worker sent (`worker-<hostname>` in containers, else a random id per process).
 * @param {Logged | undefined} main
 * @returns {Map<string, { workerId?: string, success?: boolean }>}
 */
function mainFinished(main) {
	const finished = (main?.events ?? []).filter((e) => e.kind === 'main-finished');
	return new Map(
		finished.map((e) => [e.executionId, { workerId: e.workerId, success: e.success }]),
	);
}

/**
 * Worker process name -> the worker ids the main reported for the executions it ran (one each
 * when attribution is consistent).
 * @param {Logged | undefined} main
 * @param {Logged[]} workers
 * @returns {Record<string, string[]>}
 */
function workerIds(main, workers) {
	const finished = mainFinished(main);
	const reported = (/** @type {Logged} */ w) =>
		idsOf(w, 'worker-finished').flatMap((id) => finished.get(id)?.workerId ?? []);
	return Object.fromEntries(workers.map((w) => [w.name, [...new Set(reported(w))]]));
}

/**
 * How many of the given executions each worker started (all workers listed, zeros included).
 * @param {Logged[]} workers
 * @param {Array<string | number>} executionIds
 * @returns {Record<string, number>}
 */
function countByWorker(workers, executionIds) {
	/** @type {Record<string, number>} */
	const counts = Object.fromEntries(workers.map((w) => [w.name, 0]));
	for (const id of executionIds) {
		const worker = workers.find((w) => started(w, String(id)))?.name ?? '(no worker)';
		counts[worker] = (counts[worker] ?? 0) + 1;
	}
	return counts;
}

module.exports = {
	parseQueueEvent,
	idsOf,
	started,
	runningOn,
	longestRunningMs,
	mainFinished,
	workerIds,
	countByWorker,
};
