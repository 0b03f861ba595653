'use strict';

// The queue suite's bursts: a fresh service for them, and a worker signalled in the middle of one
// (SIGTERM or SIGKILL) with what it ran, finished or lost.

const env = require('./environment');
const s = require('./scenarios');
const { deadlineMs } = require('../harness/deadlines');
const { runningOn, started } = require('../harness/queue/events');
const { N8N_SHUTDOWN_SECONDS } = require('../harness/queue/n8nProcess');

/** How long a SIGTERM'd worker is given to exit: its drain window and time to stop after it. */
const EXIT_WAIT_MS = (N8N_SHUTDOWN_SECONDS + 30) * 1000;

const { waitFor } = env;

/** @typedef {Awaited<ReturnType<typeof env.startEnvironment>>} Environment */

/**
 * A fresh ledger and catalogue for a burst of cases.
 * @param {Environment} e
 * @param {s.SearchCase[]} cases
 */
async function prepare(e, cases) {
	await e.service.reset();
	for (const c of cases)
		await e.service.setCatalogue({ query: c.keyword, total: c.total, platform: c.platform });
}

/**
 * Starts a burst of 24 executions and signals `workerName` once `caught` holds for it.
 * @param {Environment} e
 * @param {string} prefix
 * @param {string} workerName
 * @param {NodeJS.Signals} signal
 * @param {(w: import('../harness/queue/n8nProcess').N8nProcess) => boolean} caught
 */
async function signalMidBurst(e, prefix, workerName, signal, caught) {
	const worker = /** @type {import('../harness/queue/n8nProcess').N8nProcess} */ (
		e.stack.workers.find((w) => w.name === workerName)
	);
	const cases = s.makeCases(prefix, 24);
	await prepare(e, cases);
	e.proxy.setDelay(700);
	e.proxy.resetStats();
	const before = env.enqueuedIds(e.stack);
	const t0 = Date.now();
	const pending = env.burst(e.stack, cases);
	const wasCaught = await waitFor(() => caught(worker), deadlineMs(60), 50);
	const running = runningOn(worker);
	const callsInFlight = e.proxy.stats().inFlight;
	await worker.signal(signal);
	const signalledAt = Date.now();
	const answers = await pending;
	const answeredMs = Date.now() - signalledAt;
	await waitFor(() => worker.exitStatus() !== undefined, signal === 'SIGTERM' ? EXIT_WAIT_MS : 0);
	e.proxy.setDelay(100);
	const { requests: ledger } = await e.service.ledger();
	const burstIds = [...env.enqueuedIds(e.stack)].filter((id) => !before.has(id));
	const into = ((signalledAt - t0) / 1000).toFixed(1);
	return {
		worker,
		cases,
		wasCaught,
		running,
		callsInFlight,
		signalledAt,
		answers,
		answeredMs,
		ledger,
		burstIds,
		into,
	};
}

/**
 * What a SIGKILL lost. Bull hands a worker up to --concurrency jobs at once: the lost ones are
 * those it held, logged as started or taken but not started yet.
 * @param {Environment} e
 * @param {Awaited<ReturnType<typeof signalMidBurst>>} r
 */
async function lostOnKill(e, { worker, answers, ledger, burstIds, signalledAt }) {
	const [ok, failed] = [
		answers.filter((a) => a.status === 200),
		answers.filter((a) => a.status !== 200),
	];
	const okIds = new Set(ok.map((a) => String(a.executionId)));
	const lostIds = burstIds.filter((id) => !okIds.has(id));
	const lostStarted = lostIds.filter((id) => started(worker, id));
	const reRun = lostIds.filter((id) => e.stack.workers.some((w) => w !== worker && started(w, id)));
	const lost = await Promise.all(lostIds.map((id) => e.stack.waitForExecutionEnd(id)));
	const lostCases = failed.map((a) => a.c);
	const lostCalls = lostCases.flatMap((c) => s.recordsOf(ledger, c));
	const stoppedAfter = lost.map((x) => Date.parse(x?.stoppedAt ?? '') - signalledAt);
	const endedAfterMs = Math.max(...stoppedAfter.filter((ms) => !Number.isNaN(ms)));
	return {
		ok,
		failed,
		okIds,
		lostIds,
		lostStarted,
		reRun,
		lost,
		lostCases,
		lostCalls,
		endedAfterMs,
	};
}

module.exports = {
	EXIT_WAIT_MS,
	prepare,
	signalMidBurst,
	lostOnKill,
};
