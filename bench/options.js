'use strict';

// The options of bench/run.js, and the sizes of a full run and of --smoke.

const path = require('node:path');
const { parseArgs } = require('node:util');
const { REPO_ROOT } = require('../test/harness/packageTarball');

const CACHE = path.join(REPO_ROOT, '.cache', 'bench');
const PHASES = 'time,scale,credits,keywords,keylists,quotas';
/** A full run takes about 45 minutes, --smoke about 3: the deadlines leave room on a busy machine. */
const DEADLINE_MINUTES = { full: 60, smoke: 8 };
const USAGE = `Usage: npm run bench -- [options], or node bench/run.js [options]
  --smoke                 every phase at a tiny size (a few minutes): checks that the benchmark
                          runs; writes .cache/bench/smoke.md, not BENCHMARKS.md; exits non-zero
                          if a phase fails
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

/** Sizes: the full run's, then --smoke's. */
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
	],
	// The node's list sizes per quota: first contact, later run, with headers; flooded runs.
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
	const spec = {
		smoke: flag,
		help: flag,
		...Object.fromEntries(['rounds', 'warmup', 'out', 'tarball'].map((k) => [k, string])),
		'max-load': { ...string, default: '0.7' },
		'wait-load-seconds': string,
		'deadline-minutes': { ...string, default: String(DEADLINE_MINUTES.full) },
		phases: { ...string, default: PHASES },
	};
	const v = /** @type {Record<string, any>} */ (
		parseArgs({ args: argv, options: /** @type {any} */ (spec) }).values
	);
	const sizes = Object.fromEntries(Object.entries(SIZES).map(([k, l]) => [k, l[v.smoke ? 1 : 0]]));
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
		deadlineMs: Number(v.smoke ? DEADLINE_MINUTES.smoke : v['deadline-minutes']) * 60_000,
		tarball: v.tarball ? path.resolve(v.tarball) : undefined,
		phases: new Set(v.phases.split(',').map((p) => p.trim())),
		argv,
	};
}

module.exports = { readOptions, CACHE, USAGE };
