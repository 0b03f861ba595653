'use strict';

// The summary table: one verdict per target, from the derived figures.

const { f0, f1, f2, f3, mib, int } = require('./format');
const { median } = require('../stats');
const { keywordRatio, pick } = require('./analyse');
const { keywordScaleVerdicts } = require('./keylists');
const T = require('./targets');

/** A summary row: 'met', or the miss as given. */
const row = (target, result, met, missed) => ({ target, result, verdict: met ? 'met' : missed });

function timeVerdicts({ paired, ratioOfMedians }) {
	const { ratio, aNet } = paired;
	const ci = ratio.ci95 ? ` (95 % CI of the median ${f3(ratio.ci95[0])}–${f3(ratio.ci95[1])})` : '';
	const why = '(see [why](#why-the-per-page-target-is-missed))';
	return [
		row(
			`(a)/(b) ≤ ${T.TARGET_RATIO.toFixed(1)} on time`,
			`median per-round ratio **${f3(ratio.median)}**${ci}; ratio of medians ${f3(ratioOfMedians)}`,
			ratio.median <= T.TARGET_RATIO,
			`missed by ${f3(ratio.median - T.TARGET_RATIO)}`,
		),
		row(
			`node overhead per page within ${T.TARGET_PER_PAGE_MS} ms of the raw floor`,
			`**${f2(aNet.median)} ms** per page over (d), after n8n's own floor (c); ${f2(paired.aGross.median)} ms per page with (c) included. HTTP Request: ${f2(paired.bNet.median)} ms`,
			aNet.median <= T.TARGET_PER_PAGE_MS,
			`missed by ${f2(aNet.median - T.TARGET_PER_PAGE_MS)} ms per page ${why}`,
		),
	];
}

function scaleVerdict(node, heap) {
	const [first, last] = [node.rows[0], node.rows[node.rows.length - 1]];
	const linear = (k) => k <= T.LINEAR_EXPONENT_MAX;
	const misses = [
		!last.items.every((n) => n === last.size) && 'items',
		!linear(node.timeExponent) && `time exponent ${f2(node.timeExponent)}`,
		heap && !linear(heap.exponent) && `memory exponent ${f2(heap.exponent)}`,
	].filter(Boolean);
	const [h0, h1] = heap ? [heap.rows[0], heap.rows[heap.rows.length - 1]] : [];
	const heapText = heap
		? `; memory allocated by the run ${f0(h0.allocatedKb / 1024)} MiB at ${int(h0.size)} → ${f0(h1.allocatedKb / 1024)} MiB at ${int(h1.size)} (exponent ${f2(heap.exponent)}), held at once ${f1(h1.needKb / 1024)} MiB at ${int(h1.size)}`
		: '';
	return row(
		`${int(last.size)} items, linear growth`,
		`${int(last.size)} items out (every run) in ${f1(last.ms / 1000)} s; n8n peak RSS ${mib(last.peakKb)} MiB; time ${int(first.size)}→${int(last.size)}: ×${f1(last.ms / first.ms)} (exponent ${f2(node.timeExponent)} after n8n's fixed floor; 1 = linear, 2 = quadratic)${heapText}`,
		misses.length === 0,
		`missed: ${misses.join(', ')}`,
	);
}

function keywordsVerdict(k) {
	const n = k.keywords.length;
	const [kwNode, kwHttp] = ['node', 'http'].map((variant) => median(pick(k.distinct, { variant })));
	const ratio = keywordRatio(k);
	return row(
		`(a)/(b) with ${n} keywords, one page each (the time target applied to section 4)`,
		`${f2(kwNode / n)} ms per keyword against ${f2(kwHttp / n)} ms: median per-round ratio **${f2(ratio)}** (${k.rounds} rounds)`,
		ratio <= T.TARGET_RATIO,
		`missed by ${f2(ratio - T.TARGET_RATIO)} (see [section 4](#4-several-input-items-${n}-keywords))`,
	);
}

/**
 * Each case of the credit matrix and of several keywords (sections 3 and 4): at the minimum, and
 * the credits over it. BENCHMARKS.md's summary adds the keyword-list runs (glance.js).
 */
function creditChecks({ credits, keywords }) {
	const cases = credits?.cases ?? [];
	const node = (key) => keywords?.[key]?.filter((r) => r.variant === 'node') ?? [];
	const [repeats, distinct] = [node('repeats'), node('distinct')];
	const over = (x, min) => Math.max(0, x.credits - min);
	return [
		...cases.map((c) => ({
			atMinimum: c.credits === c.minCredits && c.calls === c.minCalls,
			over: over(c, c.minCredits),
		})),
		...repeats.map((r) => ({ atMinimum: r.credits === r.minCredits, over: over(r, r.minCredits) })),
		...distinct.map((r) => ({
			atMinimum: r.credits === keywords.minCreditsDistinct,
			over: over(r, keywords.minCreditsDistinct),
		})),
	];
}

function creditsVerdict(phases) {
	const checks = creditChecks(phases);
	const all = checks.map((c) => c.atMinimum);
	const wasted = checks.reduce((sum, c) => sum + c.over, 0);
	return row(
		'credits spent equal to the minimum in every case',
		`${all.filter(Boolean).length} of ${all.length} cases at the minimum (Limit matrix on both platforms, Return All, 50 keywords, repeated keywords); ${wasted} credits wasted`,
		all.every(Boolean),
		`missed: ${wasted} credits over the minimum`,
	);
}

/**
 * Issue 30: credits at the minimum in every case, first contact and later runs alike: every node
 * run of sections 6 and 7 is one search per keyword, one credit each (429s are free).
 */
function keywordListCredits({ keylists: k, quotas: q }) {
	const runs = [
		...(k ? [...k.compare.filter((r) => r.variant === 'node'), ...k.sweep, k.capped.node] : []),
		...(k?.slowCapped?.runs ?? []),
		...(q ? [...q.perSecond.node, ...q.perWindow.node, ...(q.flood?.runs ?? [])] : []),
	];
	if (runs.length === 0) return [];
	const off = runs.filter((r) => r.credits !== r.keywords);
	const by = off.reduce((sum, r) => sum + Math.abs(r.credits - r.keywords), 0);
	return [
		row(
			'credits = keywords in every keyword-list run of the node (sections 6 and 7)',
			`${runs.length - off.length} of ${runs.length} node runs at the minimum (every latency, first contact and later runs, quota in headers, flooded quota)`,
			off.length === 0,
			`missed: ${off.length} run(s) off the minimum by ${by} credits in all`,
		),
	];
}

/** Rows of the summary table, in the report's order. */
function verdicts({ phases }, t, s, m) {
	return [
		...(t ? timeVerdicts(t) : []),
		...(s?.['scale-node'] ? [scaleVerdict(s['scale-node'], m?.['scale-node'])] : []),
		...(phases.keywords ? [keywordsVerdict(phases.keywords)] : []),
		...(phases.keylists ? keywordScaleVerdicts(phases.keylists) : []),
		...(phases.credits || phases.keywords ? [creditsVerdict(phases)] : []),
	];
}

module.exports = { verdicts, keywordListCredits, creditChecks };
