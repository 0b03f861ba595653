'use strict';

// The one environment of the queue-mode suite: the queue-mode stack (test/harness/queue/) with
// the reference service behind a proxy that adds latency to every answer (so that executions are
// still running when a worker is stopped or killed), and the search workflows published.

const fs = require('node:fs');
const path = require('node:path');
const { startQueueStack } = require('../harness/queue/stack');
const { idsOf } = require('../harness/queue/events');
const { packageTarball } = require('../harness/packageTarball');
const { poll } = require('../harness/poll');
const { deadlineMs } = require('../harness/deadlines');
const { SERVICE_KEY } = require('./scenarios');
const { CREDENTIAL, searchWorkflow, keywordList } = require('./workflows');

const WORKERS = 3;
const CONCURRENCY = 5;
// Bull's job lock: how soon the jobs of a killed worker are declared stalled (n8n's defaults are
// 60 s / 10 s / 30 s; shortened so the SIGKILL test ends in well under a minute).
const STALL = { lockDurationMs: 15_000, lockRenewMs: 3_000, stalledIntervalMs: 5_000 };
// The credential the examples refer to (examples/*.json: id soundSearchDemo).
const DEMO_CREDENTIAL = {
	id: 'soundSearchDemo',
	name: 'Sound Search account',
	type: 'soundSearchApi',
};
const WORKFLOWS = [searchWorkflow(true), searchWorkflow(false), keywordList];

/** A figure of the run, printed plainly (jest's console adds a stack location). @param {string} line */
const report = (line) => void process.stdout.write(`[queue] ${line}\n`);

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls until the condition holds; whether it did in time.
 * @param {() => boolean | Promise<boolean>} condition
 * @param {number} timeoutMs
 */
function waitFor(condition, timeoutMs, intervalMs = 100) {
	return poll(condition, Boolean, timeoutMs, intervalMs);
}

/** @param {import('../harness/queue/prerequisites').QueuePrerequisites} found */
async function startEnvironment(found) {
	const startedAt = Date.now();
	report(
		`Redis ${found.redisVersion}, PostgreSQL ${found.pgVersion}; starting main + ${WORKERS} workers (concurrency ${CONCURRENCY} each)`,
	);
	const stack = await startQueueStack({
		packageTarball: packageTarball(),
		service: { keys: [SERVICE_KEY], cacheSeconds: 0, delayMs: 100 },
		workers: WORKERS,
		concurrency: CONCURRENCY,
		stall: STALL,
		credentials: [CREDENTIAL, DEMO_CREDENTIAL],
		workflows: WORKFLOWS,
		log: (line) => report(`stack: ${line}`),
	});
	const { service } = stack;
	const proxy = /** @type {import('../harness/queue/delayProxy').DelayProxy} */ (stack.proxy);
	const env = { service, proxy, stack, stop: () => stopEnvironment(stack, startedAt) };
	for (const { id } of WORKFLOWS) await stack.activateWorkflow(id);
	const waited = [];
	for (const path of ['queue-search-all', 'queue-search-limit', 'queue-keyword-list'])
		waited.push(await stack.waitForWebhook(path));
	report(`webhooks registered ${waited.join(' ms, ')} ms after publishing`);
	const workers = stack.workers.map((x) => `${x.name} pid ${x.pid} host ${x.hostName}`).join('; ');
	const { redis, postgres, main } = stack;
	report(
		`environment ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s: redis pid ${redis?.pid}, postgres pid ${postgres?.pid}, main pid ${main?.pid}; ${workers}`,
	);
	return env;
}

/** @param {import('../harness/queue/stack').QueueStack} stack @param {number} startedAt */
async function stopEnvironment(stack, startedAt) {
	const t0 = Date.now();
	await stack.stop();
	const alive = (/** @type {number} */ pid) => {
		try {
			return process.kill(pid, 0);
		} catch {
			return false;
		}
	};
	const left = stack.supervisorPids().filter(alive).length;
	report(
		`teardown by pid in ${((Date.now() - t0) / 1000).toFixed(1)} s; processes left: ${left}; suite wall time ${((Date.now() - startedAt) / 1000).toFixed(1)} s`,
	);
}

/**
 * Fires one webhook call per case, all at once, through the main.
 * @param {import('../harness/queue/stack').QueueStack} stack
 * @param {import('./scenarios').SearchCase[]} cases
 * @returns {Promise<import('./scenarios').Answer[]>}
 */
function burst(stack, cases) {
	return Promise.all(
		cases.map(async (c) => {
			const t0 = Date.now();
			const body = {
				keyword: c.keyword,
				platform: c.platform,
				pageSize: c.pageSize,
				limit: c.limit,
			};
			const path = c.returnAll ? 'queue-search-all' : 'queue-search-limit';
			try {
				const response = await post(`${stack.mainUrl}/webhook/${path}`, body);
				const text = await response.text();
				const items = parseOr(text);
				return {
					c,
					status: response.status,
					executionId: response.headers.get('x-execution-id'),
					items,
					ms: Date.now() - t0,
				};
			} catch (error) {
				return { c, status: 0, executionId: null, items: String(error), ms: Date.now() - t0 };
			}
		}),
	);
}

/** @param {string} url @param {unknown} body */
const post = (url, body) =>
	fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
		signal: AbortSignal.timeout(deadlineMs(240)),
	});

/** @param {string} text */
function parseOr(text) {
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}

/**
 * Publishes a scheduled workflow until it has fired once, then unpublishes it; its runs, ended.
 * @param {import('../harness/queue/stack').QueueStack} stack
 * @param {string} id
 */
async function publishUntilFired(stack, id) {
	const activatedAt = Date.now();
	await stack.activateWorkflow(id);
	const fired = await waitFor(
		async () => (await stack.executionsOf(id)).length > 0,
		deadlineMs(60),
		500,
	);
	await stack.deactivateWorkflow(id);
	// A second run may have fired between the first one and the deactivation: count them all.
	await sleep(1_000);
	const runs = await stack.executionsOf(id);
	const ended = await Promise.all(runs.map((x) => stack.waitForExecutionEnd(String(x.id))));
	return { fired, activatedAt, ended };
}

/**
 * The CSV files in a folder whose names match, and the header and rows when there is one.
 * @param {string} folder
 * @param {RegExp} name
 */
function readCsv(folder, name) {
	const files = fs.readdirSync(folder).filter((f) => name.test(f));
	const text = files.length === 1 ? fs.readFileSync(path.join(folder, files[0]), 'utf8') : '';
	// n8n's CSV starts with a byte order mark.
	const [header = '', ...rows] = text
		.replace(/^\uFEFF/, '')
		.split(/\r?\n/)
		.filter(Boolean);
	return { files, header: header.split(',').map((c) => c.replace(/"/g, '')), rows };
}

/** Ids of the executions the main has put on the queue so far. @param {import('../harness/queue/stack').QueueStack} stack */
const enqueuedIds = (stack) => new Set(idsOf(stack.main, 'enqueued'));

module.exports = {
	startEnvironment,
	burst,
	post,
	enqueuedIds,
	publishUntilFired,
	readCsv,
	report,
	sleep,
	waitFor,
	CONCURRENCY,
	STALL,
};
