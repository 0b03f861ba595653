'use strict';

// What every phase shares: the deadline, checks (a fast wrong answer fails the benchmark instead
// of being reported), the rotation of variants, the service's ledger, n8n's CPU, and calling a
// workflow (through n8n's webhook) or the raw floor outside n8n.

const { callWebhook, floorReturnAll } = require('../client');
const system = require('../system');

/**
 * @typedef {{ options: any, log: (m: string) => void, deadline: number, n8nPid: number,
 *   n8nUrl: string, inspectPort: number, timing: any, billing: any, scale: any, folder: string,
 *   apiKey: string, pages: number, pageSize: number, pagesQuery: string,
 *   resetTiming: () => Promise<void>, contact: (slot: string) => 'first' | 'later' }} Ctx
 */

function checkDeadline(/** @type {Ctx} */ ctx) {
	if (Date.now() > ctx.deadline) throw new Error('deadline reached (see --deadline-minutes)');
}

function assert(/** @type {unknown} */ condition, /** @type {string} */ message) {
	if (!condition) throw new Error(`check failed: ${message}`);
}

/** @template T @param {T[]} list @param {number} by */
const rotate = (list, by) => [...list.slice(by % list.length), ...list.slice(0, by % list.length)];

/**
 * Calls, credits and outcomes the service recorded since its last reset, or after its call number
 * `since` (another client's calls before it left out); `lastSeq`, the number of its last call.
 */
async function ledgerSummary(service, since = 0) {
	const { requests, capacity } = await service.ledger();
	const mine = requests.filter((r) => r.seq > since);
	const outcomes = {};
	for (const r of mine) outcomes[r.outcome] = (outcomes[r.outcome] ?? 0) + 1;
	const credits = mine.reduce((sum, r) => sum + r.creditsCharged, 0);
	const lastSeq = requests.at(-1)?.seq ?? 0;
	return { calls: mine.length, credits, outcomes, mostInFlight: capacity?.mostInFlight, lastSeq };
}

/**
 * The scale service freshly reset (ledger, counters, quota, settings), answering after `latencyMs`
 * and capped at `capacity` calls in flight per key (0: no cap).
 * @param {Ctx} ctx @param {{ latencyMs: number, capacity?: number }} settings
 */
async function resetScale(ctx, { latencyMs, capacity = 0 }) {
	checkDeadline(ctx);
	await ctx.scale.reset();
	await ctx.scale.setCapacity({ capacity, latencyMs });
}

/** The webhook of workflow `key` (bench/workflows.js). @param {Ctx} ctx */
const webhookUrl = (ctx, key, query = /** @type {any} */ (undefined)) =>
	`${ctx.n8nUrl}/webhook/bench-${key}${query ? `?${new URLSearchParams(query)}` : ''}`;

/** Calls a workflow's webhook; the answer must be 200 (its Summarize item). */
async function callWorkflow(ctx, key, options = {}) {
	const r = await callWebhook(webhookUrl(ctx, key, options.query), options);
	const what = `${key}${options.query?.q ? ` ${options.query.q}` : ''}`;
	const answer = JSON.stringify(r.json).slice(0, 300);
	assert(r.status === 200, `${what}: webhook answered ${r.status} ${answer}`);
	return { ms: r.ms, items: r.json.count_soundId, unique: r.json.unique_count_soundId };
}

/** CPU seconds of n8n and its task runner(s). @param {Ctx} ctx */
const n8nCpuSeconds = (ctx) =>
	[ctx.n8nPid, ...system.descendants(ctx.n8nPid)].reduce(
		(sum, pid) => sum + system.processCpuSeconds(pid),
		0,
	);

/**
 * One Return All of `q`: a workflow (`query` for its webhook), or the raw floor (d) outside n8n
 * ('floor', or 'floor-new' with a new connection per page).
 * @param {Ctx} ctx
 */
async function returnAll(ctx, variant, { q, pageSize, query = /** @type {any} */ (undefined) }) {
	if (!variant.startsWith('floor')) return callWorkflow(ctx, variant, { query });
	const newConnection = variant === 'floor-new';
	const floor = { serviceUrl: ctx.timing.url, apiKey: ctx.apiKey, q, pageSize, newConnection };
	const { ms, items } = await floorReturnAll(floor);
	return { ms, items, unique: items };
}

/** Runs every variant in each of `rounds` rounds, the order rotated from round to round. */
async function interleaved(ctx, rounds, variants, run) {
	const out = [];
	for (let r = 0; r < rounds; r++) {
		checkDeadline(ctx);
		for (const [position, v] of rotate(variants, r).entries()) out.push(await run(v, r, position));
	}
	return out;
}

module.exports = {
	checkDeadline,
	assert,
	rotate,
	ledgerSummary,
	resetScale,
	webhookUrl,
	callWorkflow,
	n8nCpuSeconds,
	returnAll,
	interleaved,
};
