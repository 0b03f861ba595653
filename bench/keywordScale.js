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
// The workflows and the phase live here (run.js hooks them in), the report section in
// keywordScaleReport.js.

const fs = require('node:fs');
const path = require('node:path');

const { callWebhook } = require('./client');
const phases = require('./phases');
const { checkDeadline, assert, rotate, ledgerSummary, webhookUrl, expectedKeywordItems } = phases;
const { collector, keywordsNodeChain, keywordsHttpChain, PACKAGE_NAME } = require('./workflows');
const { foreignCpuMeter } = require('./system');
const { f1 } = require('./format');

const LIMIT = 10;
const LATENCY_MS = 150;
const CAPACITY = 4;
/** How run.js starts the service of this phase (reset() comes back to these settings). */
const SCALE_SERVICE = { cacheSeconds: 0, latencyMs: LATENCY_MS };
const SIZES = [200, 1000];
const BIG = 1000;
// 96 beside the powers of two: about the most calls n8n had in flight at once with every item's
// request started together (HTTP Request untuned), and about the largest bound whose first
// contact (bound - 4 refused calls) keeps 429s within 10 % of 1,000 keywords.
const SWEEP_UNLIMITED = [16, 32, 64, 96, 128, 256];
const SWEEP_CAPPED = [16, 64, 96, 128];
// HTTP Request's Batching only paces the starts (batchSize requests, then batchInterval ms, not
// waiting for answers), so an interval under the latency plus n8n's jitter overlaps two batches
// and one 429 fails the run. Tried in order until one completes; the later ones are the fallback
// for a busier machine.
const BATCH_INTERVALS_MS = [180, 250];
/** What the report needs to know of the set-up (kept with the results). */
const SETUP = { limit: LIMIT, latencyMs: LATENCY_MS, capacity: CAPACITY, big: BIG };
SETUP.batchIntervals = BATCH_INTERVALS_MS;
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
	// Other processes' CPU during this run: the machine is shared, and n8n's CPU sets the pace.
	const meter = foreignCpuMeter();
	const r = await callWebhook(webhookUrl(ctx, key), { method: 'POST', body: { keywords } });
	const n8nCpuMs = (phases.n8nCpuSeconds(ctx) - cpu0) * 1000;
	const { foreignCores } = meter.stop();
	const { calls, credits, mostInFlight, outcomes } = await ledgerSummary(ctx.scale);
	const ok = r.status === 200;
	const run = { key, keywords: size, capped, status: r.status, ms: r.ms, n8nCpuMs, foreignCores };
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

module.exports = { keywordScaleWorkflows, keywordScalePhase, SCALE_SERVICE };
