'use strict';

// Keyword lists at service scale (issue 9): hundreds to thousands of input items, one search each
// (Limit 10, one page), against a third reference service (cache off, 150 ms per answer) whose
// capacity the node is not told. Three parts, every run on a freshly reset service:
//   1. unlimited service, 200 and 1,000 keywords: the node (default options) against HTTP
//      Request untuned (every item's request at once), interleaved rounds;
//   2. the node with Max Calls in Flight 16 ... 256, on the unlimited and on the capped service,
//      to choose the option's default from measurements;
//   3. service capped at 4 calls in flight, 1,000 keywords: the node, HTTP Request untuned and
//      HTTP Request with its Batching option tuned by hand.
// The workflows, the phase and its report section live here; run.js and report.js hook them in.

const fs = require('node:fs');
const path = require('node:path');

const { callWebhook } = require('./client');
const phases = require('./phases');
const { checkDeadline, assert, rotate, ledgerSummary, webhookUrl, expectedKeywordItems } = phases;
const { collector, keywordsNodeChain, keywordsHttpChain, PACKAGE_NAME } = require('./workflows');
const { foreignCpuMeter } = require('./system');
const { median } = require('./stats');
const { f1, f2, int, pct, table } = require('./format');

const LIMIT = 10;
const LATENCY_MS = 150;
const CAPACITY = 4;
/** How run.js starts the service of this phase (reset() comes back to these settings). */
const SCALE_SERVICE = { cacheSeconds: 0, latencyMs: LATENCY_MS };
const SIZES = [200, 1000];
const BIG = 1000;
const SWEEP_UNLIMITED = [16, 32, 64, 128, 256];
const SWEEP_CAPPED = [16, 64, 128];
// HTTP Request's Batching only paces the starts (batchSize requests, then batchInterval ms, not
// waiting for answers), so an interval under the latency plus n8n's jitter overlaps two batches
// and one 429 fails the run. Tried in order until one completes; the later ones are the fallback
// for a busier machine.
const BATCH_INTERVALS_MS = [180, 250];
const TARGET = { ratio: 1.0, throughput: 0.8, rateLimitedShare: 0.1 };
/** What the report needs to know of the set-up (kept with the results). */
const SETUP = { limit: LIMIT, latencyMs: LATENCY_MS, capacity: CAPACITY, big: BIG };
SETUP.idealMs = (BIG * LATENCY_MS) / CAPACITY;

const keywordList = (n) => Array.from({ length: n }, (_, i) => `scale kw ${i}`);

/** @param {{ serviceUrl: string, creds: { soundSearch: object, headerAuth: object } }} scale */
function keywordScaleWorkflows({ serviceUrl, creds }) {
	const { workflows, paths, add } = collector();
	const node = (options) => (n, hook) =>
		keywordsNodeChain(n, hook, creds.soundSearch, { limit: LIMIT, options });
	const http = (batching) => (n, hook) =>
		keywordsHttpChain(n, hook, creds.headerAuth, { serviceUrl, limit: LIMIT, batching });
	add('keylist-node', 'POST', node(undefined));
	add('keylist-http', 'POST', http(undefined));
	for (const m of SWEEP_UNLIMITED) add(`keylist-node-${m}`, 'POST', node({ maxInFlight: m }));
	for (const ms of BATCH_INTERVALS_MS) {
		add(`keylist-http-batch-${ms}`, 'POST', http({ batchSize: CAPACITY, batchInterval: ms }));
	}
	return { workflows, paths };
}

/** One run on a freshly reset service (capped to 4 in flight when asked); nothing asserted. */
async function keylistRun(ctx, key, size, capped = false) {
	checkDeadline(ctx);
	await ctx.scale.reset(); // also back to the start settings: unlimited, 150 ms
	if (capped) await ctx.scale.setCapacity({ capacity: CAPACITY, latencyMs: LATENCY_MS });
	const keywords = keywordList(size);
	const cpu0 = phases.n8nCpuSeconds(ctx);
	const r = await callWebhook(webhookUrl(ctx, key), { method: 'POST', body: { keywords } });
	const n8nCpuMs = (phases.n8nCpuSeconds(ctx) - cpu0) * 1000;
	const { calls, credits, mostInFlight, outcomes } = await ledgerSummary(ctx.scale);
	const ok = r.status === 200;
	const run = { key, keywords: size, capped, status: r.status, ms: r.ms, n8nCpuMs };
	run.items = ok ? r.json.count_soundId : 0;
	run.expected = expectedKeywordItems(keywords, LIMIT);
	run.error = ok ? undefined : JSON.stringify(r.json).slice(0, 300);
	return { ...run, calls, rateLimited: outcomes.rate_limited ?? 0, credits, mostInFlight };
}

