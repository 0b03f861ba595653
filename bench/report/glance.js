'use strict';

// BENCHMARKS.md's summary, read at a glance: issue 43's targets, one row each, met, missed or not
// measured. Every other target, and every table, is in the appendix (report.js writes both). A
// phase that did not run (--phases, or one not written yet) gives "not measured", never an error.
//
// What each row reads, for the phases that produce it:
// - no limit: phases.keylists.compare (keylistCompare.js), its first list size at each latency;
// - capped at 20: phases.keylists.slowCapped { idealMs, runs: [first contact, later run] };
// - quotas: phases.quotas.perSecond.node and .perWindow.node (quotaRun.js: contact, headers,
//   status, items, expected, ms, idealMs, calls, refused, keywords, latencyMs, quota);
// - flooded quota: phases.quotas.flood.runs (the same fields, per latency);
// - two executions on one key: phases.quotas.shared (phases/sharedKey.js), or phases.shared.rounds:
//   a list of rounds, both executions together in each: { round, latencyMs, quota, ms, idealMs,
//   calls, refused, credits, statuses (each execution's webhook status; or status), keywords (both
//   lists, for the credits row; left out: not counted there) }; ms from the first start to the
//   last answer, idealMs both lists at the quota;
// - a run a 402 dooms: phases.quotas.doomed (one run or a list), or phases.doomed.runs: { paidAfter
//   (or paidAfter402): the charged calls the service answered after its 402, latencyMs?, label? }.

const { median } = require('../stats');
const { f1, f2, int, pct, latency, table } = require('./format');
const { runsAt, sizesOf, ratioFor, firstRatio } = require('./keylistCompare');
const { ofCapacity } = require('./keylists');
const { throughput, secs } = require('./quotas');

/** Issue 43's targets. */
const TARGET = {
	noLimitRatio: 1.1,
	firstContact: 0.85,
	later: 0.9,
	laterRefused: 0.02,
	floodMedian: 0.85,
	floodLowest: 0.75,
	sharedShare: 0.85,
	sharedRefused: 0.1,
	paidAfter402: 2,
};

/** The appendix's file name, next to BENCHMARKS.md (report.js writes it there). */
const APPENDIX = 'BENCHMARKS-appendix.md';
const SECTION = {
	keylists: `[§6](${APPENDIX}#6-keyword-lists-at-service-scale)`,
	quotas: `[§7](${APPENDIX}#7-keyword-lists-against-request-quotas)`,
	all: `[all targets](${APPENDIX}#all-targets)`,
	shared: `[§8](${APPENDIX}#8-two-executions-at-once-on-one-key)`,
	doomed: `[§9](${APPENDIX}#9-a-run-that-a-402-dooms)`,
};

const NOT_MEASURED = 'not measured';
const points = (x) => `${f1(100 * x)} points`;
/** A target's share, as issue 43 writes it: 85 %. */
const percent = (x) => `${Math.round(100 * x)} %`;
/** A row: target, result, verdict (met, missed by `by`, or not measured), where to read more. */
const row = (target, result, met, by, where = '') => ({
	target,
	result,
	verdict: met ? 'met' : `missed by ${by}`,
	where,
});
const notMeasured = (target, why = '') => ({
	target,
	result: why || '–',
	verdict: NOT_MEASURED,
	where: '',
});
const share = (run) => (run.calls ? run.refused / run.calls : 0);

/** No limit, 200 keywords: at most 1.1× HTTP Request's time, first run included, per latency. */
function noLimitRows(k) {
	const target = (ms) =>
		`No limit, 200 keywords, ${latency(ms)} an answer: ≤ ${f1(TARGET.noLimitRatio)}× HTTP Request's time`;
	const latencies = k?.latencies ?? [150, 2000];
	return latencies.map((latencyMs) => {
		const runs = k ? runsAt(k, latencyMs) : [];
		const [size] = sizesOf(runs);
		if (size === undefined) return notMeasured(target(latencyMs));
		const [ratio, first] = [ratioFor(runs, size), firstRatio(runs, size)];
		const worst = Math.max(ratio, first);
		return row(
			target(latencyMs),
			`**${f2(ratio)}×** (median of ${k.rounds} round(s)), first run **${f2(first)}×**; ${int(size)} keywords`,
			worst <= TARGET.noLimitRatio,
			`${f2(worst - TARGET.noLimitRatio)}×`,
			SECTION.keylists,
		);
	});
}

