'use strict';

// The section on keyword lists against request quotas (phases/quotas.js), and its verdict rows.

const { f1, int, pct, table } = require('./format');

const TARGET = { throughput: 0.9, refusedShare: 0.05 };
const ANCHOR = '#7-keyword-lists-against-request-quotas';
const ok = (run) => run.status === 200 && run.items === run.expected;
const throughput = (run) => (ok(run) ? run.idealMs / run.ms : 0);
const refusedShare = (run) => (run.calls ? run.refused / run.calls : 0);
const secs = (ms) => f1(ms / 1000);

/** Why a run missed a target, from its own figures. */
function why(run) {
	const firstWave = `first contact with a quota the node is not told costs up to about one quota's worth of refused (free) calls, the calls in flight when the first refusal comes back (${run.quota})`;
	const busy = `other processes used ${f1(run.foreignCores)} cores`;
	return `${firstWave}, a larger share of a short list; ${busy} (see [the section](${ANCHOR}))`;
}

function verdictsFor(group) {
	return group.node.flatMap((run) => {
		const [tp, rs] = [throughput(run), refusedShare(run)];
		const what = `${int(run.keywords)} keywords at ${run.quota}`;
		return [
			{
				target: `${what}: all out, throughput ≥ ${pct(TARGET.throughput)} of the quota`,
				result: `${int(run.items)} sounds in ${secs(run.ms)} s, ideal ${secs(run.idealMs)} s: **${pct(tp)}**`,
				verdict:
					tp >= TARGET.throughput ? 'met' : `missed by ${pct(TARGET.throughput - tp)}: ${why(run)}`,
			},
			{
				target: `${what}: refused ≤ ${pct(TARGET.refusedShare)} of calls; credits = keywords`,
				result: `${int(run.refused)} of ${int(run.calls)}: **${pct(rs)}**; **${int(run.credits)}** credits`,
				verdict:
					run.credits !== run.keywords
						? `missed: ${int(run.credits)} credits for ${int(run.keywords)} keywords`
						: rs <= TARGET.refusedShare
							? 'met'
							: `missed by ${pct(rs - TARGET.refusedShare)}: ${why(run)}`,
			},
		];
	});
}

const quotaVerdicts = (q) => [...verdictsFor(q.perSecond), ...verdictsFor(q.perWindow)];

function rows(group) {
	const label = (run) =>
		run.key === 'keylist-node'
			? 'Sound Search, default options'
			: run.key === 'keylist-http'
				? 'HTTP Request, untuned'
				: `HTTP Request, Batching ${run.batchSize} per ${secs(run.batchInterval)} s`;
	return [...group.node, group.http, ...group.batched].map((run) => [
		group.quota,
		label(run),
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
		'quota | variant | keywords | outcome | s | ideal s | share of quota | refused calls | credits';
	return [
		'## 7. Keyword lists against request quotas',
		`One search per keyword (Limit ${q.limit}, one page) against the scale service in quota mode: N calls per rolling window per API key, beyond that a free 429 whose Retry-After counts to the next free slot. The node is not told the quota. Ideal time: (⌈keywords ÷ quota⌉ − 1) windows, the first window's calls starting at once. Share of quota: ideal ÷ measured. HTTP Request untuned fails at its first 429; its Batching was tuned by hand (batches of the quota, one window apart, intervals tried in order until one completed).`,
		table(header.split(' | '), [...rows(q.perSecond), ...rows(q.perWindow)]),
		`Other processes used ${f1(q.cpu.foreignCores)} cores on average during this phase.`,
	].join('\n\n');
}

module.exports = { quotaSection, quotaVerdicts };