/** A run that must complete: every sound out, one answered (non-429) call per keyword. */
function complete(run) {
	const what = `keylists ${run.key} ${run.keywords}${run.capped ? ' capped' : ''}`;
	assert(run.status === 200, `${what}: webhook answered ${run.status} ${run.error}`);
	assert(run.items === run.expected, `${what}: ${run.items} items, expected ${run.expected}`);
	const answered = run.calls - run.rateLimited;
	assert(answered === run.keywords, `${what}: ${answered} calls answered, ${run.rateLimited} 429`);
	return run;
}

const describe = (r) =>
	`${r.key} ${r.keywords}${r.capped ? ' capped' : ''}: ${r.status} in ${f1(r.ms / 1000)} s, ${r.items} items, ${r.calls} calls, ${r.rateLimited} x 429`;

/** Part 1: interleaved rounds of node and HTTP Request, both sizes, after one warm-up each. */
async function compareRuns(ctx, rounds) {
	for (const v of ['node', 'http']) complete(await keylistRun(ctx, `keylist-${v}`, SIZES[0]));
	const runs = [];
	for (let round = 1; round <= rounds; round++) {
		for (const size of SIZES) {
			for (const v of rotate(['node', 'http'], round)) {
				const run = complete(await keylistRun(ctx, `keylist-${v}`, size));
				runs.push({ round, variant: v, ...run });
				ctx.log(`keylists: round ${round}: ${describe(run)}`);
			}
		}
	}
	return runs;
}

/** Part 2: Max Calls in Flight, 1,000 keywords, on the unlimited then the capped service. */
async function sweepRuns(ctx) {
	const runs = [];
	const plan = SWEEP_UNLIMITED.map((m) => [m, false]).concat(SWEEP_CAPPED.map((m) => [m, true]));
	for (const [maxInFlight, capped] of plan) {
		const run = complete(await keylistRun(ctx, `keylist-node-${maxInFlight}`, BIG, capped));
		runs.push({ maxInFlight, ...run });
		ctx.log(`keylists: sweep: ${describe(run)}`);
	}
	return runs;
}

/** Part 3: capped service, 1,000 keywords: node (must complete), HTTP Request untuned, batched. */
async function cappedRuns(ctx) {
	const node = complete(await keylistRun(ctx, 'keylist-node', BIG, true));
	ctx.log(`keylists: capped: ${describe(node)}`);
	const http = await keylistRun(ctx, 'keylist-http', BIG, true);
	ctx.log(`keylists: capped: ${describe(http)}`);
	const batched = [];
	for (const interval of BATCH_INTERVALS_MS) {
		const run = await keylistRun(ctx, `keylist-http-batch-${interval}`, BIG, true);
		batched.push({ batchSize: CAPACITY, batchInterval: interval, ...run });
		ctx.log(`keylists: capped: ${describe(run)}`);
		if (run.status === 200 && run.items === run.expected) break;
	}
	return { node, http, batched };
}

/**
 * The Max Calls in Flight default of the installed package (what "default options" ran with),
 * read from its built description: loading the node would need n8n-workflow, which the
 * installed package does not carry.
 */
function installedDefault(folder) {
	const dist = path.join(folder, '.n8n/nodes/node_modules', PACKAGE_NAME, 'dist');
	const file = path.join(dist, 'nodes/SoundSearch/resources/sound/search.js');
	try {
		const match = /name: 'maxInFlight',[\s\S]*?default: (\d+)/.exec(fs.readFileSync(file, 'utf8'));
		return match ? Number(match[1]) : null;
	} catch {
		return null;
	}
}

async function keywordScalePhase(ctx) {
	const rounds = ctx.options.quick ? 1 : 3;
	ctx.log(
		`keylists: ${SIZES.join(', ')} keywords x ${rounds}, Max Calls in Flight, capped service`,
	);
	const meter = foreignCpuMeter();
	const compare = await compareRuns(ctx, rounds);
	const sweep = await sweepRuns(ctx);
	const capped = await cappedRuns(ctx);
	const cpu = meter.stop();
	await ctx.scale.reset();
	const defaultMaxInFlight = installedDefault(ctx.folder);
	return { ...SETUP, rounds, defaultMaxInFlight, compare, sweep, capped, cpu };
}

