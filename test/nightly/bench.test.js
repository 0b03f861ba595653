'use strict';

// `npm run bench`, as the README gives it, in its smoke form: every phase at a tiny size against
// a real n8n and HTTP Request side by side, the report written to .cache/bench/smoke.md and its
// appendix beside it (never BENCHMARKS.md). Figures at these sizes mean nothing; that the phases
// run and credits hold does.
const fs = require('node:fs');
const path = require('node:path');
const { runToEnd, REPO_ROOT } = require('../harness/command');
const { deadlineMs } = require('../harness/deadlines');

jest.setTimeout(deadlineMs(660));

test('npm run bench runs every phase and writes a report in which credits meet the minimum', async () => {
	const report = path.join(REPO_ROOT, '.cache', 'bench', 'smoke.md');
	fs.rmSync(report, { force: true });
	const { code, output } = await runToEnd('npm run --silent bench -- --smoke', {
		timeoutS: 600,
	});

	expect(output).toContain('wrote .cache/bench/smoke.md');
	expect(code).toBe(0);
	const text = fs.readFileSync(report, 'utf8');
	expect(text).toMatch(/\| credits spent equal to the minimum in every case \| (\d+) of \1 cases /);
	// The node beside HTTP Request in the same run, at both latencies.
	expect(
		text.match(/\| No limit, 200 keywords, .* an answer: .* \| \*\*[\d.]+×\*\* /g),
	).toHaveLength(2);
	// The full report beside it (bench/report.js: BENCHMARKS-appendix.md next to the summary).
	const appendix = path.join(path.dirname(report), 'BENCHMARKS-appendix.md');
	const full = fs.readFileSync(appendix, 'utf8');
	expect(full).toContain(
		'| credits = 40 (one per keyword, 429s free) | **40** credits | **met** |',
	);

	// CONTRIBUTING.md's re-render from the kept results, without measuring: the same report. Under
	// the same file name in another folder, as the appendix names the summary's file.
	const again = '.cache/bench/again/smoke.md';
	fs.mkdirSync(path.dirname(path.join(REPO_ROOT, again)), { recursive: true });
	const rendered = await runToEnd(`node bench/report.js .cache/bench/smoke-results.json ${again}`, {
		timeoutS: 60,
	});
	expect(rendered.code).toBe(0);
	expect(fs.readFileSync(path.join(REPO_ROOT, again), 'utf8')).toBe(text);
	const appendixAgain = path.join(REPO_ROOT, path.dirname(again), 'BENCHMARKS-appendix.md');
	expect(fs.readFileSync(appendixAgain, 'utf8')).toBe(full);
});
