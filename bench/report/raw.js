'use strict';

// The raw figures: every run of every phase, folded away.

const { f0, f1, f2, f3, columns, blocks } = require('./format');
const { categorise } = require('./analyse');

const FORMATS = { f0, f1, f2, f3, json: (x) => JSON.stringify(x) };
/** Columns written as 'header=key' or 'header=key:format', separated by ', '. */
function cols(spec) {
	/** @type {Record<string, (row: any) => string>} */
	const cells = {};
	for (const [header, field] of spec.split(', ').map((c) => c.split('='))) {
		const [key, format] = field.split(':');
		cells[header] = (r) => (FORMATS[format] ?? String)(r[key]);
	}
	return cells;
}
const details = (summary, ...body) =>
	blocks(`<details><summary>${summary}</summary>`, body, '</details>');

const TIME = cols(
	'round=round, order=position, variant=variant, wall ms=ms:f1, n8n CPU ms=n8nCpuMs:f0, service CPU ms=serviceCpuMs:f0, client CPU ms=clientCpuMs:f0, calls=calls, sounds=items',
);
const PAIRED = cols(
	'round=round, (a)/(b)=ratio:f3, (a) net=aNet:f2, (b) net=bNet:f2, (a) gross=aGross:f2, (b) gross=bGross:f2',
);
const SCALE = cols(
	'rep=rep, variant=variant, sounds=size, pages=pages, wall ms=ms:f1, n8n CPU ms=n8nCpuMs:f0, RSS before KiB=rssBeforeKb, peak KiB=peakKb, RSS after KiB=rssAfterKb, runner peak KiB=runnerPeakKb',
);
const CREDITS = cols(
	'platform=platform, page size=pageSize, limit=limit, outcomes=outcomes:json, ms=ms:f0',
);
const KEYWORDS = cols(
	'round=round, variant=variant, ms=ms:f1, sounds=items, calls=calls, credits=credits, outcomes=outcomes:json',
);
const BUCKETS = { ...cols('bucket=bucket, ms=ms:f1'), category: (b) => categorise(b.bucket) };

function rawSection(results, t) {
	const { time, scale, credits, keywords, profile } = results.phases;
	const profiled = (s) => [
		`${s.label} (${s.times} runs, ${f0(s.wallMs)} ms wall, ${s.samples} samples):`,
		columns(BUCKETS, s.buckets.slice(0, 25)),
	];
	return blocks(
		'## Raw figures',
		time
			? details(
					'Time: every run (ms)',
					columns(TIME, time.runs),
					'Paired per round: ratio (a)/(b), per-page overheads in ms:',
					columns(PAIRED, t.perRound),
				)
			: '',
		scale ? details('Scale: every run', columns(SCALE, scale.runs)) : '',
		credits ? details('Credits: service outcomes per case', columns(CREDITS, credits.cases)) : '',
		keywords ? details('Several keywords: every run', columns(KEYWORDS, keywords.distinct)) : '',
		profile
			? details(
					'Profile: self time by package or native function (ms, all profiled runs)',
					profile.scenarios.map(profiled),
				)
			: '',
	);
}

module.exports = { rawSection };
