'use strict';
// The end of a test run (scripts/test-run.sh): each step with its start, end and the highest
// 1-minute load average sampled while it ran, the load over the run, then one line over every
// layer's jest result: "<passed> passed, <failed> failed[, <skipped> skipped]". Reads the results
// folder: timeline.tsv ("<epoch s>\t<start|end>\t<step>\t<exit status>"), load.tsv (/proc/loadavg
// every 5 s) and the layers' jest --json files.
//   node scripts/test-timeline.js <results folder>
const fs = require('node:fs');
const path = require('node:path');

const folder = process.argv[2];
const lines = (/** @type {string} */ name) => {
	const file = path.join(folder, name);
	return fs.existsSync(file)
		? fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean)
		: [];
};
const load = lines('load.tsv').map((line) => {
	const [at, oneMinute] = line.split(/\s+/).map(Number);
	return { at, oneMinute };
});
/** @type {Map<string, { start: number, end?: number, status?: string }>} */
const steps = new Map();
for (const line of lines('timeline.tsv')) {
	const [at, event, step, status] = line.split('\t');
	if (event === 'start') steps.set(step, { start: Number(at) });
	const known = steps.get(step);
	if (event === 'end' && known) Object.assign(known, { end: Number(at), status });
}
const t0 = Math.min(...[...steps.values()].map((s) => s.start), load[0]?.at ?? Infinity);
const now = Math.floor(Date.now() / 1000);
/** The highest sample from..to, or "-" for a step shorter than the 5 s between samples. */
const peak = (/** @type {number} */ from, /** @type {number} */ to) => {
	const samples = load.filter((l) => l.at >= from && l.at <= to).map((l) => l.oneMinute);
	return samples.length > 0 ? Math.max(...samples).toFixed(1) : '-';
};
const pad = (/** @type {unknown} */ value, /** @type {number} */ width) =>
	String(value).padStart(width);

console.log('== timeline: seconds from the start; peak = highest 1-min load average while it ran');
console.log(
	`${'step'.padEnd(28)} ${pad('start', 6)} ${pad('end', 6)} ${pad('took', 6)} ${pad('peak', 6)}`,
);
for (const [name, { start, end, status }] of steps) {
	const stop = end ?? now;
	const state = end === undefined ? ' (still running)' : status === '0' ? '' : ` (exit ${status})`;
	const row = [start - t0, stop - t0, stop - start].map((x) => pad(x, 6)).join(' ');
	console.log(`${name.padEnd(28)} ${row} ${pad(peak(start, stop), 6)}${state}`);
}
if (load.length > 0) {
	const top = load.reduce((a, b) => (b.oneMinute > a.oneMinute ? b : a));
	const everyHalfMinute = load.filter((_, i) => i % 6 === 0);
	console.log(
		`== load (1-min average, every 30 s): ${everyHalfMinute.map((l) => `${l.at - t0}:${l.oneMinute}`).join(' ')}`,
	);
	console.log(`== peak load ${top.oneMinute} at ${top.at - t0} s; samples in ${folder}/load.tsv`);
}

const totals = { passed: 0, failed: 0, skipped: 0 };
for (const file of fs.readdirSync(folder).filter((name) => name.endsWith('.json'))) {
	const result = JSON.parse(fs.readFileSync(path.join(folder, file), 'utf8'));
	totals.passed += result.numPassedTests;
	totals.failed += result.numFailedTests + result.numRuntimeErrorTestSuites;
	totals.skipped += result.numPendingTests + result.numTodoTests;
}
const skipped = totals.skipped ? `, ${totals.skipped} skipped` : '';
console.log(`${totals.passed} passed, ${totals.failed} failed${skipped}`);
