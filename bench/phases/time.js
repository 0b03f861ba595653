'use strict';

// Time: Return All over `pages` pages, (a) node, (b) HTTP Request, (c) no-op, (d) undici floor;
// floor-new, (e): (d) with a new TCP connection per page, a supplementary figure that shows how
// much of the per-page overhead is connection set-up (n8n's request helper opens one per request).

const system = require('../system');
const { summarize } = require('../stats');
const { assert, ledgerSummary, n8nCpuSeconds, returnAll, interleaved } = require('./common');

const VARIANTS = ['node', 'http', 'noop', 'floor', 'floor-new'];

/** One checked run of a variant, with the CPU of n8n, the service and this process. */
async function timedRun(ctx, variant) {
	const expected = ctx.pages * ctx.pageSize;
	const [n8nCpu0, svcCpu0, client0] = [
		n8nCpuSeconds(ctx),
		system.processCpuSeconds(ctx.timing.pid),
		process.cpuUsage(),
	];
	const { ms, items, unique } = await returnAll(ctx, variant, {
		q: ctx.pagesQuery,
		pageSize: ctx.pageSize,
	});
	const client = process.cpuUsage(client0);
	const n8nCpuMs = (n8nCpuSeconds(ctx) - n8nCpu0) * 1000;
	const serviceCpuMs = (system.processCpuSeconds(ctx.timing.pid) - svcCpu0) * 1000;
	const ledger = await ledgerSummary(ctx.timing);
	await ctx.resetTiming();
	if (variant === 'noop') assert(ledger.calls === 0, `noop made ${ledger.calls} calls`);
	else {
		assert(
			items === expected && unique === expected,
			`${variant}: ${items} items (${unique} distinct), expected ${expected}`,
		);
		assert(
			ledger.calls === ctx.pages && ledger.outcomes.ok === ctx.pages,
			`${variant}: ${JSON.stringify(ledger)}, expected ${ctx.pages} fresh calls`,
		);
	}
	const clientCpuMs = (client.user + client.system) / 1000;
	return {
		variant,
		ms,
		n8nCpuMs,
		serviceCpuMs,
		clientCpuMs,
		calls: ledger.calls,
		credits: ledger.credits,
		items: items ?? 0,
	};
}

async function timePhase(ctx) {
	const { rounds, warmup } = ctx.options;
	ctx.log(
		`time: warm-up ${warmup} rounds, then ${rounds} interleaved rounds of ${VARIANTS.join(', ')}`,
	);
	await interleaved(ctx, warmup, VARIANTS, (v) => timedRun(ctx, v));
	const loadBefore = system.loadavg();
	const meter = system.foreignCpuMeter();
	const runs = await interleaved(ctx, rounds, VARIANTS, async (v, r, position) => {
		const run = { round: r + 1, position: position + 1, ...(await timedRun(ctx, v)) };
		if (position === VARIANTS.length - 1 && ((r + 1) % 10 === 0 || r + 1 === rounds))
			ctx.log(`time: round ${r + 1}/${rounds} done`);
		return run;
	});
	const medians = VARIANTS.map(
		(v) =>
			`${v} ${summarize(runs.filter((x) => x.variant === v).map((x) => x.ms)).median.toFixed(0)} ms`,
	);
	ctx.log(`time: medians ${medians.join(', ')}`);
	const { pages, pageSize, pagesQuery: query } = ctx;
	return {
		variants: VARIANTS,
		pages,
		pageSize,
		query,
		rounds,
		warmup,
		runs,
		cpu: meter.stop(),
		loadBefore,
		loadAfter: system.loadavg(),
	};
}

/**
 * The timing phase, repeated (bounded) when other processes disturbed it: before each attempt,
 * unless asked not to, a bounded wait for other processes' CPU use to fall below the threshold.
 * The least disturbed attempt is reported, the others' runs kept with it.
 */
async function timeWithRetries(ctx) {
	const { busyRetries, maxForeignCores, waitQuietCpu } = ctx.options;
	const attempts = [];
	for (let attempt = 1; attempt <= 1 + busyRetries; attempt++) {
		const quietBefore = waitQuietCpu
			? await system.waitForQuietCpu(maxForeignCores, 300, ctx.log)
			: null;
		const t = { ...(await timePhase(ctx)), attempt, quietBefore };
		attempts.push(t);
		if (t.cpu.foreignCores < maxForeignCores) break;
		ctx.log(
			`time: attempt ${attempt} disturbed (other processes used ${t.cpu.foreignCores.toFixed(2)} cores)`,
		);
	}
	const best = attempts.reduce((a, b) => (b.cpu.foreignCores < a.cpu.foreignCores ? b : a));
	const summary = (t) => ({
		attempt: t.attempt,
		foreignCores: t.cpu.foreignCores,
		runs: t === best ? undefined : t.runs,
	});
	return { ...best, attempts: attempts.map(summary) };
}

module.exports = { timeWithRetries };
