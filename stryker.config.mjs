// Mutation testing (`npm run test:mutation`): StrykerJS changes the shipped code (nodes/,
// credentials/) one small bug at a time and runs the unit and engine layers against each change;
// a change no test notices is a surviving mutant. Extra arguments go to stryker, e.g.
// `npm run test:mutation -- --mutate nodes/shared/input.ts`.
// The report: reports/mutation/index.html; the per-file table is printed at the end.
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const require = createRequire(import.meta.url);
const { projects } = require('./jest.config.js');

// The unit and engine projects as one jest config: the jest runner needs a single project for
// its per-test coverage, and the two differ only in the folder they match.
const layers = projects.filter((p) => ['unit', 'engine'].includes(p.displayName));
// MUTATION_TESTS='unit/**/*.test.ts,engine/input*.test.ts' runs only those test files (globs under
// test/): quicker while killing the survivors of one file; a mutant such a run misses may still be
// killed by the whole set, so its score is a lower bound.
const only = process.env.MUTATION_TESTS;
// rootDir goes: the runner works in its sandbox copy, whose tests import the mutated code.
const { displayName, testMatch, rootDir, ...shared } = layers[1];

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
	mutate: ['nodes/**/*.ts', 'credentials/**/*.ts'],
	testRunner: 'jest',
	jest: {
		projectType: 'custom',
		// Not jest.config.js: its projects would replace the config below (every layer, real n8n too).
		configFile: 'package.json',
		config: {
			...shared,
			testMatch: only
				? only.split(',').map((glob) => `<rootDir>/test/${glob}`)
				: layers.flatMap((p) => p.testMatch),
		},
		enableFindRelatedTests: false,
	},
	coverageAnalysis: 'perTest',
	// Mutants in code that runs when a module loads (the node descriptions' texts, constants) would
	// each need every test: far too slow here. They are counted as ignored, not as survivors.
	ignoreStatic: true,
	checkers: ['typescript'],
	tsconfigFile: 'tsconfig.json',
	// Two cores: one mutant run per core. Each engine test file starts its own reference service.
	concurrency: 2,
	// Engine tests wait out real backoffs (Retry-After of a few seconds): generous per-test time.
	timeoutMS: 20000,
	timeoutFactor: 2,
	// The first run, with per-test coverage, runs every unit and engine test in one process.
	dryRunTimeoutMinutes: 30,
	incremental: !only,
	incrementalFile: '.cache/stryker-incremental.json',
	// Outside the tree: lint and prettier must not read the sandbox copies. One folder per run, so
	// two runs (two worktrees) never clean up each other's sandboxes.
	tempDirName: path.join(os.tmpdir(), `stryker-sound-search-${process.pid}`),
	ignorePatterns: ['.cache', 'dist', 'artifacts', 'reports', 'bench'],
	reporters: ['clear-text', 'progress', 'html', 'json'],
	thresholds: { high: 90, low: 75, break: null },
};
