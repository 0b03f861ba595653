'use strict';

// `npm run test:mutation`, as docs/testing.md gives it, on a few lines and one test file (the whole
// run takes hours): StrykerJS starts from the local install, mutates the shipped code and the
// tests kill mutants. A run where no mutant is ever switched on (a config that runs the tests
// without the mutated code) kills none, so the killed count is what this checks.
const { runToEnd } = require('./run');
const { deadlineMs } = require('../harness/deadlines');

jest.setTimeout(deadlineMs(300));

test('npm run test:mutation -- --mutate <lines> mutates the code and the tests kill mutants', async () => {
	const { code, output } = await runToEnd(
		"npm run test:mutation -- --mutate 'nodes/shared/input.ts:176-193'",
		{ timeoutS: 240, env: { MUTATION_TESTS: 'engine/inputChecks.test.ts' } },
	);

	expect(code).toBe(0);
	// The clear-text report's row: file | score | covered | killed | timeout | survived | ...
	const row = /\binput\.ts\s*\|\s*[\d.]+\s*\|\s*[\d.]+\s*\|\s*(\d+)\s*\|/.exec(output);
	expect(Number(row?.[1])).toBeGreaterThan(10);
});
