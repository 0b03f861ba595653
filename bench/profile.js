'use strict';

// Where n8n's time and memory go, over its inspector: a CPU profile around a few runs of a
// workflow, aggregated by package (self time) and by function (inclusive time), and the
// JavaScript heap a run allocates and holds. n8n is started with --inspect-port (set, not open);
// SIGUSR1 opens the inspector on 127.0.0.1 only for these phases, after the timed ones. Node's
// own WebSocket speaks the protocol: no client library for a handful of calls.

const { poll } = require('../test/harness/poll');

const SAMPLING_INTERVAL_US = 250;
const ALLOCATION_SAMPLING_BYTES = 16 * 1024;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The inspector's debugger URL once SIGUSR1 has opened it. */
async function openInspector(pid, port) {
	process.kill(pid, 'SIGUSR1');
	const target = async () => {
		const list = await fetch(`http://127.0.0.1:${port}/json/list`, {
			signal: AbortSignal.timeout(1000),
		})
			.then((res) => /** @type {Promise<any[]>} */ (res.json()))
			.catch(() => []);
		return list.find((t) => t.webSocketDebuggerUrl)?.webSocketDebuggerUrl;
	};
	const url = await poll(target, (u) => !!u, 10_000, 100);
	if (!url) throw new Error(`inspector of pid ${pid} did not open on 127.0.0.1:${port}`);
	return url;
}

/**
 * Opens n8n's inspector and connects to it; close the session when done.
 * @returns {Promise<{ send: (method: string, params?: object) => Promise<any>, close: () => void }>}
 */
async function inspectorSession({ pid, port }) {
	const ws = new WebSocket(await openInspector(pid, port));
	const pending = new Map();
	ws.addEventListener('message', (event) => {
		const msg = JSON.parse(String(event.data));
		pending.get(msg.id)?.(msg);
		pending.delete(msg.id);
	});
	await new Promise((resolve, reject) => {
		ws.addEventListener('open', resolve);
		ws.addEventListener('error', () => reject(new Error('inspector websocket error')));
		setTimeout(() => reject(new Error('inspector websocket did not open')), 10_000).unref();
	});
	let nextId = 1;
	const send = (method, params = {}) =>
		new Promise((resolve, reject) => {
			const id = nextId++;
			const timer = setTimeout(() => reject(new Error(`inspector ${method} timed out`)), 30_000);
			pending.set(id, (msg) => {
				clearTimeout(timer);
				if (msg.error) reject(new Error(`inspector ${method}: ${JSON.stringify(msg.error)}`));
				else resolve(msg.result);
			});
			ws.send(JSON.stringify({ id, method, params }));
		});
	return { send, close: () => ws.close() };
}

const NATIVE = new Map([
	['(garbage collector)', 'V8 garbage collector'],
	['(idle)', '(idle)'],
	['(program)', 'V8/native (program)'],
]);

/** The package of a profile frame (the last node_modules/<pkg> of its URL), or a coarse bucket. */
function bucketOf(frame) {
	const { url, functionName } = frame ?? {};
	if (!url) return NATIVE.get(functionName) ?? `native: ${functionName || 'anonymous'}`;
	if (url.startsWith('node:')) {
		const mod = url.slice(5).replace(/^internal\//, '');
		if (/^(_http|http|https|net|stream|dns|tls|url|zlib|timers|events|buffer)/.test(mod))
			return 'Node.js core: http/net/streams/timers';
		return /^crypto/.test(mod) ? 'Node.js core: crypto' : 'Node.js core: other';
	}
	const pkg = /.*node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1];
	if (pkg === 'n8n-nodes-sound-search') return 'n8n-nodes-sound-search (this package)';
	if (pkg === 'n8n-nodes-base')
		return `n8n-nodes-base: ${/HttpRequest/.test(url) ? 'HTTP Request node' : 'other nodes'}`;
	return pkg ?? 'other scripts';
}

const add = (totals, key, value) => totals.set(key, (totals.get(key) ?? 0) + value);
/** A Map of totals as [{ [name]: key, [value]: total }], largest first. @returns {any[]} */
const sortedBy = (totals, name, value) =>
	[...totals].map(([k, v]) => ({ [name]: k, [value]: v })).sort((a, b) => b[value] - a[value]);

