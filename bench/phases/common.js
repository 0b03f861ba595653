'use strict';

// What every phase shares: the deadline, checks (a fast wrong answer fails the benchmark instead
// of being reported), the rotation of variants, the service's ledger, n8n's CPU, calling a
// workflow, and one keyword list against the scale service.

const { callWebhook } = require('../client');
const system = require('../system');
const { describeQuery, normalizeQuery } = require('../../reference-service/catalogue');
const { nodeWorkflowOf, batchKey } = require('../workflows');

/**
 * @typedef {{ options: any, log: (m: string) => void, deadline: number, n8nPid: number,
 *   n8nUrl: string, timing: any, billing: any, scale: any, apiKey: string, pages: number,
 *   pageSize: number, pagesQuery: string, resetTiming: () => Promise<void>,
 *   seen: Set<string> }} Ctx
 */

function checkDeadline(/** @type {Ctx} */ ctx) {
	if (Date.now() > ctx.deadline) throw new Error('deadline reached (see --deadline-minutes)');
}

function assert(/** @type {unknown} */ condition, /** @type {string} */ message) {
	if (!condition) throw new Error(`check failed: ${message}`);
}

/** @template T @param {T[]} list @param {number} by */
const rotate = (list, by) => [...list.slice(by % list.length), ...list.slice(0, by % list.length)];

/** Runs every variant in each of `rounds` rounds, the order rotated from round to round. */
async function interleaved(ctx, rounds, variants, run) {
	const out = [];
	for (let r = 0; r < rounds; r++) {
		checkDeadline(ctx);
		for (const [position, v] of rotate(variants, r).entries()) out.push(await run(v, r, position));
	}
	return out;
}

/**
 * [role, ms] of each latency of the keyword cases: 150 ms, and a real search's seconds.
 * @returns {[string, number][]}
 */
const latenciesOf = (options) => [
	['base', 150],
	['slow', options.slowLatencyMs],
];

/**
 * Calls, credits and outcomes the service recorded after its call number `since`, leaving out
 * another client's (queries starting with `other`).
 */
async function ledgerSummary(
	service,
	since = 0,
	/** @type {string | undefined} */ other = undefined,
) {
	const { requests, capacity } = await service.ledger();
	const mine = requests.filter((r) => r.seq > since && !(other && r.q?.startsWith(other)));
	const outcomes = {};
	for (const r of mine) outcomes[r.outcome] = (outcomes[r.outcome] ?? 0) + 1;
	const credits = mine.reduce((sum, r) => sum + r.creditsCharged, 0);
	const lastSeq = requests.at(-1)?.seq ?? 0;
	return { calls: mine.length, credits, outcomes, mostInFlight: capacity?.mostInFlight, lastSeq };
}

/**
 * The scale service reset, answering after `latencyMs`, capped (0: no cap), with a quota or a
 * token bucket.
 * @param {Ctx} ctx @param {{ latencyMs: number, capacity?: number, headers?: boolean,
 *   quota?: { limit: number, windowMs: number },
 *   bucket?: { size: number, refillPerSecond: number } }} setup
 */
async function resetScale(ctx, { latencyMs, capacity = 0, quota, headers = false, bucket }) {
	checkDeadline(ctx);
	await ctx.scale.reset();
	await ctx.scale.setCapacity({ capacity, latencyMs });
	if (quota) await ctx.scale.setQuota({ limit: quota.limit, windowMs: quota.windowMs, headers });
	if (bucket) await ctx.scale.setBucket(bucket);
}

/** The webhook of workflow `key` (workflows.js). @param {Ctx} ctx */
const webhookUrl = (ctx, key, query = /** @type {any} */ (undefined)) =>
	`${ctx.n8nUrl}/webhook/bench-${key}${query ? `?${new URLSearchParams(query)}` : ''}`;

/** Calls a workflow's webhook; the answer must be 200 (its Summarize item). */
async function callWorkflow(ctx, key, options = {}) {
	const r = await callWebhook(webhookUrl(ctx, key, options.query), options);
	const answer = JSON.stringify(r.json).slice(0, 300);
	assert(r.status === 200, `${key}: webhook answered ${r.status} ${answer}`);
	return { ms: r.ms, items: r.json.count_soundId, unique: r.json.unique_count_soundId };
}

/** CPU seconds of n8n and its task runner(s). @param {Ctx} ctx */
const n8nCpuSeconds = (ctx) =>
	[ctx.n8nPid, ...system.descendants(ctx.n8nPid)].reduce(
		(sum, pid) => sum + system.processCpuSeconds(pid),
		0,
	);

