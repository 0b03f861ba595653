'use strict';

// Where n8n's time and memory go, over its inspector (bench/inspector.js): a CPU profile around a
// few runs of a workflow, aggregated by package (self time) and by function (inclusive time), and
// the JavaScript heap a run allocates and holds.

const SAMPLING_INTERVAL_US = 250;

/** The package a script URL belongs to (the last node_modules/<pkg> in it), or a coarse bucket. */
function bucketOf(url, functionName) {
	if (!url) {
		if (functionName === '(garbage collector)') return 'V8 garbage collector';
		if (functionName === '(idle)') return '(idle)';
		if (functionName === '(program)') return 'V8/native (program)';
		return `native: ${functionName || 'anonymous'}`;
	}
	if (url.startsWith('node:')) {
		const mod = url.slice(5).replace(/^internal\//, '');
		if (/^(_http|http|https|net|stream|dns|tls|url|zlib|timers|events|buffer)/.test(mod))
			return 'Node.js core: http/net/streams/timers';
		if (/^crypto/.test(mod)) return 'Node.js core: crypto';
		return 'Node.js core: other';
	}
	if (url.includes('/.n8n/nodes/node_modules/n8n-nodes-sound-search/'))
		return 'n8n-nodes-sound-search (this package)';
	const match = /.*node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
	if (!match) return 'other scripts';
	const pkg = match[1];
	if (pkg === 'n8n-nodes-sound-search') return 'n8n-nodes-sound-search (this package)';
	if (pkg === 'n8n-nodes-base')
		return /HttpRequest/.test(url)
			? 'n8n-nodes-base: HTTP Request node'
			: 'n8n-nodes-base: other nodes';
	return pkg;
}

/**
 * Inclusive time (the function and everything it called) of every function, keyed
 * "bucket: functionName"; recursion counted once per sample.
 */
function inclusive(profile, byId) {
	const parent = new Map();
	for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
	const totals = new Map();
	for (let i = 1; i < profile.samples.length; i++) {
		const ms = (profile.timeDeltas[i] ?? 0) / 1000;
		const seen = new Set();
		for (
			let id = profile.samples[i], depth = 0;
			id !== undefined && depth < 2000;
			id = parent.get(id), depth++
		) {
			const frame = byId.get(id)?.callFrame;
			if (!frame || !frame.url) continue;
			const key = `${bucketOf(frame.url, frame.functionName)}: ${frame.functionName || '(anonymous)'}`;
			if (seen.has(key)) continue;
			seen.add(key);
			totals.set(key, (totals.get(key) ?? 0) + ms);
		}
	}
	return totals;
}

/**
 * Self time by bucket of a V8 CPU profile.
 */
function aggregate(profile) {
	const byId = new Map(profile.nodes.map((n) => [n.id, n]));
	const totals = new Map();
	let totalMs = 0;
	// The first sample's delta covers the profiler's own start (hundreds of ms): left out.
	for (let i = 1; i < profile.samples.length; i++) {
		const node = byId.get(profile.samples[i]);
		const ms = (profile.timeDeltas[i] ?? 0) / 1000;
		const bucket = bucketOf(node?.callFrame?.url, node?.callFrame?.functionName);
		totals.set(bucket, (totals.get(bucket) ?? 0) + ms);
		totalMs += ms;
	}
	const buckets = [...totals].map(([bucket, ms]) => ({ bucket, ms })).sort((a, b) => b.ms - a.ms);
	const functions = [...inclusive(profile, byId)]
		.map(([fn, ms]) => ({ fn, ms }))
		.sort((a, b) => b.ms - a.ms)
		.slice(0, 150);
	const deltas = profile.timeDeltas.map((d) => d / 1000);
	return {
		totalMs,
		spanMs: (profile.endTime - profile.startTime) / 1000,
		samples: profile.samples.length,
		maxDeltaMs: Math.max(...deltas),
		firstDeltaMs: deltas[0],
		buckets,
		functions,
	};
}

/**
 * Profiles n8n around `run` (called `times` times in a row) and returns self time by bucket.
 * @param {any} session from inspectorSession
 * @param {Array<{ label: string, times: number, run: () => Promise<void> }>} scenarios
 */
async function profileScenarios(session, scenarios) {
	const out = [];
	await session.send('Profiler.enable');
	await session.send('Profiler.setSamplingInterval', { interval: SAMPLING_INTERVAL_US });
	for (const scenario of scenarios) {
		await session.send('Profiler.start');
		const t0 = performance.now();
		for (let i = 0; i < scenario.times; i++) await scenario.run();
		const wallMs = performance.now() - t0;
		const { profile } = await session.send('Profiler.stop');
		out.push({ label: scenario.label, times: scenario.times, wallMs, ...aggregate(profile) });
	}
	await session.send('Profiler.disable');
	return { samplingIntervalUs: SAMPLING_INTERVAL_US, scenarios: out };
}

const HEAP_POLL_MS = 5;
const MAX_HEAP_POLLS = 200_000;
const ALLOCATION_SAMPLING_BYTES = 16 * 1024;

/** Sum of selfSize over a sampling heap profile's tree, in total and by bucket. */
function allocationTotals(head) {
	const byBucket = new Map();
	let total = 0;
	const stack = [head];
	for (let guard = 0; stack.length > 0 && guard < 5_000_000; guard++) {
		const node = stack.pop();
		const size = node.selfSize ?? 0;
		if (size > 0) {
			const bucket = bucketOf(node.callFrame?.url, node.callFrame?.functionName);
			byBucket.set(bucket, (byBucket.get(bucket) ?? 0) + size);
			total += size;
		}
		for (const child of node.children ?? []) stack.push(child);
	}
	const buckets = [...byBucket]
		.map(([bucket, bytes]) => ({ bucket, kb: bytes / 1024 }))
		.sort((a, b) => b.kb - a.kb);
	return { allocatedKb: total / 1024, allocatedBuckets: buckets.slice(0, 12) };
}

/**
 * The JavaScript heap n8n needs for `run`:
 * - allocated: every byte allocated during the run, garbage included (V8's sampling heap
 *   profiler with objects collected by minor and major GCs kept: a statistical estimate);
 * - peak: a forced garbage collection, the heap in use then (baseline), then
 *   Runtime.getHeapUsage polled every few ms during the run; peak minus baseline is a lower
 *   bound of the memory held at once (a collection between two polls hides what it freed).
 * @returns {Promise<object>}
 */
async function measureHeap(session, run) {
	await session.send('HeapProfiler.enable');
	await session.send('HeapProfiler.collectGarbage');
	await session.send('HeapProfiler.collectGarbage');
	const base = await session.send('Runtime.getHeapUsage');
	let peakUsed = base.usedSize;
	let peakTotal = base.totalSize;
	let polls = 0;
	let running = true;
	await session.send('HeapProfiler.startSampling', {
		samplingInterval: ALLOCATION_SAMPLING_BYTES,
		includeObjectsCollectedByMajorGC: true,
		includeObjectsCollectedByMinorGC: true,
	});
	const poller = (async () => {
		while (running && polls < MAX_HEAP_POLLS) {
			const h = await session.send('Runtime.getHeapUsage');
			polls += 1;
			peakUsed = Math.max(peakUsed, h.usedSize);
			peakTotal = Math.max(peakTotal, h.totalSize);
			await new Promise((resolve) => setTimeout(resolve, HEAP_POLL_MS));
		}
	})();
	let sampled;
	try {
		await run();
	} finally {
		running = false;
		await poller;
		sampled = await session.send('HeapProfiler.stopSampling');
	}
	await session.send('HeapProfiler.disable');
	return {
		baseUsedKb: base.usedSize / 1024,
		peakUsedKb: peakUsed / 1024,
		peakTotalKb: peakTotal / 1024,
		polls,
		...allocationTotals(sampled.profile.head),
	};
}

module.exports = { profileScenarios, measureHeap, bucketOf };
