'use strict';

// Keyword lists against a request quota the node is not told (issue 20): the scale service in
// quota mode (N calls per rolling window per key, 429 with Retry-After to the next free slot),
// one search per keyword (Limit 10, one page). Each run on a freshly reset service:
//   1. per-second quota: the node (default options) with each list size, HTTP Request untuned,
//      and HTTP Request with its Batching tuned by hand (quota-sized batches, one window apart;
//      intervals tried in order until one completes);
//   2. per-minute quota: the same three on one list.

const { callWebhook } = require('../client');
const { foreignCpuMeter } = require('../system');
const { checkDeadline, ledgerSummary, webhookUrl } = require('./common');
const { expectedKeywordItems } = require('./keywords');

/** The quotas and hand-tuned batch intervals; workflows.js builds a batched workflow per pair. */
const QUOTAS = {
	LIMIT: 10,
	perSecond: { limit: 10, windowMs: 1000, batchIntervalsMs: [1000, 1100, 1250] },
	perMinute: { limit: 60, windowMs: 60_000, batchIntervalsMs: [60_000, 61_000] },
	// --smoke: a "per-minute" quota on a short window, so that it runs in seconds.
	smokeWindow: { limit: 20, windowMs: 10_000, batchIntervalsMs: [10_000] },
};
// Keyword-list workflows take POST: their keys start with `key` (workflows.js).
const batchKey = (quota, interval) => `keylist-http-quota-${quota.limit}-${interval}`;

/** One run on a freshly reset service set to `quota`; logged, not checked. */
async function quotaRun(ctx, quota, key, size) {
	checkDeadline(ctx);
	await ctx.scale.reset();
	await ctx.scale.setQuota({ limit: quota.limit, windowMs: quota.windowMs });
	const keywords = Array.from({ length: size }, (_, i) => `quota kw ${i}`);
	const meter = foreignCpuMeter();
	const r = await callWebhook(webhookUrl(ctx, key), { method: 'POST', body: { keywords } });
	const { foreignCores } = meter.stop();
	const { calls, credits } = await ledgerSummary(ctx.scale);
	const { accepted, refused } = (await ctx.scale.ledger()).quota;
	const ok = r.status === 200;
	const run = {
		key,
		keywords: size,
		quota: `${quota.limit}/${quota.windowMs / 1000}s`,
		status: r.status,
		ms: r.ms,
		// The first window's calls start at once: the last window opens (windows - 1) after it.
		idealMs: (Math.ceil(size / quota.limit) - 1) * quota.windowMs,
		foreignCores,
		items: ok ? r.json.count_soundId : 0,
		expected: expectedKeywordItems(keywords, QUOTAS.LIMIT),
		error: ok ? undefined : JSON.stringify(r.json).slice(0, 200),
		calls,
		accepted,
		refused,
		credits,
	};
	ctx.log(
		`quotas: ${run.quota} ${key} ${size}: ${r.status} in ${(r.ms / 1000).toFixed(1)} s, ${run.items}/${run.expected} items, ${calls} calls, ${refused} x 429, ${credits} credits`,
	);
	return run;
}

/** The node, HTTP Request untuned, HTTP Request batched by hand (until a batching completes). */
async function variants(ctx, quota, sizes) {
	const node = [];
	for (const size of sizes) node.push(await quotaRun(ctx, quota, 'keylist-node', size));
	const size = sizes[0];
	const http = await quotaRun(ctx, quota, 'keylist-http', size);
	const batched = [];
	for (const interval of quota.batchIntervalsMs) {
		const run = await quotaRun(ctx, quota, batchKey(quota, interval), size);
		batched.push({ batchSize: quota.limit, batchInterval: interval, ...run });
		if (run.status === 200 && run.items === run.expected) break;
	}
	return { quota: `${quota.limit}/${quota.windowMs / 1000}s`, node, http, batched };
}

async function quotaPhase(ctx) {
	const plan = ctx.options.quotas;
	const perWindow = ctx.options.smoke ? QUOTAS.smokeWindow : QUOTAS.perMinute;
	ctx.log(
		`quotas: 10/s with ${plan.perSecond.join(', ')} keywords, a per-window quota with ${plan.perWindow}`,
	);
	const cpu = foreignCpuMeter();
	const perSecond = await variants(ctx, QUOTAS.perSecond, plan.perSecond);
	const window = await variants(ctx, perWindow, [plan.perWindow]);
	await ctx.scale.reset();
	return { limit: QUOTAS.LIMIT, perSecond, perWindow: window, cpu: cpu.stop() };
}

module.exports = { quotaPhase, QUOTAS, batchKey };
