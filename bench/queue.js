'use strict';

// Issue 50's queue-mode measurement (`bash bench/queue.sh`, docs/running-at-scale.md): three
// workers, one job at a time each, share one 10/s key. The project's queue stack
// (test/harness/queue/) with the reference service at 10/s per key, 150 ms an answer, cache off.
// Per repetition, on an API key and credential of its own (each worker's limiter is per
// credential, so a repetition starts from nothing, as after a restart): three executions at once
// (one per worker) for three rounds, then one execution alone, twice. Each of N keywords (one
// search each). Printed and kept in .cache/bench/queue-<time>.json; measured, never asserted.
//   node bench/queue.js [--repeat 3] [--keywords 100] [--tarball FILE]

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');
const { setTimeout: sleep } = require('node:timers/promises');

const n8n = require('../test/harness/n8n');
const { startQueueStack } = require('../test/harness/queue/stack');
const { packageTarball, REPO_ROOT } = require('../test/harness/packageTarball');
const { poll } = require('../test/harness/poll');
const { callWebhook, closeClients } = require('./client');
const { keywordListWorkflow } = require('./workflows');

const QUOTA = { limit: 10, windowMs: 1000 };
const LATENCY_MS = 150;
const WORKERS = 3;
const [ROUNDS, ALONE] = [3, 2];
const log = (/** @type {string} */ line) =>
	process.stderr.write(`[queue ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
const load = () => os.loadavg().map((x) => Math.round(x * 100) / 100);
const pct = (/** @type {number} */ x) => `${(100 * x).toFixed(1)} %`;
/** Ideal: the calls at the quota, the first window's at once, plus one latency. */
const idealMs = (calls) => (Math.ceil(calls / QUOTA.limit) - 1) * QUOTA.windowMs + LATENCY_MS;

function readOptions() {
	const string = { type: /** @type {const} */ ('string') };
	const options = { repeat: string, keywords: string, tarball: string };
	const values = /** @type {Record<string, string | undefined>} */ (parseArgs({ options }).values);
	return {
		repeat: Number(values.repeat ?? 3),
		keywords: Number(values.keywords ?? 100),
		tarball: values.tarball && path.resolve(values.tarball),
	};
}

/** A credential on `apiKey` and a published keyword-list workflow on it; its webhook URL. */
async function prepareRepetition(stack, rep, apiKey) {
	const body = {
		name: `Queue measurement ${rep}`,
		type: 'soundSearchApi',
		data: { apiKey, baseUrl: stack.service.url },
	};
	const { id, name } = await stack.call('POST', '/rest/credentials', body);
	const key = `keylist-queue-${rep}`;
	const created = await n8n.createWorkflowViaRest(
		stack.rest,
		keywordListWorkflow(key, { id, name }),
	);
	await stack.activateWorkflow(created.id);
	const url = `${stack.mainUrl}/webhook/bench-${key}`;
	await n8n.untilWebhookServed(url);
	return url;
}

/** `executions` lists of N keywords at once; their share of the quota, refusals, workers. */
async function measure(stack, url, label, executions, size) {
	await stack.service.reset();
	await sleep(QUOTA.windowMs);
	const before = new Set(stack.main?.ids('enqueued'));
	const lists = Array.from({ length: executions }, (_, e) =>
		Array.from({ length: size }, (_, k) => `${label} e${e} kw ${k}`),
	);
	const t0 = Date.now();
	const answers = await Promise.all(
		lists.map((keywords) => callWebhook(url, { method: 'POST', body: { keywords } })),
	);
	const ms = Date.now() - t0;
	const ids = [...new Set(stack.main?.ids('enqueued'))].filter((id) => !before.has(id));
	await poll(() => ids.every((id) => stack.workerOf(id)), Boolean, 10_000, 100);
	const { requests } = await stack.service.ledger();
	const refused = requests.filter((r) => r.status === 429).length;
	const statuses = answers.map((a) => a.status);
	const done = statuses.every((s) => s === 200);
	const share = done ? idealMs(executions * size) / ms : 0;
	const workers = ids.map((id) => stack.workerOf(id) ?? '?');
	const run = { label, executions, keywords: executions * size, ms, share, calls: requests.length };
	const result = { ...run, refused, statuses, workers, load: load() };
	log(
		`${label}: ${statuses} in ${(ms / 1000).toFixed(1)} s, ${pct(share)} of ${QUOTA.limit}/s, ${refused} of ${requests.length} calls refused, on ${workers.join(' ')}; load ${result.load.join(' ')}`,
	);
	return result;
}

async function repetition(stack, rep, size) {
	const url = await prepareRepetition(stack, rep, stack.service.keys[rep]);
	const runs = [];
	for (let round = 1; round <= ROUNDS; round++)
		runs.push(await measure(stack, url, `rep ${rep} round ${round}`, WORKERS, size));
	for (let alone = 1; alone <= ALONE; alone++)
		runs.push(await measure(stack, url, `rep ${rep} alone ${alone}`, 1, size));
	const later = runs.slice(1, ROUNDS);
	const refusedLater = later.reduce((n, r) => n + r.refused, 0);
	const callsLater = later.reduce((n, r) => n + r.calls, 0);
	const summary = {
		rep,
		together: runs.slice(0, ROUNDS).map((r) => pct(r.share)),
		refusedFromRound2: `${refusedLater} of ${callsLater} (${pct(refusedLater / callsLater)})`,
		alone: runs.slice(ROUNDS).map((r) => pct(r.share)),
	};
	log(`rep ${rep}: ${JSON.stringify(summary)}`);
	return { rep, runs, summary };
}

async function main() {
	const options = readOptions();
	log(`machine: ${os.cpus().length} cores; load ${load().join(' ')}`);
	const keys = Array.from({ length: options.repeat + 1 }, (_, i) => `queue-share-key-${i}`);
	const service = { keys, cacheSeconds: 0, latencyMs: LATENCY_MS, quota: `${QUOTA.limit}/s` };
	const tarball = options.tarball ?? packageTarball();
	// A signal while the stack starts stops it once started (startQueueStack cleans up a failure).
	let stopping = false;
	const whileStarting = () => void (stopping = true);
	for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, whileStarting);
	const stack = await startQueueStack({
		packageTarball: tarball,
		service,
		workers: WORKERS,
		concurrency: 1,
		log,
	});
	const stop = () => stack.stop().then(closeClients);
	for (const signal of ['SIGINT', 'SIGTERM']) {
		process.off(signal, whileStarting);
		process.once(signal, () => void stop().finally(() => process.exit(130)));
	}
	if (stopping) {
		log('a signal came while the stack started: stopping');
		await stop();
		return;
	}
	try {
		const reps = [];
		for (let rep = 1; rep <= options.repeat; rep++)
			reps.push(await repetition(stack, rep, options.keywords));
		const file = path.join(
			REPO_ROOT,
			'.cache',
			'bench',
			`queue-${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
		);
		fs.mkdirSync(path.dirname(file), { recursive: true });
		const tarballName = path.basename(tarball);
		fs.writeFileSync(
			file,
			JSON.stringify({ options, tarball: tarballName, quota: QUOTA, latencyMs: LATENCY_MS, reps }),
		);
		log(`kept ${path.relative(REPO_ROOT, file)}`);
		for (const r of reps) process.stdout.write(`${JSON.stringify(r.summary)}\n`);
	} finally {
		await stop();
	}
}

main().catch((error) => {
	log(`FAILED: ${error && error.stack ? error.stack : error}`);
	process.exitCode = 1;
});
