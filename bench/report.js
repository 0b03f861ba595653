'use strict';

// BENCHMARKS.md from the results of bench/run.js: a summary with a verdict per target, the
// conditions, machine and versions, commands, method, a section per measurement and the raw
// figures. Re-render without measuring again (from the results run.js keeps):
//   node bench/report.js [.cache/bench/last-results.json] [out]

const fs = require('node:fs');
const path = require('node:path');
const { table, blocks } = require('./report/format');
const A = require('./report/analyse');
const { TARGET_PER_PAGE_MS } = require('./report/targets');
const { intro, conditionsOf, conditions, machineSection } = require('./report/header');
const { verdicts, keywordListCredits } = require('./report/summary');
const { timeSection, whySection } = require('./report/time');
const { scaleSection } = require('./report/scale');
const { creditsSection, keywordsSection } = require('./report/keywords');
const { profileSection } = require('./report/profile');
const { keywordScaleSection } = require('./report/keylists');
const { quotaSection, quotaVerdicts } = require('./report/quotas');
const { floodSection, floodVerdicts } = require('./report/flood');
const { rawSection } = require('./report/raw');

function render(results) {
	const { phases } = results;
	const t = phases.time && A.analyseTime(phases.time);
	const s = phases.scale && A.analyseScale(phases.scale, t?.stats.noop.ms.median);
	const p = phases.profile && A.analyseProfile(phases.profile);
	const m = phases.memory && A.analyseMemory(phases.memory);
	const c = conditionsOf(results);
	const rows = [
		...verdicts(results, t, s, m),
		...(phases.quotas
			? [
					// The installed node's default Max Calls in Flight, which the keylists phase reads.
					...quotaVerdicts(phases.quotas, phases.keylists?.defaultMaxInFlight),
					...floodVerdicts(phases.quotas.flood),
				]
			: []),
		...keywordListCredits(phases),
	];
	const summary = rows.map((x) => [
		x.target,
		x.result,
		x.verdict === 'met' ? '**met**' : `**${x.verdict}**`,
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
		phases.quotas ? [quotaSection(phases.quotas), floodSection(phases.quotas.flood)] : '',
		rawSection(results, t),
	);
	return `${text.replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}

const writeReport = (file, results) => fs.writeFileSync(file, render(results));

if (require.main === module) {
	const [input, out] = [
		process.argv[2] ?? path.join(__dirname, '..', '.cache', 'bench', 'last-results.json'),
		process.argv[3] ?? path.join(__dirname, '..', 'BENCHMARKS.md'),
	].map((file) => path.resolve(file));
	writeReport(out, JSON.parse(fs.readFileSync(input, 'utf8')));
	process.stderr.write(`wrote ${out}\n`);
}

module.exports = { writeReport, render };
