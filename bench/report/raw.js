'use strict';

// The raw figures: every run of every phase, folded away.

const { f0, f1, f2, f3, columns, blocks } = require('../format');
const { categorise } = require('./analyse');

/** @typedef {Array<[string, (row: any) => unknown]>} Specs */

/** A column that shows a field as it is, or through a format. */
const col = (header, key, format = /** @type {(x: any) => string} */ (String)) =>
	/** @type {[string, (row: any) => unknown]} */ ([header, (r) => format(r[key])]);
const json = (x) => JSON.stringify(x);

const details = (summary, ...body) =>
	blocks(`<details><summary>${summary}</summary>`, body, '</details>');

/** @type {Record<string, Specs>} */
const SPECS = {
	time: [
		col('round', 'round'),
		col('order', 'position'),
		col('variant', 'variant'),
		col('wall ms', 'ms', f1),
		col('n8n CPU ms', 'n8nCpuMs', f0),
		col('service CPU ms', 'serviceCpuMs', f0),
		col('client CPU ms', 'clientCpuMs', f0),
		col('calls', 'calls'),
		col('sounds', 'items'),
	],
	paired: [
		col('round', 'round'),
		col('(a)/(b)', 'ratio', f3),
		col('(a) net', 'aNet', f2),
		col('(b) net', 'bNet', f2),
		col('(a) gross', 'aGross', f2),
		col('(b) gross', 'bGross', f2),
	],
	scale: [
		col('rep', 'rep'),
		col('variant', 'variant'),
		col('sounds', 'size'),
		col('pages', 'pages'),
		col('wall ms', 'ms', f1),
		col('n8n CPU ms', 'n8nCpuMs', f0),
		col('RSS before KiB', 'rssBeforeKb'),
		col('peak KiB', 'peakKb'),
		col('RSS after KiB', 'rssAfterKb'),
		col('runner peak KiB', 'runnerPeakKb'),
	],
	credits: [
		col('platform', 'platform'),
		col('page size', 'pageSize'),
		col('limit', 'limit'),
		col('outcomes', 'outcomes', json),
		col('ms', 'ms', f0),
	],
	keywords: [
		col('round', 'round'),
		col('variant', 'variant'),
		col('ms', 'ms', f1),
		col('sounds', 'items'),
		col('calls', 'calls'),
		col('credits', 'credits'),
		col('outcomes', 'outcomes', json),
	],
	buckets: [
		col('bucket', 'bucket'),
		col('ms', 'ms', f1),
		['category', (b) => categorise(b.bucket)],
	],
};

function rawSection(results, t) {
	const { time, scale, credits, keywords, profile } = results.phases;
	return blocks(
		'## Raw figures',
		time
			? details(
					'Time: every run (ms)',
					columns(SPECS.time, time.runs),
					'Paired per round: ratio (a)/(b), per-page overheads in ms:',
					columns(SPECS.paired, t.perRound),
				)
			: '',
		scale ? details('Scale: every run', columns(SPECS.scale, scale.runs)) : '',
		credits
			? details('Credits: service outcomes per case', columns(SPECS.credits, credits.cases))
			: '',
		keywords
			? details('Several keywords: every run', columns(SPECS.keywords, keywords.distinct))
			: '',
		profile
			? details(
					'Profile: self time by package or native function (ms, all profiled runs)',
					profile.scenarios.map((s) => [
						`${s.label} (${s.times} runs, ${f0(s.wallMs)} ms wall, ${s.samples} samples):`,
						columns(SPECS.buckets, s.buckets.slice(0, 25)),
					]),
				)
			: '',
	);
}

module.exports = { rawSection };