/** Capped at 20 calls in flight, 2 s: share of the capacity at first contact and in a later run. */
function cappedRows(s) {
	const cases = [
		{ when: 'at first contact', least: TARGET.firstContact, i: 0 },
		{ when: 'in a later run', least: TARGET.later, i: 1 },
	];
	return cases.map(({ when, least, i }) => {
		const target = `Capped at 20 calls in flight, 2 s an answer: ≥ ${percent(least)} of its capacity ${when}`;
		const run = s?.runs?.[i];
		if (!run) return notMeasured(target);
		const tp = ofCapacity(s, run);
		return row(
			target,
			`**${pct(tp)}**, ${int(run.rateLimited)} of ${int(run.calls)} calls refused (free); capped at ${s.capacity}, ${latency(s.latencyMs)}, ${int(s.keywords)} keywords`,
			tp >= least,
			points(least - tp),
			SECTION.keylists,
		);
	});
}

/** Each run's share of the quota, as "96.0 % (150 ms)", with or without headers. */
const shares = (runs) =>
	runs
		.map((r) => `${pct(throughput(r))} (${latency(r.latencyMs)}${r.headers ? ', in headers' : ''})`)
		.join(', ');

/** A quota's share at first contact, then in a later run: every latency, headers or not. */
function quotaRows(group, name) {
	const cases = [
		{ contact: 'first', when: 'at first contact', least: TARGET.firstContact },
		{ contact: 'later', when: 'in a later run', least: TARGET.later },
	];
	return cases.map(({ contact, when, least }) => {
		const target = `${name}: ≥ ${percent(least)} of the quota ${when}`;
		const runs = (group?.node ?? []).filter((r) => r.contact === contact);
		if (runs.length === 0) return notMeasured(target);
		const low = Math.min(...runs.map(throughput));
		const sizes = [...new Set(runs.map((r) => int(r.keywords)))].join(' and ');
		return row(
			target,
			`lowest **${pct(low)}**: ${shares(runs)}; ${group.quota}, ${sizes} keywords`,
			low >= least,
			points(least - low),
			SECTION.quotas,
		);
	});
}

/** Later runs' refused calls: at most 2 % without headers, none with the quota in headers. */
function laterRefusedRows(q) {
	const later = [q?.perSecond, q?.perWindow].flatMap((g) =>
		(g?.node ?? []).filter((r) => r.contact === 'later'),
	);
	const where = (r) => `${r.quota}, ${latency(r.latencyMs)}, ${int(r.keywords)} keywords`;
	const plain = later.filter((r) => !r.headers);
	const headers = later.filter((r) => r.headers);
	const plainTarget = `A later run (10/s, 60/min, 200 keywords): refuses ≤ ${percent(TARGET.laterRefused)} of its calls`;
	const headersTarget = 'A later run with the quota in headers: refuses none';
	const most = plain.length ? plain.reduce((a, b) => (share(b) > share(a) ? b : a)) : undefined;
	const refused = headers.reduce((sum, r) => sum + r.refused, 0);
	return [
		most
			? row(
					plainTarget,
					`most **${pct(share(most))}** (${int(most.refused)} of ${int(most.calls)}; ${where(most)}) of ${plain.length} later runs`,
					share(most) <= TARGET.laterRefused,
					points(share(most) - TARGET.laterRefused),
					SECTION.quotas,
				)
			: notMeasured(plainTarget),
		headers.length
			? row(
					headersTarget,
					`**${int(refused)}** refused in ${headers.length} later runs (${[...new Set(headers.map((r) => r.quota))].join(', ')})`,
					refused === 0,
					`${int(refused)} call(s)`,
					SECTION.quotas,
				)
			: notMeasured(headersTarget),
	];
}

