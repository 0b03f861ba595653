'use strict';

// Derived figures of the report: paired per-round figures of the timing phase, growth of the
// scale and memory series, profile self time by category.

const { summarize, median, linearFit, growthExponent } = require('../stats');

/** Values of `key` of the rows that match `where`. */
const pick = (rows, where, key = 'ms') =>
	rows.filter((r) => Object.entries(where).every(([k, v]) => r[k] === v)).map((r) => r[key]);

/** Figures of a round from its run of each variant; per page, except the ratio. */
const PER_ROUND = {
	aNetE: (r) => r.node.ms - r.noop.ms - r['floor-new']?.ms,
	bNetE: (r) => r.http.ms - r.noop.ms - r['floor-new']?.ms,
	eCpuPage: (r) => r['floor-new']?.clientCpuMs,
	ratio: (r) => r.node.ms / r.http.ms,
	aGross: (r) => r.node.ms - r.floor.ms,
	bGross: (r) => r.http.ms - r.floor.ms,
	aNet: (r) => r.node.ms - r.noop.ms - r.floor.ms,
	bNet: (r) => r.http.ms - r.noop.ms - r.floor.ms,
	aCpuPage: (r) => r.node.n8nCpuMs - r.noop.n8nCpuMs,
	bCpuPage: (r) => r.http.n8nCpuMs - r.noop.n8nCpuMs,
	dCpuPage: (r) => r.floor.clientCpuMs,
};
const mapValues = (object, f) =>
	Object.fromEntries(Object.entries(object).map(([k, v]) => [k, f(v, k)]));

function analyseTime({ runs, pages, variants }) {
	const stats = Object.fromEntries(
		variants.map((variant) => {
			const keys = {
				ms: 'ms',
				n8nCpu: 'n8nCpuMs',
				serviceCpu: 'serviceCpuMs',
				clientCpu: 'clientCpuMs',
			};
			return [variant, mapValues(keys, (key) => summarize(pick(runs, { variant }, key)))];
		}),
	);
	const perRound = [...new Set(runs.map((r) => r.round))].map((round) => {
		const by = Object.fromEntries(runs.filter((r) => r.round === round).map((r) => [r.variant, r]));
		return { round, ...mapValues(PER_ROUND, (f, k) => (k === 'ratio' ? f(by) : f(by) / pages)) };
	});
	const paired = mapValues(PER_ROUND, (_, k) => summarize(perRound.map((r) => r[k])));
	return { stats, perRound, paired, ratioOfMedians: stats.node.ms.median / stats.http.ms.median };
}

/** Rows by size of every variant of a series (`row` of its runs at a size), with `fits`. */
function series(phase, row, fits) {
	const variants = [...new Set(phase.runs.map((r) => r.variant))];
	return Object.fromEntries(
		variants.map((v) => {
			const runsAt = (size) => phase.runs.filter((r) => r.variant === v && r.size === size);
			const rows = phase.sizes.map((size) => ({ size, ...row(runsAt(size)) }));
			const ys = (key) => rows.map((r) => r[key]);
			return [v, { rows, ...fits(v, phase.sizes, ys) }];
		}),
	);
}
const medianOf = (runs, f) => median(runs.map(f));
const maxOf = (runs, f) => Math.max(...runs.map(f));

function analyseScale(scale, noopMedianMs = 0) {
	const row = (runs) => ({
		pages: runs[0]?.pages,
		items: runs.map((r) => r.items),
		ms: medianOf(runs, (r) => r.ms),
		n8nCpuMs: medianOf(runs, (r) => r.n8nCpuMs),
		peakKb: maxOf(runs, (r) => r.peakKb),
	});
	return series(scale, row, (v, xs, ys) => ({
		timeExponent: growthExponent(xs, ys('ms'), v === 'floor' ? 0 : noopMedianMs),
		timeFit: linearFit(xs, ys('ms')),
		cpuExponent: growthExponent(xs, ys('n8nCpuMs')),
	}));
}

const OWN_BUCKET = 'n8n-nodes-sound-search (this package)';

function analyseMemory(memory) {
	const own = (r) => r.allocatedBuckets?.find((b) => b.bucket === OWN_BUCKET)?.kb ?? 0;
	const row = (runs) => ({
		allocatedKb: medianOf(runs, (r) => r.allocatedKb),
		ownKb: medianOf(runs, own),
		needKb: medianOf(runs, (r) => r.peakUsedKb - r.baseUsedKb),
		baseKb: medianOf(runs, (r) => r.baseUsedKb),
		peakRssKb: maxOf(runs, (r) => r.peakRssKb),
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
	const ratio = (round) =>
		pick(k.distinct, { round, variant: 'node' })[0] /
		pick(k.distinct, { round, variant: 'http' })[0];
	return median(rounds.map(ratio).filter(Number.isFinite));
}

/** Profile buckets grouped into the categories the report explains, first match wins. */
const CATEGORIES = {
	'Expression engine (isolated-vm sandbox)':
		/evalClosureSync|isolated-vm|expression-runtime|@n8n\/tournament|^native: (Isolate|createContext|Reference|ExternalCopy|Script|compileScript)/,
	'n8n-workflow (parameters, expressions, data helpers)': /^n8n-workflow$/,
	'HTTP client (axios, Node.js http/net)':
		/^(axios|follow-redirects|form-data|proxy-from-env|@n8n\/backend-network)$|http\/net|^native: (connect|writev|writeUtf8String|writeLatin1String|writeBuffer|close|getaddrinfo)/,
	'Database (credential reads, execution records)':
		/typeorm|sqlite3|^tarn$|^native: Backup|^native: (Statement|Database|run|all|get|each|exec|execute)$/,
	'Crypto (credential decryption)':
		/^Node\.js core: crypto|^native: (CipherBase|HKDFJob|Hash|Hmac|digest|update|final)$/,
	'Node.js core (promises, timers, other)':
		/^Node\.js core: other$|^native: (runMicrotasks|getLibuvNow|Callback)/,
	'n8n-core (routing engine, request helpers)': /^n8n-core$/,
	'this package (n8n-nodes-sound-search)': /^n8n-nodes-sound-search \(this package\)$/,
	'': /^n8n-nodes-base/, // a category of its own: the bucket itself
	'V8 garbage collector': /^V8 garbage collector$/,
	'V8/native, unattributed (program)': /^V8\/native \(program\)$/,
	'(idle: waiting for the network)': /^\(idle\)$/,
	'n8n (server, webhook, execution lifecycle)': /^n8n$/,
};

/** @param {string} bucket @returns {string} */
function categorise(bucket) {
	const hit = Object.entries(CATEGORIES).find(([, pattern]) => pattern.test(bucket));
	return hit ? hit[0] || bucket : 'other packages and native functions';
}

function analyseProfile(profile) {
	const per = {};
	for (const s of profile.scenarios) {
		const cats = new Map();
		for (const { bucket, ms } of s.buckets)
			cats.set(categorise(bucket), (cats.get(categorise(bucket)) ?? 0) + ms);
		const busyMs = s.totalMs - (cats.get('(idle: waiting for the network)') ?? 0);
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
