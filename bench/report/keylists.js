'use strict';

// Section 6, keyword lists at service scale, and its verdict rows in the summary table. The
// unlimited service's comparison: keylistCompare.js.

const { f1, f2, int, pct, latency, table } = require('./format');
const { compareVerdicts, compareTable } = require('./keylistCompare');
const { CONTACT } = require('../contacts');

const TARGET = { throughput: 0.8, rateLimitedShare: 0.1, slowThroughput: 0.9 };
const ANCHOR = '#6-keyword-lists-at-service-scale';
const missed = (by, why) => `missed by ${by}: ${why} (see [section 6](${ANCHOR}))`;
const throughput = (k, run) => (run.status === 200 ? k.idealMs / run.ms : 0);
const share = (run) => run.rateLimited / run.calls;
const secs = (ms) => f1(ms / 1000);
const header = (text) => text.split(' | ');

/** The sweep's run at this bound on the unlimited (capped false) or the capped service. */
const sweepAt = (k, capped, m) => k.sweep.find((r) => r.capped === capped && r.maxInFlight === m);
const fastestOf = (runs) => runs.reduce((a, b) => (b.ms < a.ms ? b : a));

function keywordScaleVerdicts(k) {
	const node = k.capped.node;
	const [tp, rl] = [throughput(k, node), share(node)];
	// Each of the slots was held this long per search: the latency plus n8n's request path.
	const slotMs = (node.ms * k.capacity) / k.big;
	const same = sweepAt(k, true, k.defaultMaxInFlight);
	const slowWhy = [
		`each slot was held ${f1(slotMs)} ms per search, ${k.latencyMs} ms of it service`,
		`other processes used ${f2(node.foreignCores)} cores`,
		same ? `the sweep's run at the same bound reached ${pct(throughput(k, same))}` : '',
	]
		.filter(Boolean)
		.join('; ');
	const firstContact = Math.max(0, (k.defaultMaxInFlight ?? 0) - k.capacity);
	const rlWhy = `about ${firstContact} at first contact (the default bound minus the capacity)`;
	return [
		...compareVerdicts(k),
		{
			target: `${int(k.big)} keywords, service capped at ${k.capacity} in flight, ${latency(k.latencyMs)} per answer, first contact: all out, throughput ≥ ${pct(TARGET.throughput)}`,
			result: `${int(node.items)} sounds out in ${secs(node.ms)} s, ideal ${secs(k.idealMs)} s: **${pct(tp)}**`,
			verdict: tp >= TARGET.throughput ? 'met' : missed(pct(TARGET.throughput - tp), slowWhy),
		},
		{
			target: `429 answers ≤ ${pct(TARGET.rateLimitedShare)} of calls (same run)`,
			result: `${int(node.rateLimited)} of ${int(node.calls)} calls: **${pct(rl)}**`,
			verdict:
				rl <= TARGET.rateLimitedShare ? 'met' : missed(pct(rl - TARGET.rateLimitedShare), rlWhy),
		},
		{
			target: `credits = ${int(k.big)} (one per keyword, 429s free)`,
			result: `**${int(node.credits)}** credits`,
			verdict: node.credits === k.big ? 'met' : `missed by ${int(node.credits - k.big)} credits`,
		},
		...(k.slowCapped ? [slowCappedVerdict(k.slowCapped)] : []),
	];
}

/** Share of the capacity: ideal (waves of the capacity, one latency each) over the run's time. */
const ofCapacity = (s, run) => (run.status === 200 ? s.idealMs / run.ms : 0);

/** Issue 30: a service capped at 20 in flight at 2 s, met for the first time. */
function slowCappedVerdict(s) {
	const [first, later] = s.runs;
	const tp = ofCapacity(s, first);
	const why = [
		`${int(first.rateLimited)} calls refused at first contact`,
		`the service saw at most ${first.mostInFlight} calls in flight`,
		later ? `the later run reached ${pct(ofCapacity(s, later))}` : '',
		`other processes used ${f2(first.foreignCores)} cores`,
	];
	const laterText = later
		? `; later run ${pct(ofCapacity(s, later))}, ${int(later.rateLimited)} refused`
		: '';
	return {
		target: `${int(s.keywords)} keywords, service capped at ${s.capacity} in flight, ${latency(s.latencyMs)} per answer, first contact: ≥ ${pct(TARGET.slowThroughput)} of its capacity`,
		result: `${secs(first.ms)} s, ideal ${secs(s.idealMs)} s: **${pct(tp)}**, ${int(first.rateLimited)} of ${int(first.calls)} calls refused${laterText}`,
		verdict:
			tp >= TARGET.slowThroughput
				? 'met'
				: missed(pct(TARGET.slowThroughput - tp), why.filter(Boolean).join('; ')),
	};
}