/** The quota flooded by another client: median and lowest share per latency. */
function floodRows(f) {
	const runs = f?.runs ?? [];
	const latencies = [...new Set(runs.map((r) => r.latencyMs))];
	const per = latencies.map((ms) => {
		const tps = runs.filter((r) => r.latencyMs === ms).map(throughput);
		return { ms, n: tps.length, median: median(tps), low: Math.min(...tps) };
	});
	const list = (key) => per.map((p) => `${pct(p[key])} at ${latency(p.ms)}`).join(', ');
	const count = per.map((p) => p.n).join(' + ');
	const medianTarget = `A quota flooded by another client, 10 runs: median ≥ ${percent(TARGET.floodMedian)}`;
	const lowestTarget = `A quota flooded by another client, 10 runs: none below ${percent(TARGET.floodLowest)}`;
	if (per.length === 0) return [notMeasured(medianTarget), notMeasured(lowestTarget)];
	const worstMedian = Math.min(...per.map((p) => p.median));
	const lowest = Math.min(...per.map((p) => p.low));
	return [
		row(
			medianTarget,
			`**${list('median')}** (${count} runs, ${f.quota}, a burst of ${f.burst} calls before each)`,
			worstMedian >= TARGET.floodMedian,
			points(TARGET.floodMedian - worstMedian),
			SECTION.quotas,
		),
		row(
			lowestTarget,
			`lowest **${list('low')}**`,
			lowest >= TARGET.floodLowest,
			points(TARGET.floodLowest - lowest),
			SECTION.quotas,
		),
	];
}

/** The rounds of two executions on one key, wherever the phase put them. */
const sharedRounds = (phases) => phases.quotas?.shared ?? phases.shared?.rounds ?? [];
/** Both executions answered 200 (and, when counted, every sound came out). */
const sharedOk = (r) =>
	(r.statuses ?? [r.status]).every((status) => status === 200) &&
	(r.items === undefined || r.items === r.expected);
const sharedShare = (r) => (sharedOk(r) ? r.idealMs / r.ms : 0);
/** Rounds by latency, in the order met: "150 ms: a, b, c; 2 s: d, e, f". */
function byLatency(rounds, f) {
	const latencies = [...new Set(rounds.map((r) => r.latencyMs))];
	return latencies
		.map((ms) => {
			const at = rounds.filter((r) => r.latencyMs === ms).map((r) => pct(f(r)));
			return ms === undefined ? at.join(', ') : `${latency(ms)}: ${at.join(', ')}`;
		})
		.join('; ');
}

/** Two executions at once on one key with a 10/s quota: their share, their refusals from round 2. */
function sharedRows(rounds) {
	const shareTarget = `Two executions at once on one key, 10/s: together ≥ ${percent(TARGET.sharedShare)} of the quota`;
	const refusedTarget = `Two executions at once on one key, 10/s: from the second round on, ≤ ${percent(TARGET.sharedRefused)} of their calls refused`;
	if (rounds.length === 0) return [notMeasured(shareTarget), notMeasured(refusedTarget)];
	const low = Math.min(...rounds.map(sharedShare));
	const later = rounds.filter((r) => r.round >= 2);
	const most = Math.max(...later.map(share));
	return [
		row(
			shareTarget,
			`lowest **${pct(low)}**; by round, ${byLatency(rounds, sharedShare)} (${rounds[0].quota})`,
			low >= TARGET.sharedShare,
			points(TARGET.sharedShare - low),
			SECTION.shared,
		),
		later.length
			? row(
					refusedTarget,
					`most **${pct(most)}** from round 2; refused by round, ${byLatency(rounds, share)}`,
					most <= TARGET.sharedRefused,
					points(most - TARGET.sharedRefused),
					SECTION.shared,
				)
			: notMeasured(refusedTarget, 'one round only'),
	];
}

/**
 * Credits at the minimum in every case: the credit matrix and several keywords (summary.js), every
 * node run of the keyword lists and quotas, both executions on one key. The target's words are
 * those the benchmark's test reads.
 */
function creditsRow(checks) {
	const target = 'credits spent equal to the minimum in every case';
	if (checks.length === 0) return notMeasured(target);
	const off = checks.filter((c) => !c.atMinimum);
	const over = off.reduce((sum, c) => sum + c.over, 0);
	return row(
		target,
		`${checks.length - off.length} of ${checks.length} cases at the minimum (the credit matrix, several keywords, every keyword-list run of the node)`,
		off.length === 0,
		`${int(over)} credits in ${off.length} case(s)`,
		SECTION.all,
	);
}

/** Every node run with one search per keyword (sections 6 and 7, two executions): one credit each. */
function keywordRunChecks({ keylists: k, quotas: q, shared }) {
	const runs = [
		...(k ? k.compare.filter((r) => r.variant === 'node') : []),
		...(k ? [...k.sweep, k.capped.node, ...(k.slowCapped?.runs ?? [])] : []),
		...(q ? [...q.perSecond.node, ...q.perWindow.node, ...(q.flood?.runs ?? [])] : []),
		...sharedRounds({ quotas: q, shared }).filter((r) => r.keywords !== undefined),
	];
	return runs.map((r) => ({
		atMinimum: r.credits === r.keywords,
		over: Math.abs(r.credits - r.keywords),
	}));
}

