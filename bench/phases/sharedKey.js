'use strict';

// Issue 43's cases of a key shared in time: two executions of one workflow at once on one key
// with the 10/s quota, three rounds (the second and third pace to what the first learnt); and a
// run a 402 dooms (5 keywords, one the service answers 402, 40 more, the service capped at 4
// calls in flight): how many paid calls reach the service after the 402.

const { callWebhook } = require('../client');
const { ledgerSummary, resetScale, webhookUrl } = require('./common');
const { QUOTAS, quotaName, quotaService } = require('./quotaRun');
const { slot, nodeWorkflowOf, latenciesOf } = require('../contacts');

const ROUNDS = 3;
const DOOMED_QUERY = 'doomed 402';

/** Both executions' lists at once on the shared slot; the round's time, calls and refusals. */
async function sharedRound(ctx, [role, latencyMs], size, round) {
	const quota = QUOTAS.perSecond;
	await quotaService(ctx, quota, latencyMs);
	const url = webhookUrl(ctx, nodeWorkflowOf(slot.shared(role)));
	const lists = ['a', 'b'].map((name) =>
		Array.from({ length: size }, (_, i) => `shared ${name} ${round} kw ${i}`),
	);
	const started = Date.now();
	const answers = await Promise.all(
		lists.map(async (keywords) => await callWebhook(url, { method: 'POST', body: { keywords } })),
	);
	const ms = Date.now() - started;
	const { calls, credits, outcomes } = await ledgerSummary(ctx.scale);
	const refused = outcomes.rate_limited ?? 0;
	const run = {
		round,
		latencyMs,
		quota: quotaName(quota),
		keywords: 2 * size,
		ms,
		idealMs: (Math.ceil((2 * size) / quota.limit) - 1) * quota.windowMs + latencyMs,
		statuses: answers.map((answer) => answer.status),
		calls,
		refused,
		credits,
	};
	ctx.log(
		`shared key: round ${round} at ${latencyMs} ms: ${answers.map((a) => a.status).join('/')} in ${(ms / 1000).toFixed(1)} s, ${calls} calls, ${refused} x 429, ${credits} credits`,
	);
	return run;
}

/** The doomed run: paid calls the service took after it answered the 402. */
async function doomedRun(ctx, latencyMs) {
	await resetScale(ctx, { latencyMs, capacity: 4 });
	await ctx.scale.injectFaults([
		{ match: { query: DOOMED_QUERY }, times: 'always', response: { status: 402 } },
	]);
	const keywords = Array.from({ length: 46 }, (_, i) =>
		i === 5 ? DOOMED_QUERY : `doomed kw ${i}`,
	);
	const url = webhookUrl(ctx, nodeWorkflowOf(slot.doomed));
	const { status } = await callWebhook(url, { method: 'POST', body: { keywords } });
	const { requests } = await ctx.scale.ledger();
	const at = requests.findIndex((call) => call.status === 402);
	const paidAfter = requests.slice(at + 1).filter((call) => call.status === 200).length;
	ctx.log(
		`doomed run: ${status}, 402 at call ${at + 1} of ${requests.length}, ${paidAfter} paid after it`,
	);
	await ctx.scale.injectFaults([]);
	return { latencyMs, status, calls: requests.length, doomedAt: at + 1, paidAfter };
}

async function sharedKeyPhase(ctx, size) {
	const shared = [];
	for (const latency of latenciesOf(ctx.options))
		for (let round = 1; round <= ROUNDS; round++)
			shared.push(await sharedRound(ctx, latency, size, round));
	const doomed = await doomedRun(ctx, latenciesOf(ctx.options)[0][1]);
	return { shared, doomed };
}

module.exports = { sharedKeyPhase };
