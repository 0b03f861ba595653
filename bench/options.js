'use strict';

// The options of bench/run.js, and the sizes of a full run, of --smoke and of --reduced.

const path = require('node:path');
const { parseArgs } = require('node:util');
const { REPO_ROOT } = require('../test/harness/packageTarball');
const { MOVING_CASES } = require('./phases/moving');

const CACHE = path.join(REPO_ROOT, '.cache', 'bench');
const PHASES = 'time,scale,credits,keywords,keylists,quotas,moving';
/**
 * A full run takes about an hour, --smoke about 4 minutes, the moving phase alone about 10: the
 * deadlines leave room on a busy machine.
 */
const DEADLINE_MINUTES = { full: 75, smoke: 10 };
const USAGE = `Usage: npm run bench -- [options], or node bench/run.js [options]
  --smoke                 every phase at a tiny size (a few minutes): checks that the benchmark
                          runs; writes .cache/bench/smoke.md, not BENCHMARKS.md; exits non-zero
                          if a phase fails
  --reduced               keylists and quotas at reduced sizes (one round; 60/min at 150 ms
                          only, without headers; 3 flooded runs a latency), for a run of the
                          quota cases in about 20 minutes; the report says so
  --cases LIST            the moving phase's cases, of ${MOVING_CASES.join(',')} (default all)
  --later-after S         the moving phase's later runs start S seconds after the run before
                          (default: one window of its 10/s quota, 1 s; a schedule's runs: more)
  --raw FILE              where to keep the results (default .cache/bench/last-results.json;
                          smoke-results.json with --smoke)
  --rounds N              timing rounds (default 40)
  --warmup N              warm-up rounds (default 5)
  --out FILE              report path (default BENCHMARKS.md at the repo root)
  --max-load X            wait for a 1-minute load average below X before starting (0.7)
  --wait-load-seconds S   how long to wait for that at most (default 600; --smoke 0)
  --deadline-minutes M    hard bound on the whole run (default ${DEADLINE_MINUTES.full})
  --phases LIST           run only these of ${PHASES}
  --tarball FILE          benchmark this package tarball instead of packing the working tree
  --help                  this list
`;

/** Sizes: the full run's, then --smoke's, then --reduced's (the full run's when none). */
const SIZES = {
	rounds: [40, 1],
	warmup: [5, 0],
	pages: [100, 5],
	scaleSizes: [
		[1000, 2000, 5000, 10000],
		[100, 200],
	],
	scaleReps: [3, 1],
	// The keyword phases' slow latency (a real sound search takes seconds); --smoke shorter.
	slowLatencyMs: [2000, 500],
	keylists: [
		{ size: 200, rounds: 3, capped: 1000, slowCapped: 200 },
		{ size: 20, rounds: 1, capped: 40, slowCapped: 40 },
		{ size: 200, rounds: 1, capped: 200, slowCapped: 200 },
	],
	// The node's list sizes per quota: first contact, later run, with headers (0: not run), the
	// latencies (roles of phases/common.js) of the per-window quota; flooded runs.
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
		{
			perSecond: { first: 200, later: 200, headers: 200 },
			perWindow: { first: 120, later: 120, headers: 0, roles: ['base'] },
			flood: { runs: 3, keywords: 200 },
		},
	],
	// Issue 50's limits that move (phases/moving.js): list sizes of each case.
	moving: [
		{
			raised: { first: 100, later: 400 },
			stopped: { first: 100, later: 200 },
			quick: { 4: 200, 6: 120 },
			bucket: 200,
		},
		{
			raised: { first: 20, later: 40 },
			stopped: { first: 10, later: 20 },
			quick: { 4: 20, 6: 12 },
			bucket: 30,
		},
	],
};

/** @returns {Record<string, any>} */
function readOptions(argv) {
	const [string, flag] = [{ type: 'string' }, { type: 'boolean', default: false }];
	const spec = {
		smoke: flag,
		reduced: flag,
		help: flag,
		...Object.fromEntries(
			['rounds', 'warmup', 'out', 'raw', 'tarball', 'later-after'].map((k) => [k, string]),
		),
		cases: { ...string, default: MOVING_CASES.join(',') },
		'max-load': { ...string, default: '0.7' },
		'wait-load-seconds': string,
		'deadline-minutes': { ...string, default: String(DEADLINE_MINUTES.full) },
		phases: { ...string, default: PHASES },
	};
	const v = /** @type {Record<string, any>} */ (
		parseArgs({ args: argv, options: /** @type {any} */ (spec) }).values
	);
	const size = (l) => (v.smoke ? l[1] : (v.reduced && l[2]) || l[0]);
	const sizes = Object.fromEntries(Object.entries(SIZES).map(([k, l]) => [k, size(l)]));
	const list = (text) => new Set(text.split(',').map((p) => p.trim()));
	const int = (x, d) => (x === undefined ? d : Math.max(0, Math.floor(Number(x))));
	const out =
		v.out ?? (v.smoke ? path.join(CACHE, 'smoke.md') : path.join(REPO_ROOT, 'BENCHMARKS.md'));
	return {
		...sizes,
		help: v.help,
		smoke: v.smoke,
		reduced: v.reduced && !v.smoke,
		rounds: Math.max(1, int(v.rounds, sizes.rounds)),
		warmup: int(v.warmup, sizes.warmup),
		out: path.resolve(out),
		raw: path.resolve(
			v.raw ?? path.join(CACHE, v.smoke ? 'smoke-results.json' : 'last-results.json'),
		),
		maxLoad: Number(v['max-load']),
		waitLoadSeconds: int(v['wait-load-seconds'], v.smoke ? 0 : 600),
		laterAfterMs: v['later-after'] === undefined ? undefined : int(v['later-after'], 1) * 1000,
		deadlineMs: Number(v.smoke ? DEADLINE_MINUTES.smoke : v['deadline-minutes']) * 60_000,
		tarball: v.tarball ? path.resolve(v.tarball) : undefined,
		phases: list(v.phases),
		cases: list(v.cases),
		argv,
	};
}

module.exports = { readOptions, CACHE, USAGE };
