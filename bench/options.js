'use strict';

// The options of bench/run.js (listed in its header, `node bench/run.js --help`), with the sizes
// of a full run and of --smoke.

const path = require('node:path');
const { parseArgs } = require('node:util');
const { REPO_ROOT } = require('../test/harness/packageTarball');

const CACHE = path.join(REPO_ROOT, '.cache', 'bench');
const ALL_PHASES = 'time,scale,credits,keywords,keylists,memory,profile';

/** Sizes by mode: [full, --smoke]. */
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
	profileTimes: [10, 1],
	keylists: [
		{
			sizes: [200, 1000],
			big: 1000,
			rounds: 3,
			sweepUnlimited: [16, 32, 64, 96, 128, 256],
			sweepCapped: [16, 64, 96, 128],
		},
		{ sizes: [20, 40], big: 40, rounds: 1, sweepUnlimited: [16, 96], sweepCapped: [16] },
	],
};

/** @returns {Record<string, any>} */
function readOptions(argv) {
	const string = { type: /** @type {const} */ ('string') };
	const flag = { type: /** @type {const} */ ('boolean'), default: false };
	const { values } = parseArgs({
		args: argv,
		options: {
			smoke: flag,
			help: flag,
			rounds: string,
			warmup: string,
			out: string,
			tarball: string,
			'max-load': { ...string, default: '0.7' },
			'wait-load-seconds': string,
			'busy-retries': string,
			'deadline-minutes': { ...string, default: '40' },
			'max-foreign-cores': { ...string, default: '0.15' },
			phases: { ...string, default: ALL_PHASES },
		},
	});
	const v = /** @type {Record<string, any>} */ (values);
	const int = (x, d) => (x === undefined ? d : Math.max(0, Math.floor(Number(x))));
	const mode = v.smoke ? 1 : 0;
	/** @type {Record<string, any>} */
	const sized = Object.fromEntries(Object.entries(SIZES).map(([k, list]) => [k, list[mode]]));
	return {
		...sized,
		help: v.help,
		smoke: v.smoke,
		rounds: Math.max(1, int(v.rounds, sized.rounds)),
		warmup: int(v.warmup, sized.warmup),
		out: path.resolve(
			v.out ?? (v.smoke ? path.join(CACHE, 'smoke.md') : path.join(REPO_ROOT, 'BENCHMARKS.md')),
		),
		raw: path.join(CACHE, v.smoke ? 'smoke-results.json' : 'last-results.json'),
		maxLoad: Number(v['max-load']),
		waitLoadSeconds: int(v['wait-load-seconds'], v.smoke ? 0 : 600),
		deadlineMs: Number(v.smoke ? 5 : v['deadline-minutes']) * 60_000,
		busyRetries: int(v['busy-retries'], v.smoke ? 0 : 2),
		waitQuietCpu: !v.smoke,
		maxForeignCores: Number(v['max-foreign-cores']),
		tarball: v.tarball ? path.resolve(v.tarball) : undefined,
		phases: new Set(
			String(v.phases)
				.split(',')
				.map((p) => p.trim()),
		),
		argv,
	};
}

module.exports = { readOptions, CACHE };
