'use strict';

// BENCHMARKS.md: issue 43's and issue 50's targets, one row each, met, missed or not measured (a
// phase that did not run gives "not measured", never an error), with what the rows read from the
// results. Issue 50's new rows: ./moving.js.

const { median } = require('../stats');
const { f1, f2, pct, int, latency } = require('./format');
const { movingRows } = require('./moving');

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

/** The appendix's file name, next to BENCHMARKS.md, and the sections the rows point to. */
const APPENDIX = 'BENCHMARKS-appendix.md';
const SECTION = {
	keylists: `[§6](${APPENDIX}#6-keyword-lists-at-service-scale)`,
	quotas: `[§7](${APPENDIX}#7-keyword-lists-against-request-quotas)`,
	all: `[all targets](${APPENDIX}#all-targets)`,
	shared: `[§8](${APPENDIX}#8-two-executions-at-once-on-one-key)`,
	doomed: `[§9](${APPENDIX}#9-a-run-that-a-402-dooms)`,
};
const NOT_MEASURED = 'not measured';

// What the rows read. A keyword-list run's refused calls (`rateLimited` in older results).
const refusedOf = (r) => r.refused ?? r.rateLimited;
const share = (r) => (r.calls ? refusedOf(r) / r.calls : 0);
const ok = (r) => r.status === 200 && r.items === r.expected;
/** Share of a quota: ideal ÷ measured time; 0 when the run failed. */
const throughput = (r) => (ok(r) ? r.idealMs / r.ms : 0);
/** Share of a capacity (waves of the capacity, one latency each). */
const ofCapacity = (s, r) => (r.status === 200 ? s.idealMs / r.ms : 0);
const distinct = (list) => [...new Set(list)];
/** The no-limit comparison at one latency: each variant's first run (round 0), then rounds. */
const runsAt = (k, latencyMs) => k.compare.filter((r) => r.latencyMs === latencyMs);
const sizesOf = (runs) => distinct(runs.map((r) => r.keywords));
const timed = (runs, size, variant) =>
	runs.filter((r) => r.round > 0 && r.keywords === size && r.variant === variant);
const firstRun = (runs, size, variant = 'node') =>
	runs.find((r) => r.round === 0 && r.keywords === size && r.variant === variant);
/** Median over rounds of node ÷ HTTP Request time (paired by round). */
function ratioFor(runs, size) {
	const http = timed(runs, size, 'http');
	return median(
		timed(runs, size, 'node').map((r) => r.ms / http.find((h) => h.round === r.round).ms),
	);
}
const firstRatio = (runs, size) =>
	firstRun(runs, size).ms / median(timed(runs, size, 'http').map((r) => r.ms));

const WHEN = ['at first contact', 'in a later run'];
const points = (x) => `${f1(100 * x)} points`;
const percent = (x) => `${Math.round(100 * x)} %`;
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

