'use strict';

// Issue 50's limits that move: keyword lists (one search each, 150 ms unless said) against the
// scale service, the node's runs in a row on one slot (its first run its first contact), the
// service reset before each run (a later run comes a window after the one before):
//   raised   a 10/s quota raised to 40/s after the first run: the next runs' share of 40/s;
//   stopped  10/s, another client sending 5 calls a second on the key during the first run only;
//   quick    small caps with a quick service (4 in flight at 150 ms, 6 at 400 ms): share of what
//            the cap allows and refusals per run, beside HTTP Request batched by hand to the cap;
//   bucket   a bursty quota, a token bucket (20, 10 a second back): refused calls per run.
// `--cases` selects among them (options.js).

const { setTimeout: sleep } = require('node:timers/promises');

const { otherClient } = require('../client');
const { foreignCpuMeter } = require('../system');
const { QUICK_CAPS, keyOf } = require('../workflows');
const C = require('./common');

const LATENCY_MS = 150;
const QUOTA = { limit: 10, windowMs: 1000 };
const RAISED = { ...QUOTA, limit: 4 * QUOTA.limit };
const OTHER = { perSecond: 5, prefix: 'other client kw' };
const BUCKET = { size: 20, refillPerSecond: 10 };
const RUNS = 3;

/** A later run comes one window after the one before, or as `--later-after` says. */
const laterAfterMs = (ctx) => ctx.options.laterAfterMs ?? QUOTA.windowMs;

/** `RUNS` runs of the node on `slot`, each set up (and sized) by `setupOf(run)`. */
async function runsInRow(ctx, slot, setupOf, sizeOf) {
	const runs = [];
	for (let run = 1; run <= RUNS; run++) {
		if (run > 1) await sleep(laterAfterMs(ctx));
		const setup = { slot, role: run === 1 ? 'first' : 'later', latencyMs: LATENCY_MS };
		runs.push({ run, ...(await C.freshRun(ctx, { ...setup, ...setupOf(run) }, sizeOf(run))) });
	}
	return runs;
}

async function raised(ctx, size) {
	const quotaOf = (run) => ({ quota: run === 1 ? QUOTA : RAISED });
	const runs = await runsInRow(ctx, 'raised', quotaOf, (run) =>
		run === 1 ? size.first : size.later,
	);
	return { before: C.quotaName(QUOTA), after: C.quotaName(RAISED), runs };
}

/** The first run with another client on the key (its calls not counted), then alone. */
async function stopped(ctx, size) {
	const runs = [];
	const setup = { slot: 'stopped', latencyMs: LATENCY_MS, quota: QUOTA };
	await C.resetScale(ctx, setup);
	const other = otherClient({ serviceUrl: ctx.scale.url, apiKey: keyOf('stopped'), ...OTHER });
	const first = await C.listRun(ctx, { ...setup, role: 'first', other: OTHER.prefix }, size.first);
	const { sent } = await other.stop();
	const { outcomes } = await C.ledgerSummary(ctx.scale);
	const otherRefused = (outcomes.rate_limited ?? 0) - first.refused;
	runs.push({ run: 1, ...first, other: { ...OTHER, sent, refused: otherRefused } });
	for (let run = 2; run <= RUNS; run++) {
		await sleep(laterAfterMs(ctx));
		runs.push({ run, ...(await C.freshRun(ctx, { ...setup, role: 'later' }, size.later)) });
	}
	return { quota: C.quotaName(QUOTA), other: OTHER, runs };
}

/** Each small cap: the node's runs, then HTTP Request batched by hand to the cap. */
async function quick(ctx, sizes) {
	const out = [];
	for (const { capacity, latencyMs, batchIntervalsMs } of QUICK_CAPS) {
		const keywords = sizes[capacity];
		const idealMs = Math.ceil(keywords / capacity) * latencyMs;
		const setup = { capacity, latencyMs };
		const runs = await runsInRow(
			ctx,
			`quick-${capacity}`,
			() => setup,
			() => keywords,
		);
		const run = (key) => C.freshRun(ctx, { key, ...setup }, keywords);
		const batched = await C.batchedRuns(capacity, batchIntervalsMs, run);
		out.push({ capacity, latencyMs, keywords, idealMs, runs, batched });
	}
	return out;
}

/** Ideal: the bucket's size at once, then the refill rate, plus one latency. */
async function bucket(ctx, keywords) {
	const idealMs =
		(Math.max(0, keywords - BUCKET.size) / BUCKET.refillPerSecond) * 1000 + LATENCY_MS;
	const runs = await runsInRow(
		ctx,
		'bucket',
		() => ({ bucket: BUCKET }),
		() => keywords,
	);
	return { ...BUCKET, keywords, idealMs, runs: runs.map((r) => ({ ...r, idealMs })) };
}

const CASES = { raised, stopped, quick, bucket };

async function movingPhase(ctx) {
	const { moving: plan, cases } = ctx.options;
	const chosen = Object.keys(CASES).filter((name) => cases.has(name));
	ctx.log(`moving: issue 50's limits that move: ${chosen.join(', ')}`);
	const cpu = foreignCpuMeter();
	const out = {};
	for (const name of chosen) out[name] = await CASES[name](ctx, plan[name]);
	await ctx.scale.reset();
	return { latencyMs: LATENCY_MS, ...out, cpu: cpu.stop() };
}

module.exports = { movingPhase, MOVING_CASES: Object.keys(CASES) };
