'use strict';

// Section 6, keyword lists at service scale, and its verdict rows in the summary table.

const { median } = require('../stats');
const { pick } = require('./analyse');
const { f1, f2, int, pct, table } = require('./format');

const TARGET = { ratio: 1.0, throughput: 0.8, rateLimitedShare: 0.1 };
const ANCHOR = '#6-keyword-lists-at-service-scale';
const missed = (by, why) => `missed by ${by}: ${why} (see [section 6](${ANCHOR}))`;
const throughput = (k, run) => (run.status === 200 ? k.idealMs / run.ms : 0);
const share = (run) => run.rateLimited / run.calls;
const secs = (ms) => f1(ms / 1000);
const header = (text) => text.split(' | ');
const sizesOf = (k) => [...new Set(k.compare.map((r) => r.keywords))];

/** Median over rounds of node / HTTP Request for one size (paired by round): time or n8n CPU. */
function ratioFor(k, size, key = 'ms') {
	const runs = k.compare.filter((r) => r.keywords === size);
	const get = (round, v) => runs.find((r) => r.round === round && r.variant === v)[key];
	const rounds = [...new Set(runs.map((r) => r.round))];
	return median(rounds.map((round) => get(round, 'node') / get(round, 'http')));
}

/** The sweep's run at this bound on the unlimited (capped false) or the capped service. */
const sweepAt = (k, capped, m) => k.sweep.find((r) => r.capped === capped && r.maxInFlight === m);
const fastestOf = (runs) => runs.reduce((a, b) => (b.ms < a.ms ? b : a));

/** What the figures say about a missed time ratio: n8n's CPU, the bound, the machine. */
function ratioWhy(k, size) {
	const busy = median(pick(k.compare, { keywords: size }, 'foreignCores'));
	const most = (variant) => median(pick(k.compare, { keywords: size, variant }, 'mostInFlight'));
	const why = [
		`most calls in flight ${most('node')} against ${most('http')} for (b)`,
		`n8n CPU ${f2(ratioFor(k, size, 'n8nCpuMs'))}× that of (b)`,
	];
	const top = fastestOf(k.sweep.filter((r) => !r.capped));
	const def = sweepAt(k, false, k.defaultMaxInFlight);
	if (size === k.big && def && top.ms < def.ms)
		why.push(
			`in the sweep, bound ${top.maxInFlight} took ${secs(top.ms)} s, the default ${secs(def.ms)} s`,
		);
	return [...why, `other processes used ${f2(busy)} cores`].join('; ');
}

function ratioVerdict(k, size) {
	const ratio = ratioFor(k, size);
	const why = ratio <= TARGET.ratio ? '' : ratioWhy(k, size);
	return {
		target: `(a)/(b) ≤ ${f1(TARGET.ratio)} with ${int(size)} keywords, unlimited service`,
		result: `median per-round ratio **${f2(ratio)}** (${k.rounds} round(s))`,
		verdict: ratio <= TARGET.ratio ? 'met' : missed(f2(ratio - TARGET.ratio), why),
	};
}

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
		...sizesOf(k).map((size) => ratioVerdict(k, size)),
		{
			target: `${int(k.big)} keywords, service capped at ${k.capacity} in flight: all out, throughput ≥ ${pct(TARGET.throughput)}`,
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
	];
}

function compareTable(k) {
	const rows = sizesOf(k).flatMap((size) =>
		['node', 'http'].map((v) => {
			const runs = k.compare.filter((r) => r.keywords === size && r.variant === v);
			const [ms, cpu] = ['ms', 'n8nCpuMs'].map((key) => median(runs.map((r) => r[key])));
			const label =
				v === 'node' ? '(a) Sound Search, default options' : '(b) HTTP Request, untuned';
			const ratio = v === 'node' ? `**${f2(ratioFor(k, size))}**` : '';
			const perRound = runs.map((r) => secs(r.ms)).join(', ');
			const cells = [int(size), label, perRound, `**${f2(ms / 1000)}**`, f2(cpu / size)];
			return [...cells, int(runs[0].calls), int(runs[0].credits), ratio];
		}),
	);
	const cols =
		'keywords | variant | s per round | median s | n8n CPU ms per keyword | calls | credits | (a)/(b), median per round';
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
		`One search per input item (Webhook → Split Out → search → Summarize, Limit ${k.limit}: one page per keyword; keywords \`scale kw 0\` … generated), against a third reference service with its cache off and ${k.latencyMs} ms per answer. Before every run the service was reset (ledger, counters, settings) and, for the capped runs, set to ${k.capacity} calls in flight per key (429 with \`Retry-After: 1\` beyond, not charged). Calls, 429s and credits are the service's ledger; throughput = ideal / actual, ideal = ${int(k.big)} × ${k.latencyMs} ms / ${k.capacity} = ${secs(k.idealMs)} s.`,
		`**Unlimited service.** (a) the node with default options, (b) HTTP Request untuned (one request per item, all at once; Split Out on \`data.items\`), ${k.rounds} interleaved round(s) after one warm-up run of each:`,
		compareTable(k),
		`**Max Calls in Flight.** The node with the option set to each value, ${int(k.big)} keywords, one run each:`,
		sweepSection(k),
		`**Service capped at ${k.capacity} calls in flight, ${int(k.big)} keywords.**`,
		cappedTable(k),
		`HTTP Request untuned starts every request at once: ${int(http.rateLimited)} were refused and the run ${http.status === 200 ? 'still completed' : failed}. Its Batching option only paces the starts (${batched[0]?.batchSize} requests, then the interval, not waiting for the answers): the interval has to exceed the ${k.latencyMs} ms latency plus n8n's jitter, and a single 429 still fails the whole run. Intervals tried in order (${(k.batchIntervals ?? []).join(', ')} ms) until one completed: ${tried}.`,
	].join('\n\n');
}

module.exports = { keywordScaleVerdicts, keywordScaleSection };
