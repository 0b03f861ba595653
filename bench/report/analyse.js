'use strict';

// Derived figures of the report: paired per-round figures of the timing phase, growth of the
// scale and memory series, profile self time by category.

const { summarize, median, linearFit, growthExponent } = require('../stats');

/** @typedef {Record<string, any>} Row */

/** Values of `key` of the rows that match `where`. */
const pick = (rows, where, key = 'ms') =>
	rows.filter((r) => Object.entries(where).every(([k, v]) => r[k] === v)).map((r) => r[key]);

/** Per-round figures; r holds the round's run of each variant. Per page unless said. */
const PER_ROUND = {
	aNetE: (r) => r.node.ms - r.noop.ms - r['floor-new']?.ms,
	bNetE: (r) => r.http.ms - r.noop.ms - r['floor-new']?.ms,
	eCpuPage: (r) => r['floor-new']?.clientCpuMs,
	ratio: (r) => r.node.ms / r.http.ms, // not per page
	aGross: (r) => r.node.ms - r.floor.ms,
	bGross: (r) => r.http.ms - r.floor.ms,
	aNet: (r) => r.node.ms - r.noop.ms - r.floor.ms,
	bNet: (r) => r.http.ms - r.noop.ms - r.floor.ms,
	aCpuPage: (r) => r.node.n8nCpuMs - r.noop.n8nCpuMs,
	bCpuPage: (r) => r.http.n8nCpuMs - r.noop.n8nCpuMs,
	dCpuPage: (r) => r.floor.clientCpuMs,
};

/** @param {Row} time the timing phase's results */
function analyseTime(time) {
	const { runs, pages } = time;
	/** @type {Record<string, Record<string, ReturnType<typeof summarize>>>} */
	const stats = {};
	for (const v of time.variants) {
		const of = (key) => summarize(pick(runs, { variant: v }, key));
		stats[v] = {
			ms: of('ms'),
			n8nCpu: of('n8nCpuMs'),
			serviceCpu: of('serviceCpuMs'),
			clientCpu: of('clientCpuMs'),
		};
	}
	const rounds = [...new Set(runs.map((r) => r.round))];
	const perRound = rounds.map((round) => {
		const byVariant = Object.fromEntries(
			runs.filter((r) => r.round === round).map((r) => [r.variant, r]),
		);
		/** @type {Row} */
		const out = { round };
		for (const [key, f] of Object.entries(PER_ROUND))
			out[key] = key === 'ratio' ? f(byVariant) : f(byVariant) / pages;
		return out;
	});
	/** @type {Record<string, ReturnType<typeof summarize>>} */
	const paired = {};
	for (const key of Object.keys(PER_ROUND)) paired[key] = summarize(perRound.map((r) => r[key]));
	return { stats, perRound, paired, ratioOfMedians: stats.node.ms.median / stats.http.ms.median };
}

/** Rows by size of every variant of a series, and `fits` computed over them. */
function series(phase, row, fits) {
	/** @type {Record<string, any>} */
	const out = {};
	for (const v of [...new Set(phase.runs.map((r) => r.variant))]) {
		const rows = phase.sizes.map((size) => ({
			size,
			...row(phase.runs.filter((r) => r.variant === v && r.size === size)),
		}));
		const xs = rows.map((r) => r.size);
		const ys = (key) => rows.map((r) => r[key]);
		out[v] = { rows, ...fits(v, xs, ys) };
	}
	return out;
}

/** @param {Row} scale @param {number | undefined} noopMedianMs */
function analyseScale(scale, noopMedianMs) {
	const row = (runs) => ({
		pages: runs[0]?.pages,
		items: runs.map((r) => r.items),
		ms: median(runs.map((r) => r.ms)),
		n8nCpuMs: median(runs.map((r) => r.n8nCpuMs)),
		peakKb: Math.max(...runs.map((r) => r.peakKb)),
	});
	return series(scale, row, (v, xs, ys) => ({
		timeExponent: growthExponent(xs, ys('ms'), v === 'floor' ? 0 : (noopMedianMs ?? 0)),
		timeFit: linearFit(xs, ys('ms')),
		cpuExponent: growthExponent(xs, ys('n8nCpuMs')),
	}));
}

const OWN_BUCKET = 'n8n-nodes-sound-search (this package)';

