'use strict';

// Keyword lists against a request quota the node is not told: the scale service in quota mode
// (N calls per rolling window per key, beyond that a free 429 with Retry-After to the next free
// slot), one search per keyword, at 150 ms and at the slow latency. Each run on a freshly reset
// service, the node on each case's own slot (workflows.js). For 10/s and a per-minute quota:
//   1. the node's first contact, then a later run; the same with the quota in RateLimit-* headers;
//   2. at 150 ms, HTTP Request untuned, and batched by hand (intervals tried until one completes).
// Then at 10/s: the quota flooded by another client before each run; two executions at once on one
// key; and a run that a 402 dooms, against a service capped at 8 calls in flight.

const { setTimeout: sleep } = require('node:timers/promises');

const { callWebhook } = require('../client');
const { foreignCpuMeter } = require('../system');
const { QUOTAS, nodeWorkflowOf, floodWorkflowOf } = require('../workflows');
const C = require('./common');

/**
 * Against one quota: the node's first contact and a later run at each latency (of `sizes.roles`
 * when given), without headers and with (unless `sizes.headers` is 0); HTTP Request at 150 ms,
 * untuned and batched by hand.
 */
async function variants(ctx, quota, kind, sizes) {
	const node = [];
	const cases = [
		['first', sizes.first, false],
		['later', sizes.later, false],
		['headers', sizes.headers, true],
		['headersLater', sizes.headers, true],
	].filter(([, size]) => size > 0);
	const latencies = C.latenciesOf(ctx.options).filter(([r]) => sizes.roles?.includes(r) ?? true);
	for (const [role, latencyMs] of latencies)
		for (const [name, size, headers] of cases) {
			const slot = `${kind}${headers ? '-headers' : ''}-${role}`;
			// A later run comes after the earlier one's last window, as a scheduled run does.
			if (name === 'later' || name === 'headersLater') await sleep(quota.windowMs);
			node.push(await C.freshRun(ctx, { slot, role: name, latencyMs, quota, headers }, size));
		}
	const run = (key) => C.freshRun(ctx, { key, latencyMs: 150, quota }, sizes.first);
	const http = await run('keylist-http');
	const batched = await C.batchedRuns(quota.limit, quota.batchIntervalsMs, run);
	return { quota: C.quotaName(quota), kind, node, http, batched };
}

/** Calls the flood sends at once: 4 × the quota, so that most are refused. */
const FLOOD_CALLS = 40;

/**
 * Another client's burst on the flood slot's key, then the node's list there as soon as the whole
 * burst has reached the service (not when its answers are back: at 2 s the window would be free
 * again). Only the node's calls count.
 */
async function floodRun(ctx, [role, latencyMs], keywords) {
	const quota = QUOTAS.perSecond;
	await C.resetScale(ctx, { latencyMs, quota });
	const burst = Array.from({ length: FLOOD_CALLS }, (_, i) => `flood kw ${i}`);
	const url = C.webhookUrl(ctx, floodWorkflowOf(role));
	const answer = callWebhook(url, { method: 'POST', body: { keywords: burst } });
	let flood = await C.ledgerSummary(ctx.scale);
	for (const until = Date.now() + 30_000; flood.calls < FLOOD_CALLS; ) {
		C.assert(Date.now() < until, `flood: ${flood.calls} of ${FLOOD_CALLS} calls arrived`);
		await sleep(5);
		flood = await C.ledgerSummary(ctx.scale);
	}
	const setup = { slot: `flood-${role}`, role: 'flood', latencyMs, quota };
	const run = await C.listRun(ctx, setup, keywords, flood.lastSeq);
	const { status } = await answer;
	C.assert(status === 200, `flood: its workflow answered ${status}`);
	return { ...run, flood: { calls: flood.calls, refused: flood.outcomes.rate_limited ?? 0 } };
}

