'use strict';

// Issue 50's limits that move (phases/moving.js) in the report: a summary row per target, and the
// appendix's section with every run and the load average at its end.

const { f2, int, pct, latency, table } = require('./format');

/** Issue 50's targets. */
const TARGET = {
	raisedNext: 0.6,
	raisedAfter: 0.8,
	stopped: 0.85,
	quickFirst: 0.5,
	quickLater: 0.8,
	quickRefused: 0.05,
	bucketRefused: 0.05,
};
const SECTION = '[§10](BENCHMARKS-appendix.md#10-limits-that-move)';
const NOT_MEASURED = 'not measured';

const ok = (r) => r.status === 200 && r.items === r.expected;
/** Share of the ideal (a quota's, a cap's or a bucket's): 0 when the run failed. */
const shareOf = (r, idealMs = r.idealMs) => (ok(r) ? idealMs / r.ms : 0);
const refusedShare = (r) => (r.calls ? r.refused / r.calls : 0);
const percent = (x) => `${Math.round(100 * x)} %`;
const points = (x) => `${(100 * x).toFixed(1)} points`;
const load = (r) => (r.load ? `load ${r.load[0]}` : '');
const runText = (r, idealMs) =>
	`run ${r.run}: **${pct(shareOf(r, idealMs))}**, ${int(r.refused)} of ${int(r.calls)} refused (${load(r)})`;
const row = (target, result, misses) => ({
	target,
	result,
	verdict: misses.length ? `missed by ${misses.join('; ')}` : 'met',
	where: SECTION,
});
const notMeasured = (target) => ({ target, result: '–', verdict: NOT_MEASURED, where: '' });
/** What falls short of at least `least` (a share), as "N points". */
const below = (value, least) => (value >= least ? [] : [points(least - value)]);
const above = (value, most, what = '') =>
	value <= most ? [] : [`${points(value - most)}${what && ` ${what}`}`];

function raisedRows(c) {
	const targets = [
		['the next run', TARGET.raisedNext],
		['the run after', TARGET.raisedAfter],
	].map(([which, least]) => [
		`A raised plan (10/s ×4 between two runs): ${which} ≥ ${percent(least)} of the new quota`,
		least,
	]);
	if (!c) return targets.map(([t]) => notMeasured(t));
	return targets.map(([target, least], i) => {
		const r = c.runs[i + 1];
		const first = `run 1 at ${c.before}: ${pct(shareOf(c.runs[0]))}`;
		return row(
			target,
			`${runText(r)}; ${first}; ${int(r.keywords)} keywords`,
			below(shareOf(r), least),
		);
	});
}

function stoppedRow(c) {
	const target = `Another client that stops (10/s, it sends 5/s in the first run only): ≥ ${percent(TARGET.stopped)} from the next run`;
	if (!c) return notMeasured(target);
	const later = c.runs.slice(1);
	const low = Math.min(...later.map((r) => shareOf(r)));
	const first = c.runs[0];
	const text = `${later.map((r) => runText(r)).join(', ')}; run 1, shared: ${pct(shareOf(first))}`;
	return row(target, `${text}; ${int(later[0].keywords)} keywords`, below(low, TARGET.stopped));
}

/** The best HTTP Request batched by hand that completed, as text. */
function batchedText(q) {
	const done = q.batched.filter(ok);
	if (done.length === 0) return 'HTTP Request batched by hand: none completed';
	const best = done.reduce((a, b) => (shareOf(b, q.idealMs) > shareOf(a, q.idealMs) ? b : a));
	return `HTTP Request batched by hand (${best.batchSize} per ${best.batchInterval} ms): ${pct(shareOf(best, q.idealMs))}`;
}

