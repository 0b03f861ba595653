'use strict';

// Section 7, keyword lists against request quotas (phases/quotas.js), and its verdict rows. The
// flooded quota: flood.js.

const { f1, int, pct, latency, table } = require('./format');
const { CONTACT } = require('../contacts');

/**
 * Issue 30: 90 % of the quota; refused calls at most one burst at first contact (one window's
 * worth of calls, the quota's limit), at most 2 % of the calls of a later run, none when the
 * service announces the quota in RateLimit-* headers.
 */
const TARGET = { throughput: 0.9, laterRefusedShare: 0.02, headersRefused: 0 };
const ANCHOR = '#7-keyword-lists-against-request-quotas';
const ok = (run) => run.status === 200 && run.items === run.expected;
const throughput = (run) => (ok(run) ? run.idealMs / run.ms : 0);
const refusedShare = (run) => (run.calls ? run.refused / run.calls : 0);
const secs = (ms) => f1(ms / 1000);
const see = `(see [section 7](${ANCHOR}))`;
const CASES = {
	first: 'first contact',
	later: 'later run',
	headers: 'first contact, quota in headers',
	headersLater: 'later run, quota in headers',
	flood: 'after a flood',
};
/** What a node run was: its case, and its contact when that is not the case's own. */
const caseOf = (run) =>
	run.role === 'flood' ? `${CASES.flood} (${CONTACT[run.contact]})` : CASES[run.role];

/**
 * A first contact's refusals split: its start burst (every keyword up to Max Calls in Flight, sent
 * at once, as issue 30's "Start fast" asks) less what the quota takes of it, refused once; the rest
 * came later (tries above a quota learnt from refusals). Without headers, the refusals target read
 * as one burst of the node's own as well. Empty for a later run.
 */
function burstReading(run, maxInFlight) {
	if (run.contact !== 'first' || maxInFlight === undefined) return '';
	const calls = Math.min(run.keywords, maxInFlight);
	const inBurst = Math.min(run.refused, Math.max(0, calls - run.quotaLimit));
	const split = `${int(inBurst)} in its start burst of ${int(calls)} calls (the quota takes ${int(run.quotaLimit)} of it), ${int(run.refused - inBurst)} later`;
	if (run.headers) return `; ${split}`;
	const over = run.refused - calls;
	const read = over > 0 ? `missed by ${int(over)} call(s)` : 'met';
	return `; ${split}. Read as one burst of the node's own (its start burst, ${int(calls)} calls): ${read}`;
}

/** Why a run missed a target, from its own figures and what the node was told. */
function why(run, maxInFlight) {
	const refused = `${int(run.refused)} of ${int(run.calls)} calls refused`;
	const told = run.headers
		? `; the service announced the quota (${run.quota}) in RateLimit-* headers on every answer, the first included${run.contact === 'first' ? ': the node reads them from its first answer, when every call of its start burst is out' : ''}`
		: run.contact === 'first'
			? `; at first contact the node is not told the quota: what it starts before the first refusal comes back is refused (${run.quota})`
			: '';
	return `${refused}${told}${burstReading(run, maxInFlight)}; other processes used ${f1(run.foreignCores)} cores ${see}`;
}

const missedBy = (by, run, maxInFlight) => `missed by ${by}: ${why(run, maxInFlight)}`;
const creditsMissed = (run) =>
	run.credits === run.keywords
		? ''
		: `missed: ${int(run.credits)} credits for ${int(run.keywords)} keywords`;

/** The refused calls' target of a node run's case, and whether the run met it. */
function refusedTarget(run) {
	if (run.role === 'later') {
		const rs = refusedShare(run);
		const over = rs - TARGET.laterRefusedShare;
		return { text: `≤ ${pct(TARGET.laterRefusedShare)} of calls`, over: over > 0 && pct(over) };
	}
	const most = run.headers ? TARGET.headersRefused : run.quotaLimit;
	const text = run.headers ? 'none' : `≤ one burst (${int(most)} calls, the quota)`;
	return { text, over: run.refused > most && `${int(run.refused - most)} call(s)` };
}

/** Two rows per node run: share of the quota, then refused calls and credits (`maxInFlight`: the default). */
function runVerdicts(run, maxInFlight) {
	const tp = throughput(run);
	const what = `${int(run.keywords)} keywords at ${run.quota}, ${latency(run.latencyMs)} per answer, ${caseOf(run)}`;
	const refused = refusedTarget(run);
	return [
		{
			target: `${what}: all out, ≥ ${pct(TARGET.throughput)} of the quota`,
			result: `${int(run.items)} sounds in ${secs(run.ms)} s, ideal ${secs(run.idealMs)} s: **${pct(tp)}**`,
			verdict: tp >= TARGET.throughput ? 'met' : missedBy(pct(TARGET.throughput - tp), run),
		},
		{
			target: `${what}: refused ${refused.text}; credits = keywords`,
			result: `${int(run.refused)} of ${int(run.calls)}: **${pct(refusedShare(run))}**; **${int(run.credits)}** credits`,
			verdict:
				creditsMissed(run) || (refused.over ? missedBy(refused.over, run, maxInFlight) : 'met'),
		},
	];
}

const quotaVerdicts = (q, maxInFlight) =>
	[q.perSecond, q.perWindow].flatMap((g) => g.node.flatMap((run) => runVerdicts(run, maxInFlight)));

function rows(group) {
	const label = (run) =>
		run.role
			? 'Sound Search, default options'
			: run.key === 'keylist-http'
				? 'HTTP Request, untuned'
				: `HTTP Request, Batching ${run.batchSize} per ${secs(run.batchInterval)} s`;
	return [...group.node, group.http, ...group.batched].map((run) => [
		group.quota,
		latency(run.latencyMs),
		label(run),
		run.role ? caseOf(run) : '–',
		int(run.keywords),
		ok(run) ? 'complete' : `failed (${run.status})`,
		secs(run.ms),
		secs(run.idealMs),
		ok(run) ? `**${pct(throughput(run))}**` : '–',
		`${int(run.refused)} of ${int(run.calls)} (${pct(refusedShare(run))})`,
		int(run.credits),
	]);
}

function quotaSection(q) {
	const header =
		'quota | latency | variant | run | keywords | outcome | s | ideal s | share of quota | refused calls | credits';
	return [
		'## 7. Keyword lists against request quotas',
		`One search per keyword (Limit ${q.limit}, one page) against the scale service in quota mode: N calls per rolling window per API key, beyond that a free 429 whose Retry-After counts to the next free slot, at ${q.latencies.map(latency).join(' and ')} per answer. The node is not told the quota. Each case ran the node on its own API key (section 6, first contact): its first run there is its first contact, the next one a later run on the same key against the freshly reset service; with headers, the service announced the quota on every answer (\`RateLimit-Limit\`, \`-Remaining\`, \`-Reset\`, \`-Policy\`). Ideal time: (⌈keywords ÷ quota⌉ − 1) windows plus one latency, the first window's calls starting at once. Share of quota: ideal ÷ measured. One burst: one window's worth of calls (the quota). HTTP Request ran at ${latency(q.latencies[0])} only: untuned it fails at its first 429; its Batching was tuned by hand (batches of the quota, one window apart, intervals tried in order until one completed).`,
		table(header.split(' | '), [...rows(q.perSecond), ...rows(q.perWindow)]),
		`Other processes used ${f1(q.cpu.foreignCores)} cores on average during this phase.`,
	].join('\n\n');
}

module.exports = { quotaSection, quotaVerdicts, throughput, ok, caseOf, secs, see, TARGET };