/** Sounds the reference service holds for these keywords, up to `limit` each. */
const expectedItems = (keywords, limit) =>
	keywords.reduce(
		(sum, k) =>
			sum + Math.min(limit, describeQuery('shortvideo', normalizeQuery(k), new Map()).total),
		0,
	);

const quotaName = (quota) => `${quota.limit}/${quota.windowMs / 1000}s`;

/**
 * One keyword list POSTed to Sound Search on `slot` (its contact recorded: the slot's first run
 * is first contact) or to the workflow `key`, against the scale service as it is; its calls are
 * those after the service's call `since` (another client's before), less those of another client
 * whose queries start with `setup.other`. Logged, not checked; the load average at its end kept.
 * @param {Ctx} ctx
 * @param {{ slot?: string, key?: string, role?: string, latencyMs: number, capacity?: number,
 *   quota?: { limit: number, windowMs: number }, headers?: boolean, other?: string }} setup
 */
async function listRun(ctx, setup, size, since = 0) {
	const { slot, latencyMs, capacity = 0, quota } = setup;
	const key = slot ? nodeWorkflowOf(slot) : setup.key;
	const contact = slot && (ctx.seen.has(slot) ? 'later' : 'first');
	if (slot) ctx.seen.add(slot);
	const keywords = Array.from({ length: size }, (_, i) => `list kw ${i}`);
	const [cpu0, meter] = [n8nCpuSeconds(ctx), system.foreignCpuMeter()];
	const r = await callWebhook(webhookUrl(ctx, key), { method: 'POST', body: { keywords } });
	const n8nCpuMs = (n8nCpuSeconds(ctx) - cpu0) * 1000;
	const { foreignCores } = meter.stop();
	const ledger = await ledgerSummary(ctx.scale, since, setup.other);
	const { calls, credits, outcomes, mostInFlight } = ledger;
	const ok = r.status === 200;
	const run = {
		key,
		...(slot && { slot, contact, role: setup.role }),
		headers: Boolean(setup.headers),
		keywords: size,
		latencyMs,
		capacity,
		...(quota && {
			quota: quotaName(quota),
			quotaLimit: quota.limit,
			// The first window's calls start at once, the last window opens (windows - 1) later.
			idealMs: (Math.ceil(size / quota.limit) - 1) * quota.windowMs + latencyMs,
		}),
		status: r.status,
		ms: r.ms,
		n8nCpuMs,
		foreignCores,
		items: ok ? r.json.count_soundId : 0,
		expected: expectedItems(keywords, 10),
		error: ok ? undefined : JSON.stringify(r.json).slice(0, 300),
		calls,
		refused: outcomes.rate_limited ?? 0,
		credits,
		mostInFlight,
		load: system.loadavg(),
	};
	const how = [`${latencyMs} ms`, capacity && `capped ${capacity}`, run.quota, contact];
	ctx.log(
		`${key} ${size} (${how.filter(Boolean).join(', ')}): ${r.status} in ${(r.ms / 1000).toFixed(1)} s, ${run.items}/${run.expected} items, ${calls} calls, ${run.refused} x 429, ${credits} credits, load ${run.load[0]}`,
	);
	return run;
}

/** One list run on the scale service freshly reset to `setup`'s latency, cap and quota. */
async function freshRun(ctx, setup, size) {
	await resetScale(ctx, setup);
	return listRun(ctx, setup, size);
}

/** HTTP Request batched by hand, `size` calls a batch: each interval in turn until one completes. */
async function batchedRuns(size, intervals, run) {
	const runs = [];
	for (const interval of intervals) {
		const r = await run(batchKey(size, interval));
		runs.push({ batchSize: size, batchInterval: interval, ...r });
		if (r.status === 200 && r.items === r.expected) break;
	}
	return runs;
}

/** A run that must complete: every sound out, one answered (non-429) call per keyword. */
function complete(run) {
	const what = `${run.key} ${run.keywords}`;
	assert(run.status === 200, `${what}: webhook answered ${run.status} ${run.error}`);
	assert(run.items === run.expected, `${what}: ${run.items} items, expected ${run.expected}`);
	const answered = run.calls - run.refused;
	assert(answered === run.keywords, `${what}: ${answered} calls answered, ${run.refused} 429`);
	return run;
}

module.exports = {
	checkDeadline,
	assert,
	rotate,
	interleaved,
	latenciesOf,
	ledgerSummary,
	resetScale,
	webhookUrl,
	callWorkflow,
	n8nCpuSeconds,
	expectedItems,
	quotaName,
	listRun,
	freshRun,
	batchedRuns,
	complete,
};