function quickRows(list) {
	const name = (q) => `Capped at ${q.capacity} in flight, ${latency(q.latencyMs)} an answer`;
	if (!list) return [notMeasured('Small caps with a quick service (4 at 150 ms, 6 at 400 ms)')];
	return list.flatMap((q) => {
		const [first, ...later] = q.runs;
		const low = Math.min(...later.map((r) => shareOf(r, q.idealMs)));
		const most = Math.max(...later.map(refusedShare));
		const size = `${int(q.keywords)} keywords; ${batchedText(q)}`;
		return [
			row(
				`${name(q)}: ≥ ${percent(TARGET.quickFirst)} of what the cap allows at first contact`,
				`${runText(first, q.idealMs)}; ${size}`,
				below(shareOf(first, q.idealMs), TARGET.quickFirst),
			),
			row(
				`${name(q)}: from the second run ≥ ${percent(TARGET.quickLater)}, ≤ ${percent(TARGET.quickRefused)} of calls refused`,
				`${later.map((r) => runText(r, q.idealMs)).join(', ')}; ${size}`,
				[...below(low, TARGET.quickLater), ...above(most, TARGET.quickRefused, 'refused')],
			),
		];
	});
}

function bucketRow(c) {
	const target = `A bursty quota (a token bucket of 20, 10/s back): later runs refuse ≤ ${percent(TARGET.bucketRefused)} of their calls`;
	if (!c) return notMeasured(target);
	const later = c.runs.slice(1);
	const most = Math.max(...later.map(refusedShare));
	const text = c.runs
		.map(
			(r) =>
				`run ${r.run}: **${pct(refusedShare(r))}** refused (${int(r.refused)} of ${int(r.calls)}), ${pct(shareOf(r))} of the ideal (${load(r)})`,
		)
		.join(', ');
	return row(target, `${text}; ${int(c.keywords)} keywords`, above(most, TARGET.bucketRefused));
}

/** The summary's rows for issue 50's new targets (queue mode: docs/running-at-scale.md). */
function movingRows(m) {
	return [
		...raisedRows(m?.raised),
		stoppedRow(m?.stopped),
		...quickRows(m?.quick),
		bucketRow(m?.bucket),
	];
}

function runRows(label, runs, idealMs) {
	return runs.map(
		(r) =>
			`${label} | ${r.run ?? '–'} | ${r.quota ?? '–'} | ${int(r.keywords)} | ${ok(r) ? 'complete' : `failed (${r.status})`} | ${f2(r.ms / 1000)} | ${f2((idealMs ?? r.idealMs) / 1000)} | **${pct(shareOf(r, idealMs))}** | ${int(r.refused)} of ${int(r.calls)} (${pct(refusedShare(r))}) | ${int(r.credits)} | ${r.load ? r.load.join(', ') : '–'}`,
	);
}

/** The appendix's section 10. */
function movingSection(m) {
	const rows = [
		...(m.raised ? runRows('raised plan (Sound Search)', m.raised.runs) : []),
		...(m.stopped ? runRows('another client stops (Sound Search)', m.stopped.runs) : []),
		...(m.quick ?? []).flatMap((q) => [
			...runRows(
				`capped at ${q.capacity}, ${latency(q.latencyMs)} (Sound Search)`,
				q.runs,
				q.idealMs,
			),
			...runRows(
				`capped at ${q.capacity}, ${latency(q.latencyMs)} (HTTP Request, Batching ${q.capacity} per interval)`,
				q.batched.map((b) => ({ ...b, run: `${b.batchInterval} ms` })),
				q.idealMs,
			),
		]),
		...(m.bucket
			? runRows(
					`token bucket ${m.bucket.size}, ${m.bucket.refillPerSecond}/s (Sound Search)`,
					m.bucket.runs,
				)
			: []),
	];
	const other = m.stopped?.runs[0]?.other;
	return [
		'## 10. Limits that move',
		`Issue 50's cases, ${latency(m.latencyMs)} an answer unless said: three runs of the node in a row on one API key (run 1 its first contact), the service reset before each, a second apart. **Raised plan**: 10/s for run 1, 40/s from run 2 (share of the quota of that run). **Another client stops**: 10/s; during run 1 only, another client sends ${other ? `${other.perSecond} calls a second (${int(other.sent)} sent, ${int(other.refused)} refused; not counted as the node's)` : 'calls'}. **Small caps with a quick service**: ideal ⌈keywords ÷ cap⌉ × latency; HTTP Request's Batching tuned by hand to the cap. **Token bucket**: ideal = (keywords − size) ÷ refill rate + one latency. Load: the 1-, 5- and 15-minute load averages at the end of each run.`,
		table(
			'case | run | quota | keywords | outcome | s | ideal s | share of the ideal | refused calls | credits | load',
			rows,
		),
	];
}

module.exports = { movingRows, movingSection, TARGET };
