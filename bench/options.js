'use strict';

// The options of bench/run.js, and the sizes of a full run and of --smoke.

const path = require('node:path');
const { parseArgs } = require('node:util');
const { REPO_ROOT } = require('../test/harness/packageTarball');

const CACHE = path.join(REPO_ROOT, '.cache', 'bench');
/**
 * The deadline of a full run. Its time budget, estimated from the last full run (16 min) and the
 * node's pace in --smoke, in minutes: n8n start and 48 workflows 1.5; time, scale, credits,
 * keywords, memory, profile 1.5; keylists 10 (compare at 150 ms 0.5, at 2 s 3.5 (the node's
 * 200 and 1,000 keywords, 3 rounds), sweep 3.5, capped at 4 1.5, capped at 20 at 2 s 1);
 * quotas 28 (10/s: 3 at each latency, HTTP Request 0.5; 60/min: 6 at each latency, HTTP
 * Request 3 to 6 as its batching needs one or two tries; flood 7.5; two executions on one key 4.5,
 * a doomed run 0.2). About 46 min in all (2,434 s on 2 Dec before the shared key), 52 if the
 * node paces a quota a window or two late at 2 s: 60 leaves room without hiding a hang.
 */
const DEADLINE_MINUTES = 60;
/**
 * --smoke: the keyword phases alone take about 1.5 min (their many node runs at 500 ms, 2 s
 * windows), the rest about 1.5 with n8n's start: 8 leaves room on a busy machine.
 */
const SMOKE_DEADLINE_MINUTES = 8;
const USAGE = `Usage: npm run bench -- [options], or node bench/run.js [options]
  --smoke                 every phase at a tiny size (a few minutes): checks that the benchmark
                          runs; writes .cache/bench/smoke.md, not BENCHMARKS.md; exits non-zero
                          if a phase fails
  --rounds N              timing rounds (default 40)
  --warmup N              warm-up rounds (default 5)
  --out FILE              report path (default BENCHMARKS.md at the repo root)
  --max-load X            wait for a 1-minute load average below X before starting (0.7)
  --wait-load-seconds S   how long to wait for that at most (default 600; --smoke 0)
  --deadline-minutes M    hard bound on the whole run (default ${DEADLINE_MINUTES})
  --phases LIST           run only these of time,scale,credits,keywords,keylists,quotas,memory,
                          profile
  --tarball FILE          benchmark this package tarball instead of packing the working tree
  --help                  this list
`;

/** Sizes: [full run, --smoke]. */
const SIZES = {
	rounds: [40, 1],
	warmup: [5, 0],
	pages: [100, 5],
	scaleSizes: [
		[1000, 2000, 5000, 10000],
		[100, 200],
	],
	scaleReps: [3, 1],
	memoryReps: [2, 1],
	keywordRounds: [8, 1],
	// contacts.js: the keyword phases' slow latency (issue 30: a real sound search takes seconds);
	// --smoke shorter, so that its many node runs at that latency stay within its deadline.
	slowLatencyMs: [2000, 500],
	profileTimes: [10, 1],
	keylists: [
		{
			sizes: [200, 1000],
			big: 1000,
			rounds: 3,
			sweepUnlimited: [16, 32, 64, 96, 128, 256],
			sweepCapped: [16, 64, 96, 128],
			slowCapped: 200,
		},
		{
			sizes: [20, 40],
			big: 40,
			rounds: 1,
			sweepUnlimited: [16, 96],
			sweepCapped: [16],
			slowCapped: 40,
		},
	],
	// phases/quotas.js: the node's list sizes at 10/s and at the per-minute quota (--smoke: 20/2s),
	// first contact, later run and with headers; phases/flood.js: flooded runs at 10/s. The later
	// run and the one with headers at the per-minute quota are 2 windows (60 s), not 4: time.
	quotas: [
		{
			perSecond: { first: 200, later: 1000, headers: 200 },
			perWindow: { first: 200, later: 120, headers: 120 },
			flood: { runs: 10, keywords: 200 },
		},
		{
			perSecond: { first: 20, later: 40, headers: 20 },
			perWindow: { first: 40, later: 20, headers: 20 },
			flood: { runs: 2, keywords: 20 },
		},
	],
};

/** @returns {Record<string, any>} */
function readOptions(argv) {
	const [string, flag] = [{ type: 'string' }, { type: 'boolean', default: false }];
	const options = {
		smoke: flag,
		help: flag,
		rounds: string,
		warmup: string,
		out: string,
		tarball: string,
		'max-load': { ...string, default: '0.7' },
		'wait-load-seconds': string,
		'deadline-minutes': { ...string, default: String(DEADLINE_MINUTES) },
		phases: { ...string, default: 'time,scale,credits,keywords,keylists,quotas,memory,profile' },
	};
	const v = /** @type {Record<string, any>} */ (
		parseArgs({ args: argv, options: /** @type {any} */ (options) }).values
	);
	const sizes = Object.fromEntries(
		Object.entries(SIZES).map(([k, list]) => [k, list[v.smoke ? 1 : 0]]),
	);
	const int = (x, d) => (x === undefined ? d : Math.max(0, Math.floor(Number(x))));
	const out =
		v.out ?? (v.smoke ? path.join(CACHE, 'smoke.md') : path.join(REPO_ROOT, 'BENCHMARKS.md'));
	return {
		...sizes,
		help: v.help,
		smoke: v.smoke,
		rounds: Math.max(1, int(v.rounds, sizes.rounds)),
		warmup: int(v.warmup, sizes.warmup),
		out: path.resolve(out),
		raw: path.join(CACHE, v.smoke ? 'smoke-results.json' : 'last-results.json'),
		maxLoad: Number(v['max-load']),
		waitLoadSeconds: int(v['wait-load-seconds'], v.smoke ? 0 : 600),
		deadlineMs: Number(v.smoke ? SMOKE_DEADLINE_MINUTES : v['deadline-minutes']) * 60_000,
		tarball: v.tarball ? path.resolve(v.tarball) : undefined,
		phases: new Set(v.phases.split(',').map((p) => p.trim())),
		argv,
	};
}

module.exports = { readOptions, CACHE, USAGE };