// ---------------------------------------------------------------------------------------------
// Report: verdict rows for the summary and section 6.

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

function ratioVerdict(k, size) {
	const ratio = ratioFor(k, size);
	// With every item's call at once, n8n's CPU (2 cores shared with the service) sets the pace.
	const why = `n8n used ${f2(ratioFor(k, size, 'n8nCpuMs'))}× the CPU of (b) for the same calls`;
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
	const slowWhy = `each slot was held ${f1(slotMs)} ms per search, ${k.latencyMs} ms of it service`;
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
			const [ms, cpu] = [median(runs.map((r) => r.ms)), median(runs.map((r) => r.n8nCpuMs))];
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
function sweepAdvice(k, at) {
	const capped = k.sweep.filter((r) => r.capped);
	const msOf = (m) => at(false, m).ms;
	const cheap = capped.filter((c) => share(c) <= TARGET.rateLimitedShare).map((c) => c.maxInFlight);
	const fastest = Math.min(...cheap.map(msOf));
	const pick = Math.min(...cheap.filter((m) => msOf(m) <= fastest * 1.1));
	const top = k.sweep.filter((r) => !r.capped).reduce((a, b) => (b.ms < a.ms ? b : a));
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
	const at = (capped, m) => k.sweep.find((r) => r.capped === capped && r.maxInFlight === m);
	const values = [...new Set(k.sweep.map((r) => r.maxInFlight))].sort((a, b) => a - b);
	const rows = values.map((m) => {
		const [u, c] = [at(false, m), at(true, m)];
		const bound = m === k.defaultMaxInFlight ? `**${m}** (default)` : String(m);
		const rl = c && `${int(c.rateLimited)} (${pct(share(c))})`;
		const capped = c ? [secs(c.ms), pct(throughput(k, c)), rl, int(c.calls)] : ['–', '–', '–', '–'];
		return [bound, u ? f2(u.ms / 1000) : '–', u ? int(u.mostInFlight) : '–', ...capped];
	});
	const cols =
		'Max Calls in Flight | unlimited: s | unlimited: most in flight (service) | capped: s | capped: throughput | capped: 429s (share) | capped: calls';
	return `${table(header(cols), rows)}\n\n${sweepAdvice(k, at)}`;
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
	const tried =
		batched.length > 1
			? `${batched.length} intervals were tried, in order, until one completed`
			: 'the first interval tried completed';
	return [
		'## 6. Keyword lists at service scale',
		`One search per input item (Webhook → Split Out → search → Summarize, Limit ${k.limit}: one page per keyword; keywords \`scale kw 0\` … generated), against a third reference service with its cache off and ${k.latencyMs} ms per answer. Before every run the service was reset (ledger, counters, settings) and, for the capped runs, set to ${k.capacity} calls in flight per key (429 with \`Retry-After: 1\` beyond, not charged). Calls, 429s and credits are the service's ledger; throughput = ideal / actual, ideal = ${int(k.big)} × ${k.latencyMs} ms / ${k.capacity} = ${secs(k.idealMs)} s.`,
		`**Unlimited service.** (a) the node with default options, (b) HTTP Request untuned (one request per item, all at once; Split Out on \`data.items\`), ${k.rounds} interleaved round(s) after one warm-up run of each:`,
		compareTable(k),
		`**Max Calls in Flight.** The node with the option set to each value, ${int(k.big)} keywords, one run each:`,
		sweepSection(k),
		`**Service capped at ${k.capacity} calls in flight, ${int(k.big)} keywords.**`,
		cappedTable(k),
		`HTTP Request untuned starts every request at once: ${int(http.rateLimited)} were refused and the run ${http.status === 200 ? 'still completed' : failed}. Its Batching option only paces the starts (${batched[0]?.batchSize} requests, then the interval, not waiting for the answers): the interval has to exceed the ${k.latencyMs} ms latency plus n8n's jitter, and a single 429 still fails the whole run; ${tried}.`,
	].join('\n\n');
}

module.exports = {
	keywordScaleWorkflows,
	keywordScalePhase,
	keywordScaleVerdicts,
	keywordScaleSection,
	SCALE_SERVICE,
};
