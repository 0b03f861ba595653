'use strict';

// BENCHMARKS.md from the results of bench/run.js, in two files: BENCHMARKS.md, read at a glance
// (conditions, the method in a few lines, one row per target of issue 43: glance.js), and
// BENCHMARKS-appendix.md beside it, the full report (every target with its verdict, the machine
// and versions, commands, method, a section per measurement and the raw figures). Re-render
// both without measuring again (from the results run.js keeps):
//   node bench/report.js [.cache/bench/last-results.json] [out]
// The appendix goes next to `out`, under the same name whatever `out` is called, so that the
// summary's links hold and a re-render to another name gives the same summary.

const fs = require('node:fs');
const path = require('node:path');
const { table, blocks } = require('./report/format');
const A = require('./report/analyse');
const { TARGET_PER_PAGE_MS } = require('./report/targets');
const {
	intro,
	setting,
	briefMethod,
	conditionsOf,
	conditions,
	machineSection,
} = require('./report/header');
const { verdicts, keywordListCredits, creditChecks } = require('./report/summary');
const { glanceRows, glanceSections, APPENDIX, NOT_MEASURED } = require('./report/glance');
const { timeSection, whySection } = require('./report/time');
const { scaleSection } = require('./report/scale');
const { creditsSection, keywordsSection } = require('./report/keywords');
const { profileSection } = require('./report/profile');
const { keywordScaleSection } = require('./report/keylists');
const { quotaSection, quotaVerdicts } = require('./report/quotas');
const { floodSection, floodVerdicts } = require('./report/flood');
const { rawSection } = require('./report/raw');

const tidy = (text) => `${text.replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
const verdictCell = (v) => (v === NOT_MEASURED ? v : `**${v}**`);

/** BENCHMARKS.md: the conditions, the method in brief, issue 43's targets, the appendix's link. */
function renderSummary(results) {
	const rows = glanceRows(results, creditChecks(results.phases));
	return tidy(
		blocks(
			intro(results),
			conditions(results, conditionsOf(results)),
			'## Method',
			briefMethod(results, APPENDIX),
			'## Summary',
			`The targets of issue 43, one row each. Refused calls are free; shares are of the service's quota or capacity (ideal time ÷ measured time).`,
			table(
				['Target', 'Result', 'Verdict', 'Details'],
				rows.map((r) => [r.target, r.result, verdictCell(r.verdict), r.where]),
			),
			`Every other target (per-page overhead, 10,000 sounds, the service capped at 4, …), the full tables, the machine and the raw figures: [${APPENDIX}](${APPENDIX}).`,
		),
	);
}

/** The appendix: the full report, every target with its verdict. */
function renderAppendix(results, summaryName) {
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
		intro(results, ': the full tables'),
		`The summary, issue 43's targets at a glance: [${summaryName}](${summaryName}). ${setting(results)}`,
		'## All targets',
		"Every target the benchmark judges, with the figures behind it: those of earlier issues (9, 20, 30), kept to compare with, and the measurements issue 43's targets are read from. Where the two differ (issue 43 asks 85 % of a quota at first contact, not 90 %, and accepts a first contact's refused start burst), the summary's verdict is the one that counts.",
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
		glanceSections(phases),
		rawSection(results, t),
	);
	return tidy(text);
}

/** Both files: the summary at `file`, the appendix beside it. */
function writeReport(file, results) {
	fs.writeFileSync(file, renderSummary(results));
	fs.writeFileSync(
		path.join(path.dirname(file), APPENDIX),
		renderAppendix(results, path.basename(file)),
	);
}

if (require.main === module) {
	const [input, out] = [
		process.argv[2] ?? path.join(__dirname, '..', '.cache', 'bench', 'last-results.json'),
		process.argv[3] ?? path.join(__dirname, '..', 'BENCHMARKS.md'),
	].map((file) => path.resolve(file));
	writeReport(out, JSON.parse(fs.readFileSync(input, 'utf8')));
	process.stderr.write(`wrote ${out} and ${path.join(path.dirname(out), APPENDIX)}\n`);
}

module.exports = { writeReport, renderSummary, renderAppendix, APPENDIX };
