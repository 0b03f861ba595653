'use strict';

// `npm run test:mutation`, as docs/testing.md gives it, on a few lines and one test file (the whole
// run takes hours): the tests must kill mutants (a config that never switches one on kills none).
const fs = require('node:fs');
const path = require('node:path');
const { runToEnd } = require('../harness/command');
const { deadlineMs } = require('../harness/deadlines');

jest.setTimeout(deadlineMs(300));

const FILE = 'nodes/SoundSearch/searchInput.ts';

/** The lines of the Start Cursor check (found by name, so that moving code does not stale them). */
function startCursorLines() {
	const lines = fs.readFileSync(path.join(__dirname, '..', '..', FILE), 'utf8').split('\n');
	const first = lines.findIndex((line) => line.startsWith('function readStartCursor(')) + 1;
	const last = lines.findIndex((line, index) => index >= first && line === '}') + 1;
	expect(first).toBeGreaterThan(0);
	return `${first}-${last}`;
}

test('npm run test:mutation -- --mutate <lines> mutates the code and the tests kill mutants', async () => {
	const { code, output } = await runToEnd(
		`npm run test:mutation -- --mutate '${FILE}:${startCursorLines()}'`,
		{ timeoutS: 240, env: { MUTATION_TESTS: 'engine/inputChecks.test.ts' } },
	);

	expect(code).toBe(0);
	// The clear-text report's row: file | score | covered | killed | timeout | survived | ...
	const row = /\bsearchInput\.ts\s*\|\s*[\d.]+\s*\|\s*[\d.]+\s*\|\s*(\d+)\s*\|/.exec(output);
	expect(Number(row?.[1])).toBeGreaterThan(10);
});
