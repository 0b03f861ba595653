'use strict';

// Scale: Return All of 1,000 ... 10,000 sounds (pages of 50, the service's cap): wall time,
// n8n peak memory, items.

const system = require('../system');
const {
	assert,
	rotate,
	ledgerSummary,
	n8nCpuSeconds,
	returnAll,
	interleaved,
} = require('./common');

const SERVICE_PAGE_CAP = 50;
const VARIANTS = ['scale-node', 'scale-http', 'floor'];
const scaleQuery = (size) => `scale ${size}`;

async function scaleRun(ctx, variant, size) {
	const q = scaleQuery(size);
	const pages = Math.ceil(size / SERVICE_PAGE_CAP);
	const runnerPids = system.descendants(ctx.n8nPid);
	const before = system.memory(ctx.n8nPid);
	const peakResetWorked = system.resetPeak(ctx.n8nPid);
	for (const pid of runnerPids) system.resetPeak(pid);
	const n8nCpu0 = n8nCpuSeconds(ctx);
	const { ms, items, unique } = await returnAll(ctx, variant, {
		q,
		pageSize: SERVICE_PAGE_CAP,
		query: { q },
	});
	const n8nCpuMs = (n8nCpuSeconds(ctx) - n8nCpu0) * 1000;
	const after = system.memory(ctx.n8nPid);
	const runnerPeakKb = runnerPids.reduce((sum, pid) => sum + (system.memory(pid)?.hwmKb ?? 0), 0);
	const { calls } = await ledgerSummary(ctx.timing);
	await ctx.resetTiming();
	assert(
		items === size && unique === size,
		`${variant} ${size}: ${items} items (${unique} distinct)`,
	);
	assert(calls === pages, `${variant} ${size}: ${calls} calls, expected ${pages}`);
	const [rssBeforeKb, peakKb, rssAfterKb] = [before?.rssKb, after?.hwmKb, after?.rssKb];
	return {
		variant,
		size,
		pages,
		ms,
		n8nCpuMs,
		items,
		calls,
		rssBeforeKb,
		peakKb,
		rssAfterKb,
		peakResetWorked,
		runnerPids: runnerPids.length,
		runnerPeakKb,
	};
}

async function scalePhase(ctx) {
	const { scaleSizes: sizes, scaleReps: reps } = ctx.options;
	ctx.log(
		`scale: sizes ${sizes.join(', ')}, ${reps} repetition(s), variants ${VARIANTS.join(', ')}`,
	);
	// One untimed run of each variant at the smallest size: the workflows' first production runs.
	for (const v of VARIANTS) await scaleRun(ctx, v, sizes[0]);
	const meter = system.foreignCpuMeter();
	const runs = [];
	for (let rep = 0; rep < reps; rep++) {
		for (const size of sizes) {
			const done = await interleaved(ctx, 1, rotate(VARIANTS, rep), (v) => scaleRun(ctx, v, size));
			runs.push(...done.map((run) => ({ rep: rep + 1, ...run })));
			for (const r of done.filter((x) => x.variant !== 'floor'))
				ctx.log(
					`scale: ${r.variant} ${size}: ${r.ms.toFixed(0)} ms, peak ${((r.peakKb ?? NaN) / 1024).toFixed(0)} MiB`,
				);
		}
	}
	return { sizes, reps, pageSize: SERVICE_PAGE_CAP, runs, cpu: meter.stop() };
}

module.exports = { scalePhase, scaleQuery, SERVICE_PAGE_CAP };
