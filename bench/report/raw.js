'use strict';

// The raw figures: every run of every phase, folded away.

const { f0, f1, f2, f3, columns, blocks } = require('./format');
const { categorise } = require('./analyse');

/** @typedef {Array<[string, (row: any) => unknown]>} Specs */

/** A column that shows a field as it is, or through a format. */
const col = (header, key, format = /** @type {(x: any) => string} */ (String)) =>
	/** @type {[string, (row: any) => unknown]} */ ([header, (r) => format(r[key])]);
const json = (x) => JSON.stringify(x);

const details = (summary, ...body) =>
	blocks(`<details><summary>${summary}</summary>`, body, '</details>');

const FORMATS = { f0, f1, f2, f3, json };
/** Columns written as 'header=key' or 'header=key:format', separated by ', '. */
const cols = (spec) =>
	spec.split(', ').map((c) => {
		const [header, field] = c.split('=');
		const [key, format] = field.split(':');
		return col(header, key, FORMATS[format] ?? String);
	});

/** @type {Record<string, Specs>} */
const SPECS = {
	time: cols(
		'round=round, order=position, variant=variant, wall ms=ms:f1, n8n CPU ms=n8nCpuMs:f0, service CPU ms=serviceCpuMs:f0, client CPU ms=clientCpuMs:f0, calls=calls, sounds=items',
	),
	paired: cols(
		'round=round, (a)/(b)=ratio:f3, (a) net=aNet:f2, (b) net=bNet:f2, (a) gross=aGross:f2, (b) gross=bGross:f2',
	),
	scale: cols(
		'rep=rep, variant=variant, sounds=size, pages=pages, wall ms=ms:f1, n8n CPU ms=n8nCpuMs:f0, RSS before KiB=rssBeforeKb, peak KiB=peakKb, RSS after KiB=rssAfterKb, runner peak KiB=runnerPeakKb',
	),
	credits: cols(
		'platform=platform, page size=pageSize, limit=limit, outcomes=outcomes:json, ms=ms:f0',
	),
	keywords: cols(
		'round=round, variant=variant, ms=ms:f1, sounds=items, calls=calls, credits=credits, outcomes=outcomes:json',
	),
	buckets: [...cols('bucket=bucket, ms=ms:f1'), ['category', (b) => categorise(b.bucket)]],
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