/**
 * Self time by bucket, and the inclusive time (a function and everything it called, recursion
 * counted once per sample) of the 150 costliest functions, of a V8 CPU profile. The first
 * sample's delta covers the profiler's own start (hundreds of ms): left out.
 */
function aggregate(profile) {
	const byId = new Map(profile.nodes.map((n) => [n.id, n]));
	const parent = new Map();
	for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
	const [self, inclusive] = [new Map(), new Map()];
	let totalMs = 0;
	for (let i = 1; i < profile.samples.length; i++) {
		const ms = (profile.timeDeltas[i] ?? 0) / 1000;
		totalMs += ms;
		add(self, bucketOf(byId.get(profile.samples[i])?.callFrame), ms);
		const seen = new Set();
		for (let id = profile.samples[i]; id !== undefined; id = parent.get(id)) {
			const frame = byId.get(id)?.callFrame;
			const key = frame?.url && `${bucketOf(frame)}: ${frame.functionName || '(anonymous)'}`;
			if (key && !seen.has(key)) add(inclusive, key, ms);
			seen.add(key);
		}
	}
	return {
		totalMs,
		samples: profile.samples.length,
		buckets: sortedBy(self, 'bucket', 'ms'),
		functions: sortedBy(inclusive, 'fn', 'ms').slice(0, 150),
	};
}

/**
 * Profiles n8n around each scenario (`run` called `times` times in a row).
 * @param {Array<{ label: string, times: number, run: () => Promise<void> }>} scenarios
 */
async function profileScenarios(session, scenarios) {
	const out = [];
	await session.send('Profiler.enable');
	await session.send('Profiler.setSamplingInterval', { interval: SAMPLING_INTERVAL_US });
	for (const { label, times, run } of scenarios) {
		await session.send('Profiler.start');
		const t0 = performance.now();
		for (let i = 0; i < times; i++) await run();
		const wallMs = performance.now() - t0;
		const { profile } = await session.send('Profiler.stop');
		out.push({ label, times, wallMs, ...aggregate(profile) });
	}
	await session.send('Profiler.disable');
	return { samplingIntervalUs: SAMPLING_INTERVAL_US, scenarios: out };
}

/** Bytes allocated in a sampling heap profile's tree, in total and by bucket, in KiB. */
function allocationTotals(head) {
	const byBucket = new Map();
	let total = 0;
	for (const stack = [head]; stack.length > 0; ) {
		const { selfSize = 0, callFrame, children = [] } = stack.pop();
		if (selfSize > 0) add(byBucket, bucketOf(callFrame), selfSize);
		total += Math.max(0, selfSize);
		stack.push(...children);
	}
	const buckets = sortedBy(byBucket, 'bucket', 'kb').map((b) => ({ ...b, kb: b.kb / 1024 }));
	return { allocatedKb: total / 1024, allocatedBuckets: buckets.slice(0, 12) };
}

/**
 * The JavaScript heap n8n needs for `run`. Allocated: every byte allocated during the run,
 * garbage included (V8's sampling heap profiler, keeping what minor and major GCs collected: an
 * estimate). Peak: after a forced collection, the heap in use (baseline), then polled every few
 * ms during the run; peak minus baseline is a lower bound (a collection between two polls hides
 * what it freed).
 */
async function measureHeap(session, run) {
	await session.send('HeapProfiler.enable');
	await session.send('HeapProfiler.collectGarbage');
	await session.send('HeapProfiler.collectGarbage');
	const base = await session.send('Runtime.getHeapUsage');
	let [peakUsed, running] = [base.usedSize, true];
	await session.send('HeapProfiler.startSampling', {
		samplingInterval: ALLOCATION_SAMPLING_BYTES,
		includeObjectsCollectedByMajorGC: true,
		includeObjectsCollectedByMinorGC: true,
	});
	const poller = (async () => {
		while (running) {
			const h = await session.send('Runtime.getHeapUsage');
			peakUsed = Math.max(peakUsed, h.usedSize);
			await sleep(5);
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
	const [baseUsedKb, peakUsedKb] = [base.usedSize / 1024, peakUsed / 1024];
	return { baseUsedKb, peakUsedKb, ...allocationTotals(sampled.profile.head) };
}

module.exports = { inspectorSession, profileScenarios, measureHeap };