function noLimitRows(k) {
	const target = (ms) =>
		`No limit, 200 keywords, ${latency(ms)} an answer: ≤ ${f1(TARGET.noLimitRatio)}× HTTP Request's time`;
	return (k?.latencies ?? [150, 2000]).map((latencyMs) => {
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

function cappedRows(s) {
	return [TARGET.firstContact, TARGET.later].map((least, i) => {
		const when = WHEN[i];
		const target = `Capped at 20 calls in flight, 2 s an answer: ≥ ${percent(least)} of its capacity ${when}`;
		const run = s?.runs?.[i];
		if (!run) return notMeasured(target);
		const tp = ofCapacity(s, run);
		return row(
			target,
			`**${pct(tp)}**, ${int(refusedOf(run))} of ${int(run.calls)} calls refused (free); capped at ${s.capacity}, ${latency(s.latencyMs)}, ${int(s.keywords)} keywords`,
			tp >= least,
			points(least - tp),
			SECTION.keylists,
		);
	});
}

function quotaRows(group, name) {
	return [TARGET.firstContact, TARGET.later].map((least, i) => {
		const [contact, when] = [['first', 'later'][i], WHEN[i]];
		const target = `${name}: ≥ ${percent(least)} of the quota ${when}`;
		const runs = (group?.node ?? []).filter((r) => r.contact === contact);
		if (runs.length === 0) return notMeasured(target);
		const low = Math.min(...runs.map(throughput));
		const shares = runs
			.map(
				(r) => `${pct(throughput(r))} (${latency(r.latencyMs)}${r.headers ? ', in headers' : ''})`,
			)
			.join(', ');
		const sizes = distinct(runs.map((r) => int(r.keywords))).join(' and ');
		return row(
			target,
			`lowest **${pct(low)}**: ${shares}; ${group.quota}, ${sizes} keywords`,
			low >= least,
			points(least - low),
			SECTION.quotas,
		);
	});
}

function laterRefusedRows(q) {
	const later = [q?.perSecond, q?.perWindow].flatMap((g) =>
		(g?.node ?? []).filter((r) => r.contact === 'later'),
	);
	const [plain, headers] = [later.filter((r) => !r.headers), later.filter((r) => r.headers)];
	const plainTarget = `A later run (10/s, 60/min, 200 keywords): refuses ≤ ${percent(TARGET.laterRefused)} of its calls`;
	const headersTarget = 'A later run with the quota in headers: refuses none';
	const most = plain.length ? plain.reduce((a, b) => (share(b) > share(a) ? b : a)) : undefined;
	const refused = headers.reduce((sum, r) => sum + r.refused, 0);
	const where = (r) => `${r.quota}, ${latency(r.latencyMs)}, ${int(r.keywords)} keywords`;
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
					`**${int(refused)}** refused in ${headers.length} later runs (${distinct(headers.map((r) => r.quota)).join(', ')})`,
					refused === 0,
					`${int(refused)} call(s)`,
					SECTION.quotas,
				)
			: notMeasured(headersTarget),
	];
}

function floodRows(f) {
	const runs = f?.runs ?? [];
	const per = distinct(runs.map((r) => r.latencyMs)).map((ms) => {
		const tps = runs.filter((r) => r.latencyMs === ms).map(throughput);
		return { ms, n: tps.length, median: median(tps), low: Math.min(...tps) };
	});
	const list = (key) => per.map((p) => `${pct(p[key])} at ${latency(p.ms)}`).join(', ');
	const medianTarget = `A quota flooded by another client, 10 runs: median ≥ ${percent(TARGET.floodMedian)}`;
	const lowestTarget = `A quota flooded by another client, 10 runs: none below ${percent(TARGET.floodLowest)}`;
	if (per.length === 0) return [notMeasured(medianTarget), notMeasured(lowestTarget)];
	const worstMedian = Math.min(...per.map((p) => p.median));
	const lowest = Math.min(...per.map((p) => p.low));
	return [
		row(
			medianTarget,
			`**${list('median')}** (${per.map((p) => p.n).join(' + ')} runs, ${f.quota}, a burst of ${f.burst} calls before each)`,
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

/** Two executions on one key: both answered 200, their share ideal ÷ measured. */
const sharedOk = (r) => r.statuses.every((status) => status === 200);
const sharedShare = (r) => (sharedOk(r) ? r.idealMs / r.ms : 0);
/** Rounds by latency: "150 ms: a, b, c; 2 s: d, e, f". */
const byLatency = (rounds, f) =>
	distinct(rounds.map((r) => r.latencyMs))
		.map(
			(ms) =>
				`${latency(ms)}: ${rounds
					.filter((r) => r.latencyMs === ms)
					.map((r) => pct(f(r)))
					.join(', ')}`,
		)
		.join('; ');

function sharedRows(rounds = []) {
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
 * Every case whose credits have a known minimum, as { atMinimum, over }: the credit matrix,
 * the node's keyword runs (section 4 and 5), and every node run of a keyword list (one credit a
 * keyword, refusals free).
 */
function creditChecks(/** @type {Record<string, any>} */ phases) {
	const { credits, keywords, keylists: k, quotas: q, moving: m } = phases;
	const node = (list) => (list ?? []).filter((r) => r.variant === 'node');
	const check = (r, min, calls = true) => ({
		atMinimum: r.credits === min && calls,
		over: Math.max(0, r.credits - min),
	});
	const lists = [
		...node(k?.compare),
		...(k ? [...(k.sweep ?? []), k.capped.node, ...(k.slowCapped?.runs ?? [])] : []),
		...(q
			? [...q.perSecond.node, ...q.perWindow.node, ...(q.flood?.runs ?? []), ...(q.shared ?? [])]
			: []),
		...[m?.raised, m?.stopped, ...(m?.quick ?? []), m?.bucket].flatMap((c) => c?.runs ?? []),
	];
	return [
		...(credits?.cases ?? []).map((c) => check(c, c.minCredits, c.calls === c.minCalls)),
		...node(keywords?.repeats).map((r) => check(r, r.minCredits)),
		...node(keywords?.distinct).map((r) => check(r, keywords.minCreditsDistinct)),
		...lists
			.filter((r) => r.keywords !== undefined)
			.map((r) => ({
				atMinimum: r.credits === r.keywords,
				over: Math.abs(r.credits - r.keywords),
			})),
	];
}

function creditsRow(checks) {
	const target = 'credits spent equal to the minimum in every case';
	if (checks.length === 0) return notMeasured(target);
	const off = checks.filter((c) => !c.atMinimum);
	return row(
		target,
		`${checks.length - off.length} of ${checks.length} cases at the minimum (the credit matrix, several keywords, every keyword-list run of the node)`,
		off.length === 0,
		`${int(off.reduce((sum, c) => sum + c.over, 0))} credits in ${off.length} case(s)`,
		SECTION.all,
	);
}

/** The runs a 402 doomed. */
const doomedRuns = (q) => (q?.doomed ? [q.doomed] : []);

function doomedRow(runs) {
	const target = `A run that a 402 dooms: ≤ ${TARGET.paidAfter402} paid calls after the 402 is read`;
	if (runs.length === 0) return notMeasured(target);
	// A 402 answered to the run's last call leaves nothing to stop: the run proves nothing here.
	const last = runs.find((r) => r.doomedAt === r.calls);
	if (last)
		return notMeasured(
			target,
			`the 402 came at the last of ${int(last.calls)} calls: nothing was left to stop`,
		);
	const most = Math.max(...runs.map((r) => r.paidAfter));
	return row(
		target,
		runs
			.map(
				(r) =>
					`**${int(r.paidAfter)}** (${latency(r.latencyMs)}; the 402 at call ${int(r.doomedAt)} of ${int(r.calls)})`,
			)
			.join(', '),
		most <= TARGET.paidAfter402,
		`${int(most - TARGET.paidAfter402)} call(s)`,
		SECTION.doomed,
	);
}

/** The summary's rows, in issue 43's order, then issue 50's new targets. */
function summaryRows({ phases }) {
	const { keylists: k, quotas: q } = phases;
	return [
		...noLimitRows(k),
		...cappedRows(k?.slowCapped),
		...quotaRows(q?.perSecond, '10/s'),
		...quotaRows(q?.perWindow, '60/min'),
		...laterRefusedRows(q),
		...floodRows(q?.flood),
		...sharedRows(q?.shared),
		creditsRow(creditChecks(phases)),
		doomedRow(doomedRuns(q)),
		...movingRows(phases.moving),
	];
}

module.exports = {
	summaryRows,
	creditChecks,
	APPENDIX,
	NOT_MEASURED,
	refusedOf,
	share,
	ok,
	throughput,
	ofCapacity,
	runsAt,
	sizesOf,
	timed,
	firstRun,
	ratioFor,
	sharedOk,
	sharedShare,
	doomedRuns,
};
