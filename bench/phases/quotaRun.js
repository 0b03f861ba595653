'use strict';

// One keyword list against the scale service in quota mode (phases/quotas.js, phases/flood.js):
// the quotas, the service reset and set to one, the list POSTed to a workflow, what came out and
// what the service's ledger saw of its calls.

const { callWebhook } = require('../client');
const { foreignCpuMeter } = require('../system');
const { ledgerSummary, resetScale, webhookUrl } = require('./common');
const { expectedKeywordItems } = require('./keywords');
const { nodeWorkflowOf, CONTACT } = require('../contacts');

/** The quotas and hand-tuned batch intervals; workflows.js builds a batched workflow per pair. */
const QUOTAS = {
	LIMIT: 10,
	perSecond: { limit: 10, windowMs: 1000, batchIntervalsMs: [1000, 1100, 1250] },
	perMinute: { limit: 60, windowMs: 60_000, batchIntervalsMs: [60_000, 61_000] },
	// --smoke: a "per-minute" quota on a short window, so that it runs in seconds.
	smokeWindow: { limit: 20, windowMs: 2000, batchIntervalsMs: [2000] },
};
// Keyword-list workflows take POST: their keys start with `key` (workflows.js).
const batchKey = (quota, interval) => `keylist-http-quota-${quota.limit}-${interval}`;

/** The scale service freshly reset, at `latencyMs`, in quota mode, with headers when asked. */
async function quotaService(ctx, quota, latencyMs, headers = false) {
	await resetScale(ctx, { latencyMs });
	await ctx.scale.setQuota({ limit: quota.limit, windowMs: quota.windowMs, headers });
}

const quotaName = (quota) => `${quota.limit}/${quota.windowMs / 1000}s`;

/**
 * What a run calls: Sound Search on `slot` (its contact recorded) in the `role` of its case, or
 * the workflow `key`; at `latencyMs`.
 * @typedef {{ slot?: string, key?: string, role?: string, latencyMs: number,
 *   headers?: boolean }} QuotaSetup
 */

/**
 * One list against the service as it is; its calls are those after the service's call `since`
 * (another client's before). Logged, not checked. @param {QuotaSetup} setup
 */
async function listRun(ctx, quota, setup, size, since = 0) {
	const { slot: name, latencyMs } = setup;
	const key = name ? nodeWorkflowOf(name) : setup.key;
	const contact = name ? ctx.contact(name) : undefined;
	const keywords = Array.from({ length: size }, (_, i) => `quota kw ${i}`);
	const meter = foreignCpuMeter();
	const r = await callWebhook(webhookUrl(ctx, key), { method: 'POST', body: { keywords } });
	const { foreignCores } = meter.stop();
	const { calls, credits, outcomes } = await ledgerSummary(ctx.scale, since);
	const refused = outcomes.rate_limited ?? 0;
	const ok = r.status === 200;
	const run = {
		key,
		...(name && { slot: name, contact, role: setup.role }),
		headers: Boolean(setup.headers),
		keywords: size,
		latencyMs,
		quota: quotaName(quota),
		quotaLimit: quota.limit,
		status: r.status,
		ms: r.ms,
		// The first window's calls start at once and the last window opens (windows - 1) after
		// it; its answers come one latency later.
		idealMs: (Math.ceil(size / quota.limit) - 1) * quota.windowMs + latencyMs,
		foreignCores,
		items: ok ? r.json.count_soundId : 0,
		expected: expectedKeywordItems(keywords, QUOTAS.LIMIT),
		error: ok ? undefined : JSON.stringify(r.json).slice(0, 200),
		calls,
		accepted: calls - refused,
		refused,
		credits,
	};
	const how = [`${latencyMs} ms`, setup.headers && 'headers', contact && CONTACT[contact]];
	ctx.log(
		`quotas: ${run.quota} ${key} ${size} (${how.filter(Boolean).join(', ')}): ${r.status} in ${(r.ms / 1000).toFixed(1)} s, ${run.items}/${run.expected} items, ${calls} calls, ${refused} x 429, ${credits} credits`,
	);
	return run;
}

/** One run on a freshly reset service set to `quota`. @param {QuotaSetup} setup */
async function quotaRun(ctx, quota, setup, size) {
	await quotaService(ctx, quota, setup.latencyMs, setup.headers);
	return listRun(ctx, quota, setup, size);
}

module.exports = { QUOTAS, batchKey, quotaName, quotaService, listRun, quotaRun };
