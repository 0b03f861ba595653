'use strict';

// The summary table: one verdict per target, from the derived figures.

const { f0, f1, f2, f3, mib, int } = require('./format');
const { median } = require('../stats');
const { keywordRatio, pick } = require('./analyse');
const { keywordScaleVerdicts } = require('./keylists');
const T = require('./targets');

/** A verdict: 'met', or 'missed…' with what is given. */
const verdict = (met, missed) => (met ? 'met' : missed);

function timeVerdicts(t) {
	const ratio = t.paired.ratio;
	const ci = ratio.ci95 ? ` (95 % CI of the median ${f3(ratio.ci95[0])}–${f3(ratio.ci95[1])})` : '';
	const net = t.paired.aNet.median;
	return [
		{
			target: `(a)/(b) ≤ ${T.TARGET_RATIO.toFixed(1)} on time`,
			result: `median per-round ratio **${f3(ratio.median)}**${ci}; ratio of medians ${f3(t.ratioOfMedians)}`,
			verdict: verdict(
				ratio.median <= T.TARGET_RATIO,
				`missed by ${f3(ratio.median - T.TARGET_RATIO)}`,
			),
		},
		{
			target: `node overhead per page within ${T.TARGET_PER_PAGE_MS} ms of the raw floor`,
			result: `**${f2(net)} ms** per page over (d), after n8n's own floor (c); ${f2(t.paired.aGross.median)} ms per page with (c) included. HTTP Request: ${f2(t.paired.bNet.median)} ms`,
			verdict: verdict(
				net <= T.TARGET_PER_PAGE_MS,
				`missed by ${f2(net - T.TARGET_PER_PAGE_MS)} ms per page (see [why](#why-the-per-page-target-is-missed))`,
			),
		},
	];
}

function scaleVerdict(node, heap) {
	const [first, last] = [node.rows[0], node.rows[node.rows.length - 1]];
	const misses = [
		!last.items.every((n) => n === last.size) && 'items',
		!(node.timeExponent <= T.LINEAR_EXPONENT_MAX) && `time exponent ${f2(node.timeExponent)}`,
		heap && !(heap.exponent <= T.LINEAR_EXPONENT_MAX) && `memory exponent ${f2(heap.exponent)}`,
	].filter(Boolean);
	let heapText = '';
	if (heap) {
		const [h0, h1] = [heap.rows[0], heap.rows[heap.rows.length - 1]];
		heapText = `; memory allocated by the run ${f0(h0.allocatedKb / 1024)} MiB at ${int(h0.size)} → ${f0(h1.allocatedKb / 1024)} MiB at ${int(h1.size)} (exponent ${f2(heap.exponent)}), held at once ${f1(h1.needKb / 1024)} MiB at ${int(h1.size)}`;
	}
	return {
		target: `${int(last.size)} items, linear growth`,
		result: `${int(last.size)} items out (every run) in ${f1(last.ms / 1000)} s; n8n peak RSS ${mib(last.peakKb)} MiB; time ${int(first.size)}→${int(last.size)}: ×${f1(last.ms / first.ms)} (exponent ${f2(node.timeExponent)} after n8n's fixed floor; 1 = linear, 2 = quadratic)${heapText}`,
		verdict: verdict(misses.length === 0, `missed: ${misses.join(', ')}`),
	};
}

function keywordsVerdict(k) {
	const n = k.keywords.length;
	const [kwNode, kwHttp] = ['node', 'http'].map((variant) => median(pick(k.distinct, { variant })));
	const ratio = keywordRatio(k);
	return {
		target: `(a)/(b) with ${n} keywords, one page each (the time target applied to section 4)`,
		result: `${f2(kwNode / n)} ms per keyword against ${f2(kwHttp / n)} ms: median per-round ratio **${f2(ratio)}** (${k.rounds} rounds)`,
		verdict: verdict(
			ratio <= T.TARGET_RATIO,
			`missed by ${f2(ratio - T.TARGET_RATIO)} (see [section 4](#4-several-input-items-${n}-keywords))`,
		),
	};
}

function creditsVerdict(phases) {
	const cases = phases.credits?.cases ?? [];
	const node = (key) => phases.keywords?.[key]?.filter((r) => r.variant === 'node') ?? [];
	const [repeats, distinct] = [node('repeats'), node('distinct')];
	const all = [
		...cases.map((c) => c.credits === c.minCredits && c.calls === c.minCalls),
		...repeats.map((r) => r.credits === r.minCredits),
		...distinct.map((r) => r.credits === phases.keywords.minCreditsDistinct),
	];
	const over = (xs) => xs.reduce((sum, x) => sum + Math.max(0, x.credits - x.minCredits), 0);
	const wasted = over(cases) + over(repeats);
	return {
		target: 'credits spent equal to the minimum in every case',
		result: `${all.filter(Boolean).length} of ${all.length} cases at the minimum (Limit matrix on both platforms, Return All, 50 keywords, repeated keywords); ${wasted} credits wasted`,
		verdict: verdict(all.every(Boolean), `missed: ${wasted} credits over the minimum`),
	};
}

/** Rows of the summary table, in the report's order. */
function verdicts(results, t, s, m) {
	const { phases } = results;
	return [
		...(t ? timeVerdicts(t) : []),
		...(s?.['scale-node'] ? [scaleVerdict(s['scale-node'], m?.['scale-node'])] : []),
		...(phases.keywords ? [keywordsVerdict(phases.keywords)] : []),
		...(phases.keylists ? keywordScaleVerdicts(phases.keylists) : []),
		...(phases.credits || phases.keywords ? [creditsVerdict(phases)] : []),
	];
}

module.exports = { verdicts };