function slowCappedTable(s) {
	const rows = s.runs.map((r) => [
		CONTACT[r.contact],
		secs(r.ms),
		secs(s.idealMs),
		`**${pct(ofCapacity(s, r))}**`,
		int(r.calls),
		`${int(r.rateLimited)} (${pct(share(r))})`,
		int(r.mostInFlight),
		int(r.credits),
	]);
	const cols =
		'Sound Search, default options | s | ideal s | share of capacity | calls | 429s (share) | most in flight (service) | credits';
	return table(header(cols), rows);
}

/**
 * The default the sweep supports: among the bounds whose first contact with the capped service
 * kept 429s within the target, the smallest as fast (within 10 %: one run each, on a shared
 * machine) as the fastest of them on the unlimited service.
 */
function sweepAdvice(k) {
	const capped = k.sweep.filter((r) => r.capped);
	const msOf = (m) => sweepAt(k, false, m).ms;
	const cheap = capped.filter((c) => share(c) <= TARGET.rateLimitedShare).map((c) => c.maxInFlight);
	const fastest = Math.min(...cheap.map(msOf));
	const pick = Math.min(...cheap.filter((m) => msOf(m) <= fastest * 1.1));
	const top = fastestOf(k.sweep.filter((r) => !r.capped));
	const costly = capped.filter((c) => share(c) > TARGET.rateLimitedShare);
	const list = (runs, f) => runs.map((r) => `${r.maxInFlight}: ${f(r)}`).join(', ');
	const shipped =
		pick === k.defaultMaxInFlight
			? ', the shipped default'
			: `; the shipped default is ${k.defaultMaxInFlight}`;
	return [
		`On the unlimited service a low bound sets the pace (${int(k.big)} × ${k.latencyMs} ms / bound); past it n8n's own per-item work does: at ${top.maxInFlight} the service never saw more than ${top.mostInFlight} calls at once.`,
		`Against the capped service every bound completes, but first contact costs about (bound − ${k.capacity}) refused calls before the node knows the capacity (429s ${list(capped, (r) => r.rateLimited)}), with throughput ${list(capped, (r) => pct(throughput(k, r)))}; on a shorter list the same 429s are a larger share.`,
		`The trade-off: a higher bound is faster on an unlimited service (fastest: ${top.maxInFlight}, ${f2(top.ms / 1000)} s) but costs more free 429s at first contact with a capped one${costly.length ? ` (over the ${pct(TARGET.rateLimitedShare)} target: ${list(costly, (r) => pct(share(r)))})` : ''}.`,
		Number.isFinite(pick)
			? `Of the bounds within the 429 target, the smallest within 10 % of the fastest on the unlimited service is **${pick}**: the sweep supports a default of ${pick}${shipped} (one run per value: a hint, not a proof).`
			: 'No bound kept 429s within the target against the capped service: the sweep supports none.',
	].join(' ');
}

function sweepSection(k) {
	const values = [...new Set(k.sweep.map((r) => r.maxInFlight))].sort((a, b) => a - b);
	const rows = values.map((m) => {
		const [u, c] = [sweepAt(k, false, m), sweepAt(k, true, m)];
		const bound = m === k.defaultMaxInFlight ? `**${m}** (default)` : String(m);
		const rl = c && `${int(c.rateLimited)} (${pct(share(c))})`;
		const capped = c ? [secs(c.ms), pct(throughput(k, c)), rl, int(c.calls)] : ['–', '–', '–', '–'];
		return [bound, u ? f2(u.ms / 1000) : '–', u ? int(u.mostInFlight) : '–', ...capped];
	});
	const cols =
		'Max Calls in Flight | unlimited: s | unlimited: most in flight (service) | capped: s | capped: throughput | capped: 429s (share) | capped: calls';
	return `${table(header(cols), rows)}\n\n${sweepAdvice(k)}`;
}