/** @param {Row} memory */
function analyseMemory(memory) {
	const row = (runs) => ({
		allocatedKb: median(runs.map((r) => r.allocatedKb)),
		ownKb: median(
			runs.map((r) => r.allocatedBuckets?.find((b) => b.bucket === OWN_BUCKET)?.kb ?? 0),
		),
		needKb: median(runs.map((r) => r.peakUsedKb - r.baseUsedKb)),
		baseKb: median(runs.map((r) => r.baseUsedKb)),
		peakTotalKb: Math.max(...runs.map((r) => r.peakTotalKb)),
		peakRssKb: Math.max(...runs.map((r) => r.peakRssKb)),
	});
	return series(memory, row, (v, xs, ys) => ({
		fit: linearFit(xs, ys('allocatedKb')),
		exponent: growthExponent(xs, ys('allocatedKb')),
		heldFit: linearFit(xs, ys('needKb')),
		heldExponent: growthExponent(xs, ys('needKb')),
	}));
}

/** Median over rounds of node time / HTTP Request time in the several-keywords runs (paired). */
function keywordRatio(k) {
	const rounds = [...new Set(k.distinct.map((r) => r.round))];
	const ratios = rounds.map((round) => {
		const [a, b] = ['node', 'http'].map((variant) => pick(k.distinct, { round, variant })[0]);
		return a / b;
	});
	return median(ratios.filter(Number.isFinite));
}

/** Profile buckets grouped into the categories the report explains: [category, pattern]. */
const CATEGORIES = [
	[
		'Expression engine (isolated-vm sandbox)',
		/evalClosureSync|isolated-vm|expression-runtime|@n8n\/tournament|^native: (Isolate|createContext|Reference|ExternalCopy|Script|compileScript)/,
	],
	['n8n-workflow (parameters, expressions, data helpers)', /^n8n-workflow$/],
	[
		'HTTP client (axios, Node.js http/net)',
		/^(axios|follow-redirects|form-data|proxy-from-env|@n8n\/backend-network)$|http\/net|^native: (connect|writev|writeUtf8String|writeLatin1String|writeBuffer|close|getaddrinfo)/,
	],
	[
		'Database (credential reads, execution records)',
		/typeorm|sqlite3|^tarn$|^native: Backup|^native: (Statement|Database|run|all|get|each|exec|execute)$/,
	],
	[
		'Crypto (credential decryption)',
		/^Node\.js core: crypto|^native: (CipherBase|HKDFJob|Hash|Hmac|digest|update|final)$/,
	],
	[
		'Node.js core (promises, timers, other)',
		/^Node\.js core: other$|^native: (runMicrotasks|getLibuvNow|Callback)/,
	],
	['n8n-core (routing engine, request helpers)', /^n8n-core$/],
	['this package (n8n-nodes-sound-search)', /^n8n-nodes-sound-search \(this package\)$/],
	[null, /^n8n-nodes-base/], // the bucket itself
	['V8 garbage collector', /^V8 garbage collector$/],
	['V8/native, unattributed (program)', /^V8\/native \(program\)$/],
	['(idle: waiting for the network)', /^\(idle\)$/],
	['n8n (server, webhook, execution lifecycle)', /^n8n$/],
];

/** @param {string} bucket */
function categorise(bucket) {
	const hit = CATEGORIES.find(([, pattern]) => /** @type {RegExp} */ (pattern).test(bucket));
	if (!hit) return 'other packages and native functions';
	return /** @type {string} */ (hit[0] ?? bucket);
}

const IDLE = '(idle: waiting for the network)';

/** @param {Row} profile */
function analyseProfile(profile) {
	/** @type {Record<string, any>} */
	const per = {};
	for (const s of profile.scenarios) {
		/** @type {Map<string, number>} */
		const cats = new Map();
		for (const b of s.buckets)
			cats.set(categorise(b.bucket), (cats.get(categorise(b.bucket)) ?? 0) + b.ms);
		const busyMs = s.totalMs - (cats.get(IDLE) ?? 0);
		per[s.label] = { times: s.times, wallMs: s.wallMs, cats, functions: s.functions ?? [], busyMs };
	}
	return per;
}

module.exports = {
	pick,
	analyseTime,
	analyseScale,
	analyseMemory,
	keywordRatio,
	categorise,
	analyseProfile,
};
