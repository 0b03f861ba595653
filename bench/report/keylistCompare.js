'use strict';

// Section 6, unlimited service (phases/keylists.js, part 1): the node against HTTP Request at each
// latency, the node's first run (its first contact) included, and their verdict rows (issue 30).

const { median } = require('../stats');
const { f1, f2, int, latency, table } = require('./format');

/** At most this × HTTP Request's time, at the first list size, first run included (issue 30). */
const TARGET_RATIO = 1.1;
const ANCHOR = '#6-keyword-lists-at-service-scale';
const secs = (ms) => f1(ms / 1000);

/** The comparison's runs at one latency (round 0: each variant's first run, not a round). */
const runsAt = (k, latencyMs) => k.compare.filter((r) => r.latencyMs === latencyMs);
const sizesOf = (runs) => [...new Set(runs.map((r) => r.keywords))];
/** Runs of the rounds of one size and variant. */
const timed = (runs, size, variant) =>
	runs.filter((r) => r.round > 0 && r.keywords === size && r.variant === variant);
const medianOf = (runs, key = 'ms') => median(runs.map((r) => r[key]));
const firstRun = (runs, size, variant = 'node') =>
	runs.find((r) => r.round === 0 && r.keywords === size && r.variant === variant);

/** Median over rounds of node / HTTP Request for one size (paired by round): time or n8n CPU. */
function ratioFor(runs, size, key = 'ms') {
	const [node, http] = ['node', 'http'].map((v) => timed(runs, size, v));
	return median(node.map((r) => r[key] / http.find((h) => h.round === r.round)[key]));
}

/** The node's first run (its first contact) over HTTP Request's median in the rounds. */
const firstRatio = (runs, size) => firstRun(runs, size).ms / medianOf(timed(runs, size, 'http'));

/** The least time the node's bound allows: waves of Max Calls in Flight, one latency each. */
function boundText(k, size, latencyMs) {
	const bound = k.defaultMaxInFlight;
	if (!bound) return 'the Max Calls in Flight default could not be read from the installed package';
	const waves = Math.ceil(size / bound);
	return `the node's bound, Max Calls in Flight ${bound} (its default), allows ⌈${int(size)} ÷ ${bound}⌉ = ${waves} wave(s) × ${latency(latencyMs)} = ${secs(waves * latencyMs)} s at the least; HTTP Request starts every item's request at once`;
}

/** What the figures say about a missed ratio: calls in flight, n8n's CPU, the bound, the machine. */
function ratioWhy(k, runs, size, latencyMs) {
	const all = runs.filter((r) => r.keywords === size);
	const most = (variant) => medianOf(timed(runs, size, variant), 'mostInFlight');
	const first = firstRun(runs, size);
	return [
		`most calls in flight ${most('node')} against ${most('http')} for (b)`,
		`n8n CPU ${f2(ratioFor(runs, size, 'n8nCpuMs'))}× that of (b)`,
		`the first run (first contact) took ${secs(first.ms)} s, the rounds' median ${secs(medianOf(timed(runs, size, 'node')))} s`,
		boundText(k, size, latencyMs),
		`other processes used ${f2(medianOf(all, 'foreignCores'))} cores`,
	].join('; ');
}

/** The target at the first size: the rounds' median and the first run, both within the bound. */
function targetVerdict(k, runs, size, latencyMs) {
	const [ratio, first] = [ratioFor(runs, size), firstRatio(runs, size)];
	const worst = Math.max(ratio, first);
	const why = `${ratioWhy(k, runs, size, latencyMs)} (see [section 6](${ANCHOR}))`;
	return {
		target: `(a)/(b) ≤ ${f1(TARGET_RATIO)} with ${int(size)} keywords, unlimited service, ${latency(latencyMs)} per answer, first run included`,
		result: `median per-round ratio **${f2(ratio)}** (${k.rounds} round(s)); first run (first contact) over (b)'s median **${f2(first)}**`,
		verdict: worst <= TARGET_RATIO ? 'met' : `missed by ${f2(worst - TARGET_RATIO)}: ${why}`,
	};
}

/** Larger lists: the figure and the bound that sets it, reported (issue 30 sets no target). */
function reportedRow(k, runs, size, latencyMs) {
	const [node, http] = ['node', 'http'].map((v) => medianOf(timed(runs, size, v)));
	return {
		target: `${int(size)} keywords, unlimited service, ${latency(latencyMs)} per answer: (a)/(b) and the bound that sets it`,
		result: `median per-round ratio **${f2(ratioFor(runs, size))}** ((a) ${secs(node)} s, (b) ${secs(http)} s); ${boundText(k, size, latencyMs)}`,
		verdict: 'reported (no target)',
	};
}

function compareVerdicts(k) {
	return k.latencies.flatMap((latencyMs) => {
		const runs = runsAt(k, latencyMs);
		const [first, ...others] = sizesOf(runs);
		return [
			targetVerdict(k, runs, first, latencyMs),
			...others.map((size) => reportedRow(k, runs, size, latencyMs)),
		];
	});
}

function compareTable(k) {
	const label = { node: '(a) Sound Search, default options', http: '(b) HTTP Request, untuned' };
	const rows = k.latencies.flatMap((latencyMs) => {
		const runs = runsAt(k, latencyMs);
		return sizesOf(runs).flatMap((size) =>
			['node', 'http'].map((v) => {
				const rounds = timed(runs, size, v);
				const first = firstRun(runs, size, v);
				const firstCell = first
					? `${secs(first.ms)}${v === 'node' ? ' (first contact)' : ''}`
					: '–';
				const ratio = v === 'node' ? `**${f2(ratioFor(runs, size))}**` : '';
				const perRound = rounds.map((r) => secs(r.ms)).join(', ');
				const [ms, cpu] = [medianOf(rounds), medianOf(rounds, 'n8nCpuMs')];
				const cells = [latency(latencyMs), int(size), label[v], firstCell, perRound];
				const figures = [`**${f2(ms / 1000)}**`, f2(cpu / size), int(rounds[0].calls)];
				return [...cells, ...figures, int(rounds[0].credits), ratio];
			}),
		);
	});
	const cols =
		'latency | keywords | variant | first run s | s per round | median s | n8n CPU ms per keyword | calls | credits | (a)/(b), median per round';
	return table(cols.split(' | '), rows);
}

module.exports = {
	compareVerdicts,
	compareTable,
	runsAt,
	sizesOf,
	ratioFor,
	firstRatio,
	TARGET_RATIO,
};
