'use strict';

// Keyword lists at service scale (issues 9 and 30): hundreds to thousands of input items, one
// search each (Limit 10, one page), against a third reference service (cache off) whose capacity
// the node is not told. Every run on a freshly reset service; every node run on its case's own
// slot (contacts.js), so that the first of a case is the node's first contact with the service:
//   1. unlimited service, at 150 ms and at 2 s per answer: the node (default options, its first
//      run recorded as first contact) against HTTP Request untuned (every item's request at
//      once), interleaved rounds;
//   2. at 150 ms, the node with Max Calls in Flight 16 ... 256, on the unlimited and on the capped
//      service, to choose the option's default from measurements;
//   3. at 150 ms, service capped at 4 calls in flight, the big list: the node, HTTP Request
//      untuned and HTTP Request with its Batching option tuned by hand;
//   4. at 2 s, service capped at 20 calls in flight: the node's first contact and a later run.

const { rotate } = require('./common');
const { keylistRun, complete, installedDefault } = require('./keylistRun');
const { slot, latenciesOf } = require('../contacts');
const { KEYLISTS } = require('../workflows');
const { foreignCpuMeter } = require('../system');

const { LIMIT, LATENCY_MS, CAPACITY, SLOW_CAPACITY, BATCH_INTERVALS_MS } = KEYLISTS;
/** How run.js starts the service of this phase (reset() comes back to these settings). */
const SCALE_SERVICE = { cacheSeconds: 0, latencyMs: LATENCY_MS };

/**
 * Part 1, at one latency: one warm-up run of each (HTTP Request first, so that the node's, its
 * first contact, counts too: round 0), then interleaved rounds of node and HTTP Request.
 */
async function compareRuns(ctx, plan, [role, latencyMs]) {
	const setups = {
		node: { slot: slot.compare(role), latencyMs },
		http: { key: 'keylist-http', latencyMs },
	};
	const runs = [];
	const measure = async (round, variant, size) => {
		const part = round ? `round ${round}` : 'first run';
		const run = complete(await keylistRun(ctx, part, setups[variant], size));
		runs.push({ round, variant, ...run });
	};
	for (const variant of ['http', 'node']) await measure(0, variant, plan.sizes[0]);
	for (let round = 1; round <= plan.rounds; round++)
		for (const size of plan.sizes)
			for (const variant of rotate(['node', 'http'], round)) await measure(round, variant, size);
	return runs;
}

/** Part 2: Max Calls in Flight, the big list, on the unlimited then the capped service. */
async function sweepRuns(ctx, plan) {
	const bounds = [
		...plan.sweepUnlimited.map((m) => [m, false]),
		...plan.sweepCapped.map((m) => [m, true]),
	];
	const runs = [];
	for (const [maxInFlight, capped] of bounds) {
		const setup = { slot: slot.sweep(maxInFlight, capped), capacity: capped ? CAPACITY : 0 };
		const run = await keylistRun(ctx, 'sweep', setup, plan.big);
		runs.push({ maxInFlight, ...complete(run) });
	}
	return runs;
}

/** Part 3: capped service, the big list: node (must complete), HTTP Request untuned, batched. */
async function cappedRuns(ctx, plan) {
	const capped = (setup) => keylistRun(ctx, 'capped', { ...setup, capacity: CAPACITY }, plan.big);
	const node = complete(await capped({ slot: slot.capped(CAPACITY) }));
	const http = await capped({ key: 'keylist-http' });
	const batched = [];
	for (const interval of BATCH_INTERVALS_MS) {
		const run = await capped({ key: `keylist-http-batch-${interval}` });
		batched.push({ batchSize: CAPACITY, batchInterval: interval, ...run });
		if (run.status === 200 && run.items === run.expected) break;
	}
	return { node, http, batched };
}

/**
 * Part 4 (issue 30): a real service's latency and a cap on calls in flight the node is not told:
 * its first contact, then a later run (it may start from what it learned). Ideal: the list in
 * waves of the capacity, each one latency long.
 */
async function slowCappedRuns(ctx, plan) {
	const latencyMs = ctx.options.slowLatencyMs;
	const setup = { slot: slot.capped(SLOW_CAPACITY), capacity: SLOW_CAPACITY, latencyMs };
	const runs = [];
	for (const part of ['first contact', 'later run']) {
		const run = await keylistRun(ctx, `capped ${SLOW_CAPACITY}, ${part}`, setup, plan.slowCapped);
		runs.push(complete(run));
	}
	const idealMs = Math.ceil(plan.slowCapped / SLOW_CAPACITY) * latencyMs;
	return { capacity: SLOW_CAPACITY, latencyMs, keywords: plan.slowCapped, idealMs, runs };
}

async function keywordScalePhase(ctx) {
	const plan = ctx.options.keylists;
	const latencies = latenciesOf(ctx.options);
	ctx.log(
		`keylists: ${plan.sizes.join(', ')} keywords x ${plan.rounds} at ${latencies.map(([, ms]) => ms).join(' and ')} ms, Max Calls in Flight, capped services`,
	);
	const meter = foreignCpuMeter();
	const compare = [];
	for (const latency of latencies) compare.push(...(await compareRuns(ctx, plan, latency)));
	const [sweep, capped, slowCapped] = [
		await sweepRuns(ctx, plan),
		await cappedRuns(ctx, plan),
		await slowCappedRuns(ctx, plan),
	];
	const cpu = meter.stop();
	await ctx.scale.reset();
	const setup = { limit: LIMIT, latencyMs: LATENCY_MS, capacity: CAPACITY, big: plan.big };
	const idealMs = (plan.big * LATENCY_MS) / CAPACITY;
	const defaultMaxInFlight = installedDefault(ctx.folder);
	return {
		...setup,
		latencies: latencies.map(([, ms]) => ms),
		batchIntervals: BATCH_INTERVALS_MS,
		idealMs,
		rounds: plan.rounds,
		defaultMaxInFlight,
		compare,
		sweep,
		capped,
		slowCapped,
		cpu,
	};
}

module.exports = { keywordScalePhase, SCALE_SERVICE };
