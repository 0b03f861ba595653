'use strict';

// The phases under n8n's inspector, after the timed ones: the JavaScript heap a Return All needs
// (memory), and where n8n's time goes (a CPU profile over a few runs of each variant).

const system = require('../system');
const { measureHeap, profileScenarios } = require('../profile');
const { checkDeadline, assert, rotate, callWorkflow } = require('./common');
const { scaleQuery } = require('./time');
const { postKeywords, KEYWORDS } = require('./keywords');

async function heapRun(ctx, session, variant, size) {
	system.resetPeak(ctx.n8nPid);
	const before = system.memory(ctx.n8nPid);
	let r = { items: 0, unique: 0 };
	const call = async () =>
		void (r = await callWorkflow(ctx, variant, { query: { q: scaleQuery(size) } }));
	const heap = await measureHeap(session, call);
	const after = system.memory(ctx.n8nPid);
	assert(r.items === size && r.unique === size, `memory ${variant} ${size}: ${r.items} items`);
	await ctx.resetTiming();
	const mib = (kb) => (kb / 1024).toFixed(1);
	ctx.log(
		`memory: ${variant} ${size}: allocated ${mib(heap.allocatedKb)} MiB, held at once +${mib(heap.peakUsedKb - heap.baseUsedKb)} MiB over ${(heap.baseUsedKb / 1024).toFixed(0)} MiB`,
	);
	return { variant, size, ...heap, rssBeforeKb: before?.rssKb, peakRssKb: after?.hwmKb };
}

async function memoryPhase(ctx, session) {
	const { scaleSizes: sizes, memoryReps: reps } = ctx.options;
	const variants = ['scale-node', 'scale-http'];
	ctx.log(
		`memory: JS heap of n8n during Return All of ${sizes.join(', ')} sounds, ${reps} repetition(s)`,
	);
	// One unrecorded run of each variant first: the first run under the heap profiler also
	// allocates for one-time work (expression compilation, code caches).
	for (const v of variants) await heapRun(ctx, session, v, sizes[0]);
	const runs = [];
	for (let rep = 0; rep < reps; rep++)
		for (const size of sizes) {
			checkDeadline(ctx);
			for (const v of rotate(variants, rep))
				runs.push({ rep: rep + 1, ...(await heapRun(ctx, session, v, size)) });
		}
	return { sizes, reps, runs };
}

async function profilePhase(ctx, session) {
	const times = ctx.options.profileTimes;
	const returnAll = (v) => async () => {
		const r = await callWorkflow(ctx, v);
		assert(v === 'noop' || r.items === ctx.pages * ctx.pageSize, `profile ${v}: ${r.items} items`);
	};
	const keywords = (v) => async () => {
		await ctx.billing.reset(); // cold cache, as in the timed keyword runs
		await postKeywords(ctx, v, KEYWORDS);
	};
	const scenarios = [
		...['node', 'http', 'noop'].map((label) => ({ label, times, run: returnAll(label) })),
		...['keywords-node', 'keywords-http'].map((label) => ({ label, times, run: keywords(label) })),
	];
	const labels = scenarios.map((s) => s.label).join(', ');
	ctx.log(`profile: ${times} runs each of ${labels} under the V8 sampling profiler`);
	const result = await profileScenarios(session, scenarios);
	await ctx.resetTiming();
	await ctx.billing.reset();
	return { ...result, pages: ctx.pages, keywords: KEYWORDS.length };
}

module.exports = { memoryPhase, profilePhase };
