'use strict';

// Keyword lists at service scale (issue 9): hundreds to thousands of input items, one search each
// (Limit 10, one page), against a third reference service (cache off, 150 ms per answer) whose
// capacity the node is not told. Every run on a freshly reset service:
//   1. unlimited service: the node (default options) against HTTP Request untuned (every item's
//      request at once), interleaved rounds;
//   2. the node with Max Calls in Flight 16 ... 256, on the unlimited and on the capped service,
//      to choose the option's default from measurements;
//   3. service capped at 4 calls in flight, the big list: the node, HTTP Request untuned and
//      HTTP Request with its Batching option tuned by hand.

const fs = require('node:fs');
const path = require('node:path');

const { callWebhook } = require('../client');
const { foreignCpuMeter } = require('../system');
const {
	checkDeadline,
	assert,
	rotate,
	ledgerSummary,
	webhookUrl,
	n8nCpuSeconds,
} = require('./common');
const { expectedKeywordItems } = require('./keywords');
const { KEYLISTS, PACKAGE_NAME } = require('../workflows');

const { LIMIT, LATENCY_MS, CAPACITY, BATCH_INTERVALS_MS } = KEYLISTS;
/** How run.js starts the service of this phase (reset() comes back to these settings). */
const SCALE_SERVICE = { cacheSeconds: 0, latencyMs: LATENCY_MS };

/** One run on a freshly reset service, capped to 4 in flight when asked; logged, not checked. */
async function keylistRun(ctx, part, key, size, capped = false) {
	checkDeadline(ctx);
	await ctx.scale.reset(); // also back to the start settings: unlimited, 150 ms
	if (capped) await ctx.scale.setCapacity({ capacity: CAPACITY, latencyMs: LATENCY_MS });
	const keywords = Array.from({ length: size }, (_, i) => `scale kw ${i}`);
	const cpu0 = n8nCpuSeconds(ctx);
	// Other processes' CPU during this run: the machine is shared, and n8n's CPU sets the pace.
	const meter = foreignCpuMeter();
	const r = await callWebhook(webhookUrl(ctx, key), { method: 'POST', body: { keywords } });
	const n8nCpuMs = (n8nCpuSeconds(ctx) - cpu0) * 1000;
	const { foreignCores } = meter.stop();
	const { calls, credits, mostInFlight, outcomes } = await ledgerSummary(ctx.scale);
	const ok = r.status === 200;
	const rateLimited = outcomes.rate_limited ?? 0;
	const run = {
		key,
		keywords: size,
		capped,
		status: r.status,
		ms: r.ms,
		n8nCpuMs,
		foreignCores,
		items: ok ? r.json.count_soundId : 0,
		expected: expectedKeywordItems(keywords, LIMIT),
		error: ok ? undefined : JSON.stringify(r.json).slice(0, 300),
		calls,
		rateLimited,
		credits,
		mostInFlight,
	};
	ctx.log(
		`keylists: ${part}: ${key} ${size}${capped ? ' capped' : ''}: ${r.status} in ${(r.ms / 1000).toFixed(1)} s, ${run.items} items, ${calls} calls, ${run.rateLimited} x 429`,
	);
	return run;
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

/** Part 1: interleaved rounds of node and HTTP Request, each size, after one warm-up each. */
async function compareRuns(ctx, plan) {
	for (const v of ['node', 'http'])
		complete(await keylistRun(ctx, 'warm-up', `keylist-${v}`, plan.sizes[0]));
	const runs = [];
	for (let round = 1; round <= plan.rounds; round++)
		for (const size of plan.sizes)
			for (const variant of rotate(['node', 'http'], round)) {
				const run = await keylistRun(ctx, `round ${round}`, `keylist-${variant}`, size);
				runs.push({ round, variant, ...complete(run) });
			}
	return runs;
}

/** Part 2: Max Calls in Flight, the big list, on the unlimited then the capped service. */
async function sweepRuns(ctx, plan) {
	const bounds = [
		...plan.sweepUnlimited.map((m) => [m, false]),
		...plan.sweepCapped.map((m) => [m, true]),
	];
	const runs = [];
	for (const [maxInFlight, capped] of bounds) {
		const run = await keylistRun(ctx, 'sweep', `keylist-node-${maxInFlight}`, plan.big, capped);
		runs.push({ maxInFlight, ...complete(run) });
	}
	return runs;
}

/** Part 3: capped service, the big list: node (must complete), HTTP Request untuned, batched. */
async function cappedRuns(ctx, plan) {
	const node = complete(await keylistRun(ctx, 'capped', 'keylist-node', plan.big, true));
	const http = await keylistRun(ctx, 'capped', 'keylist-http', plan.big, true);
	const batched = [];
	for (const interval of BATCH_INTERVALS_MS) {
		const key = `keylist-http-batch-${interval}`;
		const run = await keylistRun(ctx, 'capped', key, plan.big, true);
		batched.push({ batchSize: CAPACITY, batchInterval: interval, ...run });
		if (run.status === 200 && run.items === run.expected) break;
	}
	return { node, http, batched };
}

/**
 * The Max Calls in Flight default of the installed package, read from its built description:
 * loading the node would need n8n-workflow, which the installed package does not carry.
 */
function installedDefault(folder) {
	const dist = path.join(folder, '.n8n/nodes/node_modules', PACKAGE_NAME, 'dist');
	try {
		const source = fs.readFileSync(`${dist}/nodes/SoundSearch/description.js`, 'utf8');
		const match = /name: 'maxInFlight',[\s\S]*?default: (\d+)/.exec(source);
		return match ? Number(match[1]) : null;
	} catch {
		return null;
	}
}

async function keywordScalePhase(ctx) {
	const plan = ctx.options.keylists;
	ctx.log(
		`keylists: ${plan.sizes.join(', ')} keywords x ${plan.rounds}, Max Calls in Flight, capped service`,
	);
	const meter = foreignCpuMeter();
	const [compare, sweep, capped] = [
		await compareRuns(ctx, plan),
		await sweepRuns(ctx, plan),
		await cappedRuns(ctx, plan),
	];
	const cpu = meter.stop();
	await ctx.scale.reset();
	const setup = { limit: LIMIT, latencyMs: LATENCY_MS, capacity: CAPACITY, big: plan.big };
	const idealMs = (plan.big * LATENCY_MS) / CAPACITY;
	const defaultMaxInFlight = installedDefault(ctx.folder);
	return {
		...setup,
		batchIntervals: BATCH_INTERVALS_MS,
		idealMs,
		rounds: plan.rounds,
		defaultMaxInFlight,
		compare,
		sweep,
		capped,
		cpu,
	};
}

module.exports = { keywordScalePhase, SCALE_SERVICE };
