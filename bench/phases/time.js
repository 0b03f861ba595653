'use strict';

// Return All through n8n. Time: `pages` pages by (a) the node, (b) HTTP Request, (c) a no-op
// workflow, (d) an undici loop outside n8n, interleaved rounds. Scale: 1,000 ... 10,000 sounds in
// pages of 50 (the service's cap): wall time, n8n's CPU and peak memory, items.

const system = require('../system');
const { floorReturnAll } = require('../client');
const {
	assert,
	rotate,
	ledgerSummary,
	n8nCpuSeconds,
	callWorkflow,
	interleaved,
} = require('./common');

const VARIANTS = ['node', 'http', 'noop', 'floor'];
const SCALE_VARIANTS = ['scale-node', 'scale-http', 'floor'];
const SERVICE_PAGE_CAP = 50;
const scaleQuery = (size) => `scale ${size}`;

/** One Return All of `q`: a workflow (`query` for its webhook), or the raw floor outside n8n. */
async function returnAll(ctx, variant, q, pageSize, query = /** @type {any} */ (undefined)) {
	if (variant !== 'floor') return callWorkflow(ctx, variant, { query });
	const floor = { serviceUrl: ctx.timing.url, apiKey: ctx.apiKey, q, pageSize };
	const { ms, items } = await floorReturnAll(floor);
	return { ms, items, unique: items };
}

/** One checked run of a variant, with the CPU of n8n, the service and this process. */
async function timedRun(ctx, variant) {
	const expected = ctx.pages * ctx.pageSize;
	const cpu = () => [n8nCpuSeconds(ctx), system.processCpuSeconds(ctx.timing.pid)];
	const [cpu0, client0] = [cpu(), process.cpuUsage()];
	const { ms, items, unique } = await returnAll(ctx, variant, ctx.pagesQuery, ctx.pageSize);
	const client = process.cpuUsage(client0);
	const [n8nCpuMs, serviceCpuMs] = cpu().map((seconds, i) => (seconds - cpu0[i]) * 1000);
	const ledger = await ledgerSummary(ctx.timing);
	await ctx.resetTiming();
	if (variant === 'noop') assert(ledger.calls === 0, `noop made ${ledger.calls} calls`);
	else {
		const what = `${variant}: ${items} items (${unique} distinct), expected ${expected}`;
		assert(items === expected && unique === expected, what);
		const fresh = ledger.calls === ctx.pages && ledger.outcomes.ok === ctx.pages;
		assert(fresh, `${variant}: ${JSON.stringify(ledger)}, expected ${ctx.pages} fresh calls`);
	}
	const clientCpuMs = (client.user + client.system) / 1000;
	return {
		variant,
		ms,
		n8nCpuMs,
		serviceCpuMs,
		clientCpuMs,
		calls: ledger.calls,
		items: items ?? 0,
	};
}

async function timePhase(ctx) {
	const { rounds, warmup } = ctx.options;
	ctx.log(`time: ${warmup} warm-up rounds, then ${rounds} rounds of ${VARIANTS.join(', ')}`);
	await interleaved(ctx, warmup, VARIANTS, (v) => timedRun(ctx, v));
	const meter = system.foreignCpuMeter();
	const runs = await interleaved(ctx, rounds, VARIANTS, async (v, r, position) => ({
		round: r + 1,
		position: position + 1,
		...(await timedRun(ctx, v)),
	}));
	const { pages, pageSize } = ctx;
	return { variants: VARIANTS, pages, pageSize, rounds, warmup, runs, cpu: meter.stop() };
}

/** One Return All of `size` sounds, with n8n's peak memory (reset before) and CPU. */
async function scaleRun(ctx, variant, size) {
	const [q, pages] = [scaleQuery(size), Math.ceil(size / SERVICE_PAGE_CAP)];
	const runnerPids = system.descendants(ctx.n8nPid);
	const before = system.memory(ctx.n8nPid);
	for (const pid of [ctx.n8nPid, ...runnerPids]) system.resetPeak(pid);
	const cpu0 = n8nCpuSeconds(ctx);
	const { ms, items, unique } = await returnAll(ctx, variant, q, SERVICE_PAGE_CAP, { q });
	const n8nCpuMs = (n8nCpuSeconds(ctx) - cpu0) * 1000;
	const after = system.memory(ctx.n8nPid);
	const runnerPeakKb = runnerPids.reduce((sum, pid) => sum + (system.memory(pid)?.hwmKb ?? 0), 0);
	const { calls } = await ledgerSummary(ctx.timing);
	await ctx.resetTiming();
	assert(
		items === size && unique === size,
		`${variant} ${size}: ${items} items (${unique} distinct)`,
	);
	assert(calls === pages, `${variant} ${size}: ${calls} calls, expected ${pages}`);
	const memory = { rssBeforeKb: before?.rssKb, peakKb: after?.hwmKb, rssAfterKb: after?.rssKb };
	return { variant, size, pages, ms, n8nCpuMs, items, calls, ...memory, runnerPeakKb };
}

async function scalePhase(ctx) {
	const { scaleSizes: sizes, scaleReps: reps } = ctx.options;
	ctx.log(`scale: ${sizes.join(', ')} sounds, ${reps} repetition(s)`);
	// One untimed run of each variant at the smallest size: the workflows' first production runs.
	for (const v of SCALE_VARIANTS) await scaleRun(ctx, v, sizes[0]);
	const meter = system.foreignCpuMeter();
	const runs = [];
	for (let rep = 0; rep < reps; rep++)
		for (const size of sizes) {
			const done = await interleaved(ctx, 1, rotate(SCALE_VARIANTS, rep), (v) =>
				scaleRun(ctx, v, size),
			);
			runs.push(...done.map((run) => ({ rep: rep + 1, ...run })));
		}
	return { sizes, reps, pageSize: SERVICE_PAGE_CAP, runs, cpu: meter.stop() };
}

module.exports = { timePhase, scalePhase, scaleQuery, SERVICE_PAGE_CAP };