/** Two executions of one workflow at once on the shared slot's key, in rounds. */
async function sharedRound(ctx, [role, latencyMs], size, round) {
	const quota = QUOTAS.perSecond;
	await C.resetScale(ctx, { latencyMs, quota });
	const url = C.webhookUrl(ctx, nodeWorkflowOf(`shared-${role}`));
	const lists = ['a', 'b'].map((n) =>
		Array.from({ length: size }, (_, i) => `${n} ${round} kw ${i}`),
	);
	const started = Date.now();
	const answers = await Promise.all(
		lists.map((keywords) => callWebhook(url, { method: 'POST', body: { keywords } })),
	);
	const ms = Date.now() - started;
	const { calls, credits, outcomes } = await C.ledgerSummary(ctx.scale);
	const statuses = answers.map((answer) => answer.status);
	const refused = outcomes.rate_limited ?? 0;
	ctx.log(
		`shared key: round ${round} at ${latencyMs} ms: ${statuses} in ${ms} ms, ${calls} calls, ${refused} x 429`,
	);
	const idealMs = (Math.ceil((2 * size) / quota.limit) - 1) * quota.windowMs + latencyMs;
	const run = { round, latencyMs, quota: C.quotaName(quota), keywords: 2 * size, ms, idealMs };
	return { ...run, statuses, calls, refused, credits };
}

/**
 * 5 keywords, one answered 402 (at the service's latency, like every answer), 40 more: the paid
 * calls that reached the service after it had answered the 402, i.e. that n8n sent once the run was
 * doomed. Capped at 8 so that the 402 call is among those the service takes from the start burst
 * (at a cap of 4 it was refused, came back last, and nothing was left to stop); the burst's
 * refused calls must then not be tried again.
 */
async function doomedRun(ctx, latencyMs) {
	await C.resetScale(ctx, { latencyMs, capacity: 8 });
	const query = 'doomed 402';
	const response = { status: 402, delayMs: latencyMs };
	await ctx.scale.injectFaults([{ match: { query }, times: 'always', response }]);
	const keywords = Array.from({ length: 46 }, (_, i) => (i === 5 ? query : `doomed kw ${i}`));
	const url = C.webhookUrl(ctx, nodeWorkflowOf('doomed'));
	const meter = foreignCpuMeter();
	const { status } = await callWebhook(url, { method: 'POST', body: { keywords } });
	const { foreignCores } = meter.stop();
	const { requests } = await ctx.scale.ledger();
	const at = requests.findIndex((call) => call.status === 402);
	if (at < 0) throw new Error('doomed run: the service answered no call 402');
	const answeredAt = Date.parse(requests[at].at) + latencyMs;
	const paidAfter = requests.filter(
		(c) => c.status === 200 && Date.parse(c.at) > answeredAt,
	).length;
	ctx.log(
		`doomed run: ${status}, 402 at call ${at + 1} of ${requests.length}, ${paidAfter} paid after it was answered`,
	);
	await ctx.scale.injectFaults([]);
	return { latencyMs, status, calls: requests.length, doomedAt: at + 1, paidAfter, foreignCores };
}

async function quotaPhase(ctx) {
	const plan = ctx.options.quotas;
	const latencies = C.latenciesOf(ctx.options);
	ctx.log(
		`quotas: 10/s and a per-window quota at ${latencies.map(([, ms]) => ms).join(' and ')} ms`,
	);
	const cpu = foreignCpuMeter();
	const perSecond = await variants(ctx, QUOTAS.perSecond, 'second', plan.perSecond);
	const windowQuota = ctx.options.smoke ? QUOTAS.smokeWindow : QUOTAS.perMinute;
	const perWindow = await variants(ctx, windowQuota, 'window', plan.perWindow);
	const floodRuns = [];
	for (const latency of latencies)
		for (let i = 1; i <= plan.flood.runs; i++)
			floodRuns.push({ run: i, ...(await floodRun(ctx, latency, plan.flood.keywords)) });
	const flood = { quota: C.quotaName(QUOTAS.perSecond), burst: FLOOD_CALLS, runs: floodRuns };
	const shared = [];
	for (const latency of latencies)
		for (let round = 1; round <= 3; round++)
			shared.push(await sharedRound(ctx, latency, plan.perSecond.first, round));
	const doomed = await doomedRun(ctx, latencies[0][1]);
	await ctx.scale.reset();
	const runs = { perSecond, perWindow, flood, shared, doomed };
	return { latencies: latencies.map(([, ms]) => ms), ...runs, cpu: cpu.stop() };
}

module.exports = { quotaPhase };
