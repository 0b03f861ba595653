'use strict';

// Return All through n8n. Time: `pages` pages by (a) the node, (b) HTTP Request, (c) a no-op
// workflow, (d) an undici loop outside n8n, and (e), supplementary, (d) with a new TCP
// connection per page (n8n's request helper opens one per request): how much of the per-page
// overhead is connection set-up. Scale: 1,000 ... 10,000 sounds in pages of 50 (the service's
// cap): wall time, n8n peak memory, items.

const system = require('../system');
const { summarize } = require('../stats');
const {
	assert,
	rotate,
	ledgerSummary,
	n8nCpuSeconds,
	returnAll,
	interleaved,
} = require('./common');

const VARIANTS = ['node', 'http', 'noop', 'floor', 'floor-new'];
const SCALE_VARIANTS = ['scale-node', 'scale-http', 'floor'];
const SERVICE_PAGE_CAP = 50;
const scaleQuery = (size) => `scale ${size}`;

/** One checked run of a variant, with the CPU of n8n, the service and this process. */
async function timedRun(ctx, variant) {
	const expected = ctx.pages * ctx.pageSize;
	const cpu = () => [n8nCpuSeconds(ctx), system.processCpuSeconds(ctx.timing.pid)];
	const [cpu0, client0] = [cpu(), process.cpuUsage()];
	const search = { q: ctx.pagesQuery, pageSize: ctx.pageSize };
	const { ms, items, unique } = await returnAll(ctx, variant, search);
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
	ctx.log(
		`time: warm-up ${warmup} rounds, then ${rounds} interleaved rounds of ${VARIANTS.join(', ')}`,
	);
	await interleaved(ctx, warmup, VARIANTS, (v) => timedRun(ctx, v));
	const meter = system.foreignCpuMeter();
	const runs = await interleaved(ctx, rounds, VARIANTS, async (v, r, position) => {
		const run = { round: r + 1, position: position + 1, ...(await timedRun(ctx, v)) };
		if (position === VARIANTS.length - 1 && ((r + 1) % 10 === 0 || r + 1 === rounds))
			ctx.log(`time: round ${r + 1}/${rounds} done`);
		return run;
	});
	const median = (v) => summarize(runs.filter((x) => x.variant === v).map((x) => x.ms)).median;
	ctx.log(`time: medians ${VARIANTS.map((v) => `${v} ${median(v).toFixed(0)} ms`).join(', ')}`);
	const cpu = meter.stop();
	return {
		variants: VARIANTS,
		pages: ctx.pages,
		pageSize: ctx.pageSize,
		rounds,
		warmup,
		runs,
		cpu,
	};
}

/** One Return All of `size` sounds, with n8n's peak memory (reset before) and CPU. */
async function scaleRun(ctx, variant, size) {
	const [q, pages] = [scaleQuery(size), Math.ceil(size / SERVICE_PAGE_CAP)];
	const runnerPids = system.descendants(ctx.n8nPid);
	const before = system.memory(ctx.n8nPid);
	for (const pid of [ctx.n8nPid, ...runnerPids]) system.resetPeak(pid);
	const cpu0 = n8nCpuSeconds(ctx);
	const { ms, items, unique } = await returnAll(ctx, variant, {
		q,
		pageSize: SERVICE_PAGE_CAP,
		query: { q },
	});
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
	return {
		variant,
		size,
		pages,
		ms,
		n8nCpuMs,
		items,
		calls,
		...memory,
		runnerPeakKb,
	};
}

async function scalePhase(ctx) {
	const { scaleSizes: sizes, scaleReps: reps } = ctx.options;
	ctx.log(
		`scale: sizes ${sizes.join(', ')}, ${reps} repetition(s), variants ${SCALE_VARIANTS.join(', ')}`,
	);
	// One untimed run of each variant at the smallest size: the workflows' first production runs.
	for (const v of SCALE_VARIANTS) await scaleRun(ctx, v, sizes[0]);
	const meter = system.foreignCpuMeter();
	const runs = [];
	for (let rep = 0; rep < reps; rep++)
		for (const size of sizes) {
			const variants = rotate(SCALE_VARIANTS, rep);
			const done = await interleaved(ctx, 1, variants, (v) => scaleRun(ctx, v, size));
			runs.push(...done.map((run) => ({ rep: rep + 1, ...run })));
			for (const r of done.filter((x) => x.variant !== 'floor'))
				ctx.log(
					`scale: ${r.variant} ${size}: ${r.ms.toFixed(0)} ms, peak ${((r.peakKb ?? NaN) / 1024).toFixed(0)} MiB`,
				);
		}
	return { sizes, reps, pageSize: SERVICE_PAGE_CAP, runs, cpu: meter.stop() };
}

module.exports = { timePhase, scalePhase, scaleQuery, SERVICE_PAGE_CAP };