/** The runs a 402 doomed, wherever the phase put them, with their paid calls after the 402. */
function doomedRuns(phases) {
	const found = phases.quotas?.doomed ?? phases.doomed?.runs ?? [];
	return (Array.isArray(found) ? found : [found])
		.map((r) => ({ ...r, paidAfter: r.paidAfter ?? r.paidAfter402 }))
		.filter((r) => Number.isFinite(r.paidAfter));
}
const doomedLabel = (r, i) =>
	r.label ?? (r.latencyMs === undefined ? String(i + 1) : latency(r.latencyMs));

/** A run that a 402 dooms: paid calls after the 402, on every machine state measured. */
function doomedRow(runs) {
	const target = `A run that a 402 dooms: ≤ ${TARGET.paidAfter402} paid calls after the 402 is read`;
	if (runs.length === 0) return notMeasured(target);
	const most = Math.max(...runs.map((r) => r.paidAfter));
	const each = runs.map((r, i) => `${int(r.paidAfter)} (${doomedLabel(r, i)})`).join(', ');
	return row(
		target,
		`most **${int(most)}**; by run ${each}`,
		most <= TARGET.paidAfter402,
		`${int(most - TARGET.paidAfter402)} call(s)`,
		SECTION.doomed,
	);
}

/** The appendix's sections of the two cases issue 43 adds, when they ran: every round or run. */
function glanceSections(phases) {
	const rounds = sharedRounds(phases);
	const runs = doomedRuns(phases);
	const sharedRows = rounds.map((r) => [
		r.latencyMs === undefined ? '–' : latency(r.latencyMs),
		String(r.round),
		sharedOk(r) ? 'complete' : `failed (${(r.statuses ?? [r.status]).join(', ')})`,
		r.keywords === undefined ? '–' : int(r.keywords),
		secs(r.ms),
		secs(r.idealMs),
		sharedOk(r) ? `**${pct(sharedShare(r))}**` : '–',
		`${int(r.refused)} of ${int(r.calls)} (${pct(share(r))})`,
		int(r.credits),
	]);
	const doomedRows = runs.map((r, i) => [
		doomedLabel(r, i),
		`**${int(r.paidAfter)}**`,
		r.doomedAt === undefined ? '–' : `${int(r.doomedAt)} of ${int(r.calls)}`,
		Number.isFinite(r.foreignCores) ? f2(r.foreignCores) : '–',
	]);
	const cols = (text) => text.split(' | ');
	return [
		sharedRows.length
			? [
					'## 8. Two executions at once on one key',
					`Two executions of one Sound Search workflow started together, on one API key, against a ${rounds[0].quota} quota; each round both executions together, the service's ledger counting their calls. Share of the quota: the ideal time of both lists at the quota ÷ the time from the first start to the last answer.`,
					table(
						cols(
							'latency | round | outcome | keywords (both) | s | ideal s | share of quota | refused calls | credits',
						),
						sharedRows,
					),
				]
			: '',
		doomedRows.length
			? [
					'## 9. A run that a 402 dooms',
					'A keyword list in which one call is answered 402 (no credits left): the paid calls the service answered after its 402.',
					table(
						cols('run | paid calls after the 402 | the 402 at call | other processes (cores)'),
						doomedRows,
					),
				]
			: '',
	];
}

/**
 * The summary's rows, in issue 43's order. `creditChecks`: the cases summary.js judged (credit
 * matrix, several keywords), as { atMinimum, over }.
 */
function glanceRows({ phases }, creditChecks = []) {
	const { keylists: k, quotas: q } = phases;
	return [
		...noLimitRows(k),
		...cappedRows(k?.slowCapped),
		...quotaRows(q?.perSecond, '10/s'),
		...quotaRows(q?.perWindow, '60/min'),
		...laterRefusedRows(q),
		...floodRows(q?.flood),
		...sharedRows(sharedRounds(phases)),
		creditsRow([...creditChecks, ...keywordRunChecks(phases)]),
		doomedRow(doomedRuns(phases)),
	];
}

module.exports = { glanceRows, glanceSections, APPENDIX, TARGET, NOT_MEASURED };
