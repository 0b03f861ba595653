'use strict';

// The per-second quota flooded by another client (issue 30): before each run, an HTTP Request
// workflow on the same API key and service sends a burst far over the 10/s quota (most of it
// refused), and the node's list starts as soon as the whole burst has reached the service. Not
// when the burst's answers are back: at 2 s per answer they come after its 1 s window has passed,
// and the quota would be free again. Runs on the flood slot (contacts.js): the first is first
// contact, the others later runs, and each has to find the quota already used up.

const { setTimeout: sleep } = require('node:timers/promises');

const { callWebhook } = require('../client');
const { assert, ledgerSummary, webhookUrl } = require('./common');
const { QUOTAS, quotaName, quotaService, listRun } = require('./quotaRun');
const { slot, floodWorkflowOf, latenciesOf } = require('../contacts');

/** Calls the flood sends at once: 4 × the quota, so that most are refused. */
const FLOOD_CALLS = 40;
const ARRIVAL_TIMEOUT_MS = 30_000;

/** Waits until the service has seen `calls` calls; what it made of them, and the last one's number. */
async function arrived(service, calls) {
	const until = Date.now() + ARRIVAL_TIMEOUT_MS;
	for (;;) {
		const seen = await ledgerSummary(service);
		if (seen.calls >= calls) return seen;
		assert(Date.now() < until, `flood: ${seen.calls} of ${calls} calls reached the service`);
		await sleep(5);
	}
}

/** One flood, then the node's list on the flood slot; the node's calls only. */
async function floodRun(ctx, [role, latencyMs], keywords) {
	const quota = QUOTAS.perSecond;
	await quotaService(ctx, quota, latencyMs);
	const burst = Array.from({ length: FLOOD_CALLS }, (_, i) => `flood kw ${i}`);
	const url = webhookUrl(ctx, floodWorkflowOf(role));
	const answer = callWebhook(url, { method: 'POST', body: { keywords: burst } });
	const flood = await arrived(ctx.scale, FLOOD_CALLS);
	const refused = flood.outcomes.rate_limited ?? 0;
	ctx.log(`quotas: flood: ${flood.calls} calls in at ${latencyMs} ms, ${refused} refused`);
	const setup = { slot: slot.flood(role), role: 'flood', latencyMs };
	const run = await listRun(ctx, quota, setup, keywords, flood.lastSeq);
	const { status } = await answer;
	assert(status === 200, `flood: its workflow answered ${status}`);
	return { ...run, flood: { calls: flood.calls, refused } };
}

/** `plan.runs` flooded runs of `plan.keywords` keywords at each latency. */
async function floodPhase(ctx, plan) {
	const runs = [];
	for (const latency of latenciesOf(ctx.options))
		for (let i = 1; i <= plan.runs; i++)
			runs.push({ run: i, ...(await floodRun(ctx, latency, plan.keywords)) });
	return { quota: quotaName(QUOTAS.perSecond), burst: FLOOD_CALLS, runs };
}

module.exports = { floodPhase };
