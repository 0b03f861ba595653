'use strict';

// Renders the benchmark results (from run.js, also kept in .cache/bench/last-results.json) as
// BENCHMARKS.md: summary with a verdict per target, machine and conditions, versions, commands,
// method, one section per measurement (bench/report/*.js), and the raw figures.
//
// Re-render without measuring again: node bench/report.js [.cache/bench/last-results.json] [out]

const fs = require('node:fs');
const path = require('node:path');
const { table, blocks } = require('./report/format');
const A = require('./report/analyse');
const { TARGET_PER_PAGE_MS } = require('./report/targets');
const { intro, conditionsOf, conditions, machineSection } = require('./report/header');
const { verdicts } = require('./report/summary');
const { timeSection, whySection } = require('./report/time');
const { scaleSection } = require('./report/scale');
const { creditsSection } = require('./report/credits');
const { keywordsSection } = require('./report/keywords');
const { profileSection } = require('./report/profile');
const { keywordScaleSection } = require('./report/keylists');
const { rawSection } = require('./report/raw');

/** @param {any} results */
function render(results) {
	const { phases } = results;
	const t = phases.time ? A.analyseTime(phases.time) : null;
	const s = phases.scale ? A.analyseScale(phases.scale, t?.stats.noop.ms.median) : null;
	const p = phases.profile ? A.analyseProfile(phases.profile) : null;
	const m = phases.memory ? A.analyseMemory(phases.memory) : null;
	const c = conditionsOf(results);
	const summary = verdicts(results, t, s, m).map((x) => [
		x.target,
		x.result,
		x.verdict.startsWith('met') ? '**met**' : `**${x.verdict}**`,
	]);
	const text = blocks(
		intro(results),
		'## Summary',
		table(['Target', 'Result', 'Verdict'], summary),
		conditions(results, c),
		machineSection(results, c),
		t ? timeSection(results, t) : '',
		t && !(t.paired.aNet.median <= TARGET_PER_PAGE_MS) ? whySection(results, t, p) : '',
		s ? scaleSection(results, s, m) : '',
		phases.credits ? creditsSection(results) : '',
		phases.keywords ? keywordsSection(results, p) : '',
		p ? profileSection(results, p) : '',
		phases.keylists ? keywordScaleSection(phases.keylists) : '',
		rawSection(results, t),
	);
	return `${text.replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}

/** @param {string} file @param {any} results */
function writeReport(file, results) {
	fs.writeFileSync(file, render(results));
}

if (require.main === module) {
	const cache = path.join(__dirname, '..', '.cache', 'bench', 'last-results.json');
	const input = path.resolve(process.argv[2] ?? cache);
	const out = path.resolve(process.argv[3] ?? path.join(__dirname, '..', 'BENCHMARKS.md'));
	writeReport(out, JSON.parse(fs.readFileSync(input, 'utf8')));
	process.stderr.write(`wrote ${out}\n`);
}

module.exports = { writeReport, render };