function cappedTable(k) {
	const { node, http, batched } = k.capped;
	const row = (label, r) => {
		const [rl, tp] = [`${int(r.rateLimited)} (${pct(share(r))})`, pct(throughput(k, r))];
		const items = `${int(r.items)} of ${int(r.expected)}`;
		return [label, String(r.status), secs(r.ms), items, int(r.calls), rl, int(r.credits), tp];
	};
	const cols =
		'Variant | webhook status | s | sounds out | calls | 429s (share) | credits | throughput';
	return table(header(cols), [
		row(`Sound Search, default options (Max Calls in Flight ${k.defaultMaxInFlight})`, node),
		row('HTTP Request, untuned', http),
		...batched.map((b) =>
			row(`HTTP Request, Batching ${b.batchSize} per ${b.batchInterval} ms`, b),
		),
	]);
}

const slowCappedSection = (s) => [
	`**Service capped at ${s.capacity} calls in flight, ${latency(s.latencyMs)} per answer, ${int(s.keywords)} keywords.** The node (default options) met this service for the first time, then ran the same list again. Ideal: ⌈${int(s.keywords)} ÷ ${s.capacity}⌉ waves × ${latency(s.latencyMs)} = ${secs(s.idealMs)} s.`,
	slowCappedTable(s),
];

function keywordScaleSection(k) {
	const { http, batched } = k.capped;
	const failed = `failed (webhook ${http.status}) with no sound out, after ${int(http.credits)} credits were charged for answers it threw away`;
	const lost = batched.filter((b) => b.status !== 200);
	const done = batched.find((b) => b.status === 200);
	// A failed attempt still paid for every call that was answered before the 429.
	const fails = lost.map(
		(b) =>
			`${b.batchInterval} ms failed (${int(b.rateLimited)} × 429, ${int(b.credits)} credits charged, no sound out)`,
	);
	const tried = [
		...fails,
		done ? `${done.batchInterval} ms completed` : 'no interval tried completed',
	].join('; ');
	return [
		'## 6. Keyword lists at service scale',
		`One search per input item (Webhook → Split Out → search → Summarize, Limit ${k.limit}: one page per keyword; keywords \`scale kw 0\` … generated), against a third reference service with its cache off and ${k.latencyMs} ms per answer unless said otherwise (${k.latencies.map(latency).join(' and ')}: a real sound search takes seconds). Before every run the service was reset (ledger, counters, settings) and, for the capped runs, set to a number of calls in flight per key (429 with \`Retry-After: 1\` beyond, not charged). Calls, 429s and credits are the service's ledger; throughput = ideal / actual, ideal = ${int(k.big)} × ${k.latencyMs} ms / ${k.capacity} = ${secs(k.idealMs)} s for ${k.capacity} in flight.`,
		`**First contact.** The node remembers, per n8n process, what it learned of a service, keyed by the credential's Base URL and API key. Each case below ran the node on its own API key (an own credential and workflow; the service accepts them all), so the first node run of a case is its first contact with the service and any further run a later run.`,
		`**Unlimited service.** (a) the node with default options, (b) HTTP Request untuned (one request per item, all at once; Split Out on \`data.items\`), at each latency: one first run of each ((b) first; the node's is its first contact), then ${k.rounds} interleaved round(s):`,
		compareTable(k),
		`**Max Calls in Flight.** The node with the option set to each value, ${int(k.big)} keywords, at ${k.latencyMs} ms, one run each, each its first contact:`,
		sweepSection(k),
		`**Service capped at ${k.capacity} calls in flight, ${int(k.big)} keywords.** The node's run is its first contact.`,
		cappedTable(k),
		`HTTP Request untuned starts every request at once: ${int(http.rateLimited)} were refused and the run ${http.status === 200 ? 'still completed' : failed}. Its Batching option only paces the starts (${batched[0]?.batchSize} requests, then the interval, not waiting for the answers): the interval has to exceed the ${k.latencyMs} ms latency plus n8n's jitter, and a single 429 still fails the whole run. Intervals tried in order (${(k.batchIntervals ?? []).join(', ')} ms) until one completed: ${tried}.`,
		...(k.slowCapped ? slowCappedSection(k.slowCapped) : []),
	].join('\n\n');
}

module.exports = { keywordScaleVerdicts, keywordScaleSection, ofCapacity };
