'use strict';

// Keyword lists against the scale service (cache off), one search each (Limit 10, one page),
// every run on a freshly reset service, the node on each case's own slot (workflows.js):
//   1. no limit, at 150 ms and at the slow latency: the node (default options, its first run
//      its first contact) beside HTTP Request untuned (every item's request at once), rounds;
//   2. capped at 4 calls in flight, 150 ms: the node, HTTP Request untuned and HTTP Request with
//      its Batching tuned by hand;
//   3. capped at 20 calls in flight at the slow latency: the node's first contact, a later run.

const { rotate, freshRun, batchedRuns, complete, latenciesOf } = require('./common');
const { KEYLISTS } = require('../workflows');
const { foreignCpuMeter } = require('../system');

const { LIMIT, LATENCY_MS, CAPACITY, SLOW_CAPACITY, BATCH_INTERVALS_MS } = KEYLISTS;

/** Part 1 at one latency: a first run of each (HTTP Request first), then interleaved rounds. */
async function compareRuns(ctx, plan, [role, latencyMs]) {
	const setups = {
		node: { slot: `open-${role}`, latencyMs },
		http: { key: 'keylist-http', latencyMs },
	};
	const runs = [];
	const measure = async (round, variant) =>
		runs.push({ round, variant, ...complete(await freshRun(ctx, setups[variant], plan.size)) });
	for (const variant of ['http', 'node']) await measure(0, variant);
	for (let round = 1; round <= plan.rounds; round++)
		for (const variant of rotate(['node', 'http'], round)) await measure(round, variant);
	return runs;
}

/** Part 2: the node (must complete), HTTP Request untuned, then batched until one completes. */
async function cappedRuns(ctx, size) {
	const capped = (setup) =>
		freshRun(ctx, { ...setup, latencyMs: LATENCY_MS, capacity: CAPACITY }, size);
	const node = complete(await capped({ slot: `capped-${CAPACITY}` }));
	const http = await capped({ key: 'keylist-http' });
	const batched = await batchedRuns(CAPACITY, BATCH_INTERVALS_MS, (key) => capped({ key }));
	return { node, http, batched };
}

/** Part 3. Ideal: the list in waves of the capacity, each one latency long. */
async function slowCappedRuns(ctx, keywords) {
	const latencyMs = ctx.options.slowLatencyMs;
	const setup = { slot: `capped-${SLOW_CAPACITY}`, capacity: SLOW_CAPACITY, latencyMs };
	const runs = [
		complete(await freshRun(ctx, setup, keywords)),
		complete(await freshRun(ctx, setup, keywords)),
	];
	const idealMs = Math.ceil(keywords / SLOW_CAPACITY) * latencyMs;
	return { capacity: SLOW_CAPACITY, latencyMs, keywords, idealMs, runs };
}

async function keywordScalePhase(ctx) {
	const plan = ctx.options.keylists;
	const latencies = latenciesOf(ctx.options);
	ctx.log(`keylists: ${plan.size} keywords x ${plan.rounds} rounds, capped services`);
	const meter = foreignCpuMeter();
	const compare = [];
	for (const latency of latencies) compare.push(...(await compareRuns(ctx, plan, latency)));
	const capped = await cappedRuns(ctx, plan.capped);
	const slowCapped = await slowCappedRuns(ctx, plan.slowCapped);
	const cpu = meter.stop();
	await ctx.scale.reset();
	return {
		limit: LIMIT,
		latencyMs: LATENCY_MS,
		capacity: CAPACITY,
		big: plan.capped,
		latencies: latencies.map(([, ms]) => ms),
		batchIntervals: BATCH_INTERVALS_MS,
		idealMs: (plan.capped * LATENCY_MS) / CAPACITY,
		rounds: plan.rounds,
		compare,
		capped,
		slowCapped,
		cpu,
	};
}

module.exports = { keywordScalePhase };
