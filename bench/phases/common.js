'use strict';

// What every phase shares: the deadline, checks (a fast wrong answer fails the benchmark instead
// of being reported), the rotation of variants, the service's ledger, webhook URLs, n8n's CPU,
// and one Return All run of a variant (through n8n's webhook, or the raw floor outside n8n).

const { callWebhook, floorReturnAll } = require('../client');
const system = require('../system');

/**
 * @typedef {{ options: any, log: (m: string) => void, deadline: number, n8nPid: number,
 *   n8nUrl: string, inspectPort: number, paths: Record<string, string>, timing: any,
 *   billing: any, scale: any, folder: string, apiKey: string, pages: number, pageSize: number,
 *   pagesQuery: string, resetTiming: () => Promise<void> }} Ctx
 */

/** @param {Ctx} ctx */
function checkDeadline(ctx) {
	if (Date.now() > ctx.deadline) throw new Error('deadline reached (see --deadline-minutes)');
}

/** @param {unknown} condition @param {string} message */
function assert(condition, message) {
	if (!condition) throw new Error(`check failed: ${message}`);
}

/** @template T @param {T[]} list @param {number} by */
function rotate(list, by) {
	const k = by % list.length;
	return [...list.slice(k), ...list.slice(0, k)];
}

/** Calls, credits and outcomes the service recorded since its last reset. */
async function ledgerSummary(service) {
	const { requests, totals, capacity } = await service.ledger();
	/** @type {Record<string, number>} */
	const outcomes = {};
	for (const r of requests) outcomes[r.outcome] = (outcomes[r.outcome] ?? 0) + 1;
	return {
		calls: totals.requests,
		credits: totals.creditsCharged,
		outcomes,
		mostInFlight: capacity?.mostInFlight,
	};
}

/** @param {Ctx} ctx @param {string} key @param {Record<string, string>} [query] */
function webhookUrl(ctx, key, query) {
	const qs = query ? `?${new URLSearchParams(query)}` : '';
	return `${ctx.n8nUrl}/webhook/${ctx.paths[key]}${qs}`;
}

/** Calls a workflow's webhook; the answer must be 200 (its Summarize item). */
async function callWorkflow(ctx, key, options = {}) {
	const r = await callWebhook(webhookUrl(ctx, key, options.query), options);
	const what = `${key}${options.query?.q ? ` ${options.query.q}` : ''}`;
	assert(
		r.status === 200,
		`${what}: webhook answered ${r.status} ${JSON.stringify(r.json).slice(0, 300)}`,
	);
	return { ms: r.ms, items: r.json.count_soundId, unique: r.json.unique_count_soundId };
}

/** Sum of CPU seconds of n8n and its task runner(s), if any. @param {Ctx} ctx */
function n8nCpuSeconds(ctx) {
	const pids = [ctx.n8nPid, ...system.descendants(ctx.n8nPid)];
	return pids.reduce((sum, pid) => sum + system.processCpuSeconds(pid), 0);
}

/**
 * One Return All of `q` by a variant: an n8n workflow (`query` for its webhook), or the raw
 * floor (d) outside n8n ('floor', or 'floor-new' with a new connection per page).
 */
async function returnAll(
	ctx,
	variant,
	{ q, pageSize, query = /** @type {Record<string, string> | undefined} */ (undefined) },
) {
	if (!variant.startsWith('floor')) return callWorkflow(ctx, variant, { query });
	const newConnection = variant === 'floor-new';
	const { ms, items } = await floorReturnAll({
		serviceUrl: ctx.timing.url,
		apiKey: ctx.apiKey,
		q,
		pageSize,
		newConnection,
	});
	return { ms, items, unique: items };
}

/** Runs `run` on every variant of each of `rounds` rounds, the order rotated each round. */
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
	webhookUrl,
	callWorkflow,
	n8nCpuSeconds,
	returnAll,
	interleaved,
};
