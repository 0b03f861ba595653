'use strict';

// Keyword lists against a request quota the node is not told (issues 20 and 30): the scale
// service in quota mode (N calls per rolling window per key, 429 with Retry-After to the next free
// slot), one search per keyword (Limit 10, one page), at 150 ms and at 2 s per answer. Each run on
// a freshly reset service; the node on its case's own slot (contacts.js). For the per-second and
// the per-minute quota, at each latency:
//   1. the node (default options): its first contact, then a later run on the same slot;
//   2. the node's first contact with the quota announced in RateLimit-* headers, then a later run
//      on the same slot (issue 30: with the limit announced, no call refused once it is read);
//   3. at 150 ms only, HTTP Request untuned, and HTTP Request with its Batching tuned by hand
//      (quota-sized batches, one window apart; intervals tried in order until one completes).
// The per-second quota flooded by another client before each run: phases/flood.js; two
// executions at once on one key, and a run a 402 dooms: phases/sharedKey.js.

const { setTimeout: sleep } = require('node:timers/promises');

const { foreignCpuMeter } = require('../system');
const { QUOTAS, batchKey, quotaName, quotaRun } = require('./quotaRun');
const { floodPhase } = require('./flood');
const { sharedKeyPhase } = require('./sharedKey');
const { slot, latenciesOf, BASE_LATENCY_MS } = require('../contacts');

/** The node's first contact and a later run, without headers and with; at one latency. */
async function nodeRuns(ctx, quota, kind, sizes, [latencyRole, latencyMs]) {
	const runs = [];
	const cases = [
		['first', sizes.first, false],
		['later', sizes.later, false],
		['headers', sizes.headers, true],
		['headersLater', sizes.headers, true],
	];
	for (const [role, size, headers] of cases) {
		const name = slot.quota(kind, latencyRole, headers);
		const setup = { slot: name, role, latencyMs, headers };
		// A later run comes after the earlier one's last window, as a scheduled run does: the node
		// remembers the calls in it (a real service would still count them; this one is reset).
		if (role !== 'first' && role !== 'headers') await sleep(quota.windowMs);
		runs.push(await quotaRun(ctx, quota, setup, size));
	}
	return runs;
}

/** HTTP Request untuned, HTTP Request batched by hand (until a batching completes), at 150 ms. */
async function httpRuns(ctx, quota, size) {
	const latencyMs = BASE_LATENCY_MS;
	const http = await quotaRun(ctx, quota, { key: 'keylist-http', latencyMs }, size);
	const batched = [];
	for (const interval of quota.batchIntervalsMs) {
		const key = batchKey(quota, interval);
		const run = await quotaRun(ctx, quota, { key, latencyMs }, size);
		batched.push({ batchSize: quota.limit, batchInterval: interval, ...run });
		if (run.status === 200 && run.items === run.expected) break;
	}
	return { http, batched };
}

/** Every run against one quota: the node at each latency, HTTP Request at 150 ms. */
async function variants(ctx, quota, kind, sizes) {
	const node = [];
	for (const latency of latenciesOf(ctx.options))
		node.push(...(await nodeRuns(ctx, quota, kind, sizes, latency)));
	return { quota: quotaName(quota), kind, node, ...(await httpRuns(ctx, quota, sizes.first)) };
}

async function quotaPhase(ctx) {
	const plan = ctx.options.quotas;
	const perWindow = ctx.options.smoke ? QUOTAS.smokeWindow : QUOTAS.perMinute;
	const latencies = latenciesOf(ctx.options).map(([, ms]) => ms);
	const sizes = (k) => Object.entries(plan[k]).map(([role, n]) => `${role} ${n}`);
	ctx.log(
		`quotas: 10/s (${sizes('perSecond').join(', ')}), a per-window quota (${sizes('perWindow').join(', ')}), at ${latencies.join(' and ')} ms`,
	);
	const cpu = foreignCpuMeter();
	const perSecond = await variants(ctx, QUOTAS.perSecond, 'second', plan.perSecond);
	const window = await variants(ctx, perWindow, 'window', plan.perWindow);
	const flood = await floodPhase(ctx, plan.flood);
	const sharedKey = await sharedKeyPhase(ctx, plan.perSecond.first);
	await ctx.scale.reset();
	const result = { limit: QUOTAS.LIMIT, latencies, perSecond, perWindow: window };
	return { ...result, flood, ...sharedKey, cpu: cpu.stop() };
}

module.exports = { quotaPhase };
