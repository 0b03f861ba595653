'use strict';

// Renders the benchmark results (from run.js, also kept in .cache/bench/last-results.json) as
// BENCHMARKS.md: summary with a verdict per target, machine and conditions, versions, commands,
// method, one section per measurement, and the raw figures.
//
// Re-render without measuring again: node bench/report.js [.cache/bench/last-results.json] [out]

const fs = require('node:fs');
const path = require('node:path');
const { summarize, median, linearFit, growthExponent } = require('./stats');
const { f0, f1, f2, f3, mib, int, table } = require('./format');
const { keywordScaleVerdicts, keywordScaleSection } = require('./keywordScaleReport');

const TARGET_RATIO = 1.0;
const TARGET_PER_PAGE_MS = 2;
const LINEAR_EXPONENT_MAX = 1.15; // y ~ x^k between 1,000 and 10,000 items: k <= 1.15 counts as linear
const BUSY_FOREIGN_CORES = 0.15; // default of --max-foreign-cores (older results)

const LABELS = {
	node: '(a) Sound Search node',
	http: '(b) HTTP Request + Split Out',
	noop: '(c) no-op workflow',
	floor: '(d) undici loop, outside n8n',
	'floor-new': '(e) = (d) with a new connection per page',
	'scale-node': 'Sound Search node',
	'scale-http': 'HTTP Request + Split Out',
};

function byVariant(runs, variant, key = 'ms') {
	return runs.filter((r) => r.variant === variant).map((r) => r[key]);
}

// ---------------------------------------------------------------------------------------------
// Derived figures

function analyseTime(time) {
	const { runs, pages } = time;
	const stats = {};
	for (const v of time.variants) {
		stats[v] = {
			ms: summarize(byVariant(runs, v)),
			n8nCpu: summarize(byVariant(runs, v, 'n8nCpuMs')),
			serviceCpu: summarize(byVariant(runs, v, 'serviceCpuMs')),
			clientCpu: summarize(byVariant(runs, v, 'clientCpuMs')),
		};
	}
	// Paired by round (the four variants of a round ran back to back).
	const rounds = [...new Set(runs.map((r) => r.round))];
	const perRound = rounds.map((round) => {
		const get = (v) => runs.find((r) => r.round === round && r.variant === v);
		const [a, b, c, d, e] = ['node', 'http', 'noop', 'floor', 'floor-new'].map(get);
		return {
			round,
			aNetE: e ? (a.ms - c.ms - e.ms) / pages : NaN,
			bNetE: e ? (b.ms - c.ms - e.ms) / pages : NaN,
			eCpuPage: e ? e.clientCpuMs / pages : NaN,
			ratio: a.ms / b.ms,
			aGross: (a.ms - d.ms) / pages,
			bGross: (b.ms - d.ms) / pages,
			aNet: (a.ms - c.ms - d.ms) / pages,
			bNet: (b.ms - c.ms - d.ms) / pages,
			aCpuPage: (a.n8nCpuMs - c.n8nCpuMs) / pages,
			bCpuPage: (b.n8nCpuMs - c.n8nCpuMs) / pages,
			dCpuPage: d.clientCpuMs / pages,
		};
	});
	const paired = {};
	for (const key of [
		'ratio',
		'aGross',
		'bGross',
		'aNet',
		'bNet',
		'aCpuPage',
		'bCpuPage',
		'dCpuPage',
		'aNetE',
		'bNetE',
		'eCpuPage',
	]) {
		paired[key] = summarize(perRound.map((r) => r[key]));
	}
	return { stats, perRound, paired, ratioOfMedians: stats.node.ms.median / stats.http.ms.median };
}

function analyseScale(scale, noopMedianMs) {
	const variants = [...new Set(scale.runs.map((r) => r.variant))];
	const out = {};
	for (const v of variants) {
		const rows = scale.sizes.map((size) => {
			const runs = scale.runs.filter((r) => r.variant === v && r.size === size);
			const first = runs[0];
			return {
				size,
				pages: first?.pages,
				items: runs.map((r) => r.items),
				ms: median(runs.map((r) => r.ms)),
				msAll: runs.map((r) => r.ms),
				n8nCpuMs: median(runs.map((r) => r.n8nCpuMs)),
				peakKb: Math.max(...runs.map((r) => r.peakKb)),
			};
		});
		const xs = rows.map((r) => r.size);
		const fixed = v === 'floor' ? 0 : (noopMedianMs ?? 0);
		out[v] = {
			rows,
			timeExponent: growthExponent(
				xs,
				rows.map((r) => r.ms),
				fixed,
			),
			timeFit: linearFit(
				xs,
				rows.map((r) => r.ms),
			),
			cpuExponent: growthExponent(
				xs,
				rows.map((r) => r.n8nCpuMs),
			),
		};
	}
	return out;
}

function analyseMemory(memory) {
	const out = {};
	for (const v of [...new Set(memory.runs.map((r) => r.variant))]) {
		const rows = memory.sizes.map((size) => {
			const runs = memory.runs.filter((r) => r.variant === v && r.size === size);
			return {
				size,
				allocatedKb: median(runs.map((r) => r.allocatedKb)),
				ownKb: median(
					runs.map(
						(r) =>
							r.allocatedBuckets?.find((b) => b.bucket === 'n8n-nodes-sound-search (this package)')
								?.kb ?? 0,
					),
				),
				needKb: median(runs.map((r) => r.peakUsedKb - r.baseUsedKb)),
				baseKb: median(runs.map((r) => r.baseUsedKb)),
				peakTotalKb: Math.max(...runs.map((r) => r.peakTotalKb)),
				peakRssKb: Math.max(...runs.map((r) => r.peakRssKb)),
			};
		});
		const xs = rows.map((r) => r.size);
		out[v] = {
			rows,
			fit: linearFit(
				xs,
				rows.map((r) => r.allocatedKb),
			),
			exponent: growthExponent(
				xs,
				rows.map((r) => r.allocatedKb),
			),
			heldFit: linearFit(
				xs,
				rows.map((r) => r.needKb),
			),
			heldExponent: growthExponent(
				xs,
				rows.map((r) => r.needKb),
			),
		};
	}
	return out;
}

/** Median over rounds of node time / HTTP Request time in the several-keywords runs (paired). */
function keywordRatio(k) {
	const rounds = [...new Set(k.distinct.map((r) => r.round))];
	const ratios = rounds
		.map((round) => {
			const a = k.distinct.find((r) => r.round === round && r.variant === 'node');
			const b = k.distinct.find((r) => r.round === round && r.variant === 'http');
			return a && b ? a.ms / b.ms : NaN;
		})
		.filter(Number.isFinite);
	return median(ratios);
}

/** Profile buckets grouped into the categories the report explains. */
function categorise(bucket) {
	if (
		/evalClosureSync|isolated-vm|expression-runtime|@n8n\/tournament|^native: (Isolate|createContext|Reference|ExternalCopy|Script|compileScript)/.test(
			bucket,
		)
	) {
		return 'Expression engine (isolated-vm sandbox)';
	}
	if (bucket === 'n8n-workflow') return 'n8n-workflow (parameters, expressions, data helpers)';
	if (
		/^(axios|follow-redirects|form-data|proxy-from-env|@n8n\/backend-network)$/.test(bucket) ||
		/http\/net|^native: (connect|writev|writeUtf8String|writeLatin1String|writeBuffer|close|getaddrinfo)/.test(
			bucket,
		)
	) {
		return 'HTTP client (axios, Node.js http/net)';
	}
	if (
		/typeorm|sqlite3|^tarn$|^native: Backup|^native: (Statement|Database|run|all|get|each|exec|execute)$/.test(
			bucket,
		)
	)
		return 'Database (credential reads, execution records)';
	if (
		/^Node\.js core: crypto|^native: (CipherBase|HKDFJob|Hash|Hmac|digest|update|final)$/.test(
			bucket,
		)
	)
		return 'Crypto (credential decryption)';
	if (
		bucket === 'Node.js core: other' ||
		/^native: (runMicrotasks|getLibuvNow|Callback)/.test(bucket)
	)
		return 'Node.js core (promises, timers, other)';
	if (bucket === 'n8n-core') return 'n8n-core (routing engine, request helpers)';
	if (bucket === 'n8n-nodes-sound-search (this package)')
		return 'this package (n8n-nodes-sound-search)';
	if (bucket.startsWith('n8n-nodes-base')) return bucket;
	if (bucket === 'V8 garbage collector') return 'V8 garbage collector';
	if (bucket === 'V8/native (program)') return 'V8/native, unattributed (program)';
	if (bucket === '(idle)') return '(idle: waiting for the network)';
	if (bucket === 'n8n') return 'n8n (server, webhook, execution lifecycle)';
	return 'other packages and native functions';
}

function analyseProfile(profile) {
	const per = {};
	for (const s of profile.scenarios) {
		const cats = new Map();
		for (const b of s.buckets) {
			const c = categorise(b.bucket);
			cats.set(c, (cats.get(c) ?? 0) + b.ms);
		}
		per[s.label] = {
			times: s.times,
			wallMs: s.wallMs,
			cats,
			functions: s.functions ?? [],
			busyMs: s.totalMs - (cats.get('(idle: waiting for the network)') ?? 0),
		};
	}
	return per;
}

// ---------------------------------------------------------------------------------------------
// Sections

function conditionsOf(results) {
	const phases = results.phases;
	const foreign = Object.entries(phases)
		.filter(([, p]) => p && p.cpu)
		.map(([name, p]) => ({ name, ...p.cpu }));
	const maxForeign = Math.max(0, ...foreign.map((x) => x.foreignCores));
	const timeForeign = phases.time?.cpu?.foreignCores ?? NaN;
	const quiet =
		results.quiet.quiet &&
		!(timeForeign >= (results.options.maxForeignCores ?? BUSY_FOREIGN_CORES));
	return { foreign, maxForeign, timeForeign, quiet };
}

function verdicts(results, t, s, m) {
	const out = [];
	const { phases } = results;
	if (t) {
		const ratio = t.paired.ratio;
		const met = ratio.median <= TARGET_RATIO;
		const ci = ratio.ci95
			? ` (95 % CI of the median ${f3(ratio.ci95[0])}–${f3(ratio.ci95[1])})`
			: '';
		out.push({
			target: `(a)/(b) ≤ ${TARGET_RATIO.toFixed(1)} on time`,
			result: `median per-round ratio **${f3(ratio.median)}**${ci}; ratio of medians ${f3(t.ratioOfMedians)}`,
			verdict: met ? 'met' : `missed by ${f3(ratio.median - TARGET_RATIO)}`,
		});
		const net = t.paired.aNet.median;
		const gross = t.paired.aGross.median;
		const metPage = net <= TARGET_PER_PAGE_MS;
		out.push({
			target: `node overhead per page within ${TARGET_PER_PAGE_MS} ms of the raw floor`,
			result: `**${f2(net)} ms** per page over (d), after n8n's own floor (c); ${f2(gross)} ms per page with (c) included. HTTP Request: ${f2(t.paired.bNet.median)} ms`,
			verdict: metPage
				? 'met'
				: `missed by ${f2(net - TARGET_PER_PAGE_MS)} ms per page (see [why](#why-the-per-page-target-is-missed))`,
		});
	}
	if (s && s['scale-node']) {
		const node = s['scale-node'];
		const last = node.rows[node.rows.length - 1];
		const first = node.rows[0];
		const itemsOk = last.items.every((n) => n === last.size);
		const linearTime = node.timeExponent <= LINEAR_EXPONENT_MAX;
		const heap = m?.['scale-node'];
		const memOk = heap ? heap.exponent <= LINEAR_EXPONENT_MAX : true;
		const heapText = heap
			? `; memory allocated by the run ${f0(heap.rows[0].allocatedKb / 1024)} MiB at ${int(heap.rows[0].size)} → ${f0(heap.rows[heap.rows.length - 1].allocatedKb / 1024)} MiB at ${int(heap.rows[heap.rows.length - 1].size)} (exponent ${f2(heap.exponent)}), held at once ${f1(heap.rows[heap.rows.length - 1].needKb / 1024)} MiB at ${int(heap.rows[heap.rows.length - 1].size)}`
			: '';
		out.push({
			target: `${int(last.size)} items, linear growth`,
			result: `${int(last.size)} items out (every run) in ${f1(last.ms / 1000)} s; n8n peak RSS ${mib(last.peakKb)} MiB; time ${int(first.size)}→${int(last.size)}: ×${f1(last.ms / first.ms)} (exponent ${f2(node.timeExponent)} after n8n's fixed floor; 1 = linear, 2 = quadratic)${heapText}`,
			verdict:
				itemsOk && linearTime && memOk
					? 'met'
					: `missed: ${[!itemsOk && 'items', !linearTime && `time exponent ${f2(node.timeExponent)}`, !memOk && `memory exponent ${f2(heap.exponent)}`].filter(Boolean).join(', ')}`,
		});
	}
	if (phases.keywords) {
		const k = phases.keywords;
		const kwNode = median(k.distinct.filter((r) => r.variant === 'node').map((r) => r.ms));
		const kwHttp = median(k.distinct.filter((r) => r.variant === 'http').map((r) => r.ms));
		const ratio = keywordRatio(k);
		out.push({
			target: `(a)/(b) with ${k.keywords.length} keywords, one page each (the time target applied to section 4)`,
			result: `${f2(kwNode / k.keywords.length)} ms per keyword against ${f2(kwHttp / k.keywords.length)} ms: median per-round ratio **${f2(ratio)}** (${k.rounds} rounds)`,
			verdict:
				ratio <= TARGET_RATIO
					? 'met'
					: `missed by ${f2(ratio - TARGET_RATIO)} (see [section 4](#4-several-input-items-${k.keywords.length}-keywords))`,
		});
	}
	if (phases.keylists) out.push(...keywordScaleVerdicts(phases.keylists));
	if (phases.credits || phases.keywords) {
		const cases = phases.credits?.cases ?? [];
		const repeats = phases.keywords?.repeats?.filter((r) => r.variant === 'node') ?? [];
		const distinct = phases.keywords?.distinct?.filter((r) => r.variant === 'node') ?? [];
		const all = [
			...cases.map((c) => c.credits === c.minCredits && c.calls === c.minCalls),
			...repeats.map((r) => r.credits === r.minCredits),
			...distinct.map((r) => r.credits === phases.keywords.minCreditsDistinct),
		];
		const wasted =
			cases.reduce((sum, c) => sum + Math.max(0, c.credits - c.minCredits), 0) +
			repeats.reduce((sum, r) => sum + Math.max(0, r.credits - r.minCredits), 0);
		out.push({
			target: 'credits spent equal to the minimum in every case',
			result: `${all.filter(Boolean).length} of ${all.length} cases at the minimum (Limit matrix on both platforms, Return All, 50 keywords, repeated keywords); ${wasted} credits wasted`,
			verdict: all.every(Boolean) ? 'met' : `missed: ${wasted} credits over the minimum`,
		});
	}
	return out;
}

function timeSection(results, t) {
	const time = results.phases.time;
	const { stats, paired } = t;
	const pages = time.pages;
	const lines = [];
	lines.push(`## 1. Time: Return All over ${pages} pages of ${time.pageSize} sounds`);
	lines.push('');
	lines.push(
		`${time.rounds} rounds after ${time.warmup} warm-up rounds; in each round the variants ran back to back, in an order rotated from round to round, against the same reference service (cache off, so every page is a fresh reading for every variant). Every run was checked: ${int(pages * time.pageSize)} sounds out, all distinct, ${pages} calls recorded by the service (0 for the no-op). Times are wall times seen by the caller (webhook request to complete answer; for (d) the first request to the last page parsed).`,
	);
	lines.push('');
	lines.push(
		table(
			[
				'Variant',
				'median ms',
				'95 % CI of median',
				'p25–p75',
				'p10–p90',
				'min–max',
				'n8n CPU ms (median)',
				'service CPU ms',
			],
			time.variants.map((v) => {
				const m = stats[v].ms;
				return [
					LABELS[v],
					`**${f1(m.median)}**`,
					m.ci95 ? `${f1(m.ci95[0])}–${f1(m.ci95[1])}` : 'n/a',
					`${f1(m.p25)}–${f1(m.p75)}`,
					`${f1(m.p10)}–${f1(m.p90)}`,
					`${f1(m.min)}–${f1(m.max)}`,
					v.startsWith('floor')
						? `– (client: ${f0(stats[v].clientCpu.median)})`
						: f0(stats[v].n8nCpu.median),
					f0(stats[v].serviceCpu.median),
				];
			}),
		),
	);
	const attempts = time.attempts ?? [];
	if (attempts.length > 1) {
		lines.push('');
		const others = attempts
			.filter((x) => x.runs)
			.map((x) => {
				const a = analyseTime({ ...time, runs: x.runs });
				return `attempt ${x.attempt}: other processes used ${f2(x.foreignCores)} cores; (a) ${f1(a.stats.node.ms.median)} ms, (b) ${f1(a.stats.http.ms.median)} ms, (a)/(b) ${f3(a.paired.ratio.median)}, (a) per-page overhead ${f2(a.paired.aNet.median)} ms`;
			});
		lines.push(
			`The timing phase was run ${attempts.length} times because other processes disturbed it (more than ${results.options.maxForeignCores} cores); the least disturbed attempt (${time.attempt}, ${f2(time.cpu.foreignCores)} cores) is reported. The others, for the record: ${others.join('; ')}.`,
		);
	}
	lines.push('');
	lines.push('Derived, per round (paired), then the median and the spread over the rounds:');
	lines.push('');
	const row = (label, s, unit = 'ms') => [
		label,
		`**${f2(s.median)}**${unit ? ` ${unit}` : ''}`,
		`${f2(s.p25)}–${f2(s.p75)}`,
		`${f2(s.p10)}–${f2(s.p90)}`,
	];
	lines.push(
		table(
			['Figure', 'median', 'p25–p75', 'p10–p90'],
			[
				row('(a)/(b) time ratio', paired.ratio, ''),
				row('(a) per-page overhead over (d): ((a) − (c) − (d)) / pages', paired.aNet),
				row('(b) per-page overhead over (d): ((b) − (c) − (d)) / pages', paired.bNet),
				row('(a) per page over (d), n8n floor included: ((a) − (d)) / pages', paired.aGross),
				row('(b) per page over (d), n8n floor included: ((b) − (d)) / pages', paired.bGross),
				row('(a) n8n CPU per page (above the no-op)', paired.aCpuPage),
				row('(b) n8n CPU per page (above the no-op)', paired.bCpuPage),
				row('(d) client CPU per page (undici loop)', paired.dCpuPage),
				...(Number.isFinite(paired.aNetE.median)
					? [
							row('(a) per-page overhead over (e): ((a) − (c) − (e)) / pages', paired.aNetE),
							row('(b) per-page overhead over (e): ((b) − (c) − (e)) / pages', paired.bNetE),
							row('(e) client CPU per page', paired.eCpuPage),
						]
					: []),
			],
		),
	);
	lines.push('');
	lines.push(
		`Per call, the raw floor (d) costs ${f2(stats.floor.ms.median / pages)} ms of wall time (the reference service building a page of ${time.pageSize} sounds and the loopback round trip); n8n's own floor (c), a webhook that runs a no-op workflow and answers, costs ${f1(stats.noop.ms.median)} ms per execution, once.`,
	);
	return lines.join('\n');
}

/** What the credential's authenticate does, as measured from the installed package. */
function authText(auth) {
	if (!auth) return '';
	if (auth.kind === 'function') return ' (a function: no expression to resolve)';
	const headers = auth.properties?.headers ?? {};
	const expressions = Object.entries(headers).filter(
		([, v]) => typeof v === 'string' && v.startsWith('='),
	);
	if (expressions.length === 0) return '';
	return `; its ${expressions.map(([k, v]) => `\`${k}: ${v}\``).join(', ')} header is an expression, resolved in the isolated-vm sandbox on every request`;
}

function whySection(results, t, p) {
	const lines = [];
	lines.push('### Why the per-page target is missed');
	lines.push('');
	const time = results.phases.time;
	const pages = time.pages;
	lines.push(
		`Per page, the node costs ${f2(t.paired.aNet.median)} ms of wall time and ${f2(t.paired.aCpuPage.median)} ms of n8n CPU over the floor; the raw undici loop spends ${f2(t.paired.dCpuPage.median)} ms of client CPU per page. The built-in HTTP Request node, doing the same job, costs ${f2(t.paired.bNet.median)} ms (${f2(t.paired.bCpuPage.median)} ms CPU) per page. So the cost is in what n8n does around every request, which every node that makes one request per page pays; the CPU profile below shows where.`,
	);
	if (p && p.node) {
		const node = p.node;
		const perPage = (ms) => ms / node.times / pages;
		const cats = [...node.cats].filter(([c]) => !c.startsWith('(idle')).sort((a, b) => b[1] - a[1]);
		const own = node.cats.get('this package (n8n-nodes-sound-search)') ?? 0;
		lines.push('');
		lines.push(
			`In the profiled runs of (a) (section 5), n8n's main thread was busy ${f2(perPage(node.busyMs))} ms per page. This package's own code (paginator, input checks, page reading, item building) took ${f3(perPage(own))} ms of it; the largest parts are n8n's: ${cats
				.slice(0, 4)
				.map(([c, ms]) => `${c} ${f2(perPage(ms))} ms`)
				.join(', ')}.`,
		);
		const fn = new Map(node.functions.map((x) => [x.fn, x.ms]));
		const ownTop = node.functions.find((x) =>
			x.fn.startsWith('n8n-nodes-sound-search (this package): '),
		);
		const markers = [
			[
				'n8n-core: httpRequestWithAuthentication',
				"n8n's authenticated request helper, called by the node once per page",
			],
			[
				'n8n-core: getCredentials',
				'inside it: reading the credential from the database and decrypting it, on every request',
			],
			[
				'n8n: authenticate',
				`inside it: applying the credential${authText(results.credentialAuthenticate)}`,
			],
			[
				'axios: dispatchRequest',
				'inside it: axios sending the request (n8n gives every request a new HTTP agent, so a new TCP connection)',
			],
			[
				'@n8n/expression-runtime: evaluate',
				'every expression evaluation of the run, in the sandbox',
			],
			...(ownTop
				? [[ownTop.fn, "this package's outermost function, inclusive of the n8n helpers it calls"]]
				: []),
		].filter(([key]) => fn.has(key));
		if (markers.length > 0) {
			lines.push('');
			lines.push(
				'Inclusive time of a few functions (the function and what it calls), per page, in the profiled runs of (a). Only synchronous stacks count: work resumed from the event loop (database and socket callbacks) is counted where it resumes, so the rows overlap and do not add up:',
			);
			lines.push('');
			lines.push(
				table(
					['Function', 'ms per page', 'What it is'],
					markers.map(([key, what]) => [`\`${key}\``, f3(perPage(fn.get(key))), what]),
				),
			);
		}
	}
	if (Number.isFinite(t.paired.aNetE.median)) {
		lines.push('');
		lines.push(
			`Connection set-up alone accounts for part of the gap: the floor with a new connection per page, (e), is ${f2((t.stats['floor-new'].ms.median - t.stats.floor.ms.median) / pages)} ms per page slower than (d), and against (e) the node's per-page overhead is ${f2(t.paired.aNetE.median)} ms.`,
		);
	}
	lines.push('');
	lines.push(
		`So the per-page cost is n8n's request path (credential read and decryption, ${results.credentialAuthenticate?.kind === 'function' ? '' : "the credential's header expression, "}a new connection, axios), which every node that calls an API with a credential pays on every request; HTTP Request pays it too, plus its pagination expressions. This package's own per-page work is a small fraction of it. The node meets the target set against the alternative ((a)/(b)); the per-page target of 2 ms over a raw client is missed by the amount above.`,
	);
	return lines.join('\n');
}

function profileTable(p, labels, perUnit, unitOf) {
	const cats = new Set();
	for (const l of labels) for (const c of p[l].cats.keys()) cats.add(c);
	const order = [...cats].sort(
		(a, b) => (p[labels[0]]?.cats.get(b) ?? 0) - (p[labels[0]]?.cats.get(a) ?? 0),
	);
	const shared = labels.filter((l) => l !== 'noop');
	return table(
		[
			'Category',
			...labels.map((l) => `${l}: ms/${unitOf(l)}`),
			...shared.map((l) => `${l}: share of busy`),
		],
		order.map((c) => [
			c,
			...labels.map((l) => f3((p[l].cats.get(c) ?? 0) / p[l].times / perUnit(l))),
			...shared.map((l) =>
				c.startsWith('(idle') ? '–' : `${f0((100 * (p[l].cats.get(c) ?? 0)) / p[l].busyMs)} %`,
			),
		]),
	);
}

function profileSection(results, p) {
	const { pages, keywords } = results.phases.profile;
	const labels = Object.keys(p);
	const pageLabels = labels.filter((l) => !l.startsWith('keywords'));
	const keywordLabels = labels.filter((l) => l.startsWith('keywords'));
	const lines = [];
	lines.push('## 5. Where the time goes: CPU profile of n8n');
	lines.push('');
	lines.push(
		`After the timed phases, n8n's inspector was opened on 127.0.0.1 (SIGUSR1) and V8's sampling profiler (every ${results.phases.profile.samplingIntervalUs} µs) recorded ${labels.map((l) => `${p[l].times} runs of ${l}`).join(', ')}. Self time by category; "(idle)" is the main thread waiting for the network. The profiler slows the process down, so read the shares, not the absolute values.`,
	);
	lines.push('');
	lines.push(`Return All over ${pages} pages, in ms per page (per run for the no-op):`);
	lines.push('');
	lines.push(
		profileTable(
			p,
			pageLabels,
			(l) => (l === 'noop' ? 1 : pages),
			(l) => (l === 'noop' ? 'run' : 'page'),
		),
	);
	if (keywordLabels.length > 0 && keywords) {
		lines.push('');
		lines.push(`${keywords} keywords, one page each, in ms per keyword:`);
		lines.push('');
		lines.push(
			profileTable(
				p,
				keywordLabels,
				() => keywords,
				() => 'keyword',
			),
		);
	}
	return lines.join('\n');
}

function scaleSection(results, s, m) {
	const scale = results.phases.scale;
	const lines = [];
	lines.push(`## 2. Scale: Return All of ${scale.sizes.map(int).join(', ')} sounds`);
	lines.push('');
	lines.push(
		`Pages of ${scale.pageSize} (the service's cap; Max Pages raised to 1,000 on the node, Max Pages 1,000 on the HTTP Request pagination), ${scale.reps} repetition(s) of the sizes in ascending order, the variants rotated. Peak memory: VmHWM of the n8n process (its own pid, not the harness's supervisor), reset before each run by writing 5 to /proc/<pid>/clear_refs, so it is the peak of that run. n8n's JavaScript task runner is a separate process (see below).`,
	);
	lines.push('');
	const rows = [];
	for (const [v, a] of Object.entries(s)) {
		for (const r of a.rows) {
			rows.push([
				LABELS[v] ?? v,
				int(r.size),
				String(r.pages),
				r.items.join(', '),
				`**${f0(r.ms)}**`,
				f3(r.ms / r.size),
				v === 'floor' ? '–' : f0(r.n8nCpuMs),
				v === 'floor' ? '–' : mib(r.peakKb),
			]);
		}
	}
	lines.push(
		table(
			[
				'Variant',
				'sounds',
				'pages',
				'items out',
				'wall ms (median)',
				'ms per sound',
				'n8n CPU ms',
				'n8n peak RSS MiB',
			],
			rows,
		),
	);
	lines.push('');
	const marginal = (a) =>
		a.rows
			.slice(1)
			.map((r, i) => `${f0(((r.ms - a.rows[i].ms) / (r.size - a.rows[i].size)) * 1000)}`)
			.join(' / ');
	const steps = scale.sizes
		.slice(1)
		.map((size, i) => `${int(scale.sizes[i] / 1000)}k→${int(size / 1000)}k`)
		.join(' / ');
	const growth = Object.entries(s).map(([v, a]) => {
		const first = a.rows[0];
		const last = a.rows[a.rows.length - 1];
		return [
			LABELS[v] ?? v,
			`×${f1(last.ms / first.ms)}`,
			marginal(a),
			f2(a.timeExponent),
			f3(a.timeFit.r2),
			`${f2(a.timeFit.slope * 1000)} ms`,
			v === 'floor' ? '–' : f2(a.cpuExponent),
		];
	});
	lines.push(
		table(
			[
				'Variant',
				`time ${int(scale.sizes[0])}→${int(scale.sizes[scale.sizes.length - 1])}`,
				`ms per 1,000 more sounds (${steps})`,
				'time exponent (1 = linear)',
				'R² of a straight line',
				'slope per 1,000 sounds',
				'n8n CPU exponent',
			],
			growth,
		),
	);
	lines.push('');
	lines.push(
		`Exponent k of time ~ sounds^k between the smallest and the largest size, after subtracting n8n's fixed per-execution floor (the no-op median) for the n8n variants: 1 is linear, 2 would be quadratic copying; below 1 means fixed costs (first pages, workflow start) still weigh at the small sizes. The marginal cost per 1,000 more sounds stays flat from step to step when growth is linear; quadratic copying would make it grow with the size.`,
	);
	lines.push('');
	lines.push(
		`n8n's resident memory (RSS) hardly moves during these runs (the peak of each run is within a few MiB of the RSS before it; raw figures below): it was ${mib(results.n8nMemoryAfterStart?.rssKb)} MiB after start, and V8 had already grown its heap during the earlier phases, so a run reuses memory the process holds. What a run needs is measured below instead.`,
	);
	if (m) {
		const memory = results.phases.memory;
		lines.push('');
		lines.push(
			`**Memory a run needs.** After the timed phases, with n8n's inspector open, ${memory.reps} repetition(s) after one unrecorded run of each variant, medians. *Allocated*: every byte the run allocated, garbage included (V8's sampling heap profiler, every ~16 KiB, keeping objects collected by minor and major GCs: an estimate); quadratic copying of pages would make it grow with the square of the size. *Held at once*: a forced garbage collection, the heap in use then (baseline), the heap polled every few ms during the run; peak minus baseline, a lower bound (a collection between two polls hides what it freed).`,
		);
		lines.push('');
		const rows = [];
		for (const [v, a] of Object.entries(m)) {
			for (const r of a.rows) {
				rows.push([
					LABELS[v] ?? v,
					int(r.size),
					`**${f1(r.allocatedKb / 1024)}**`,
					f2(r.allocatedKb / r.size),
					v === 'scale-node' ? f1(r.ownKb / 1024) : '–',
					f1(r.needKb / 1024),
					f0(r.baseKb / 1024),
					mib(r.peakRssKb),
				]);
			}
		}
		lines.push(
			table(
				[
					'Variant',
					'sounds',
					'allocated MiB',
					'allocated KiB per sound',
					'of it by this package, MiB',
					'held at once MiB',
					'heap baseline MiB',
					'n8n peak RSS MiB',
				],
				rows,
			),
		);
		lines.push('');
		lines.push(
			table(
				[
					'Variant',
					'allocated: exponent (1 = linear)',
					'allocated per 1,000 more sounds',
					'R²',
					'held at once: per 1,000 more sounds',
				],
				Object.entries(m).map(([v, a]) => [
					LABELS[v] ?? v,
					f2(a.exponent),
					`${f1((a.fit.slope * 1000) / 1024)} MiB`,
					f3(a.fit.r2),
					`${f1((a.heldFit.slope * 1000) / 1024)} MiB (R² ${f2(a.heldFit.r2)})`,
				]),
			),
		);
	}
	lines.push('');
	lines.push(
		`n8n's JavaScript task runner (a separate process, idle here: no Code node) peaked at ${mib(Math.max(...scale.runs.map((r) => r.runnerPeakKb)))} MiB RSS.`,
	);
	return lines.join('\n');
}

function creditsSection(results) {
	const credits = results.phases.credits;
	const lines = [];
	lines.push('## 3. Credits: Limit matrix and Return All');
	lines.push('');
	lines.push(
		`Query with ${credits.cases[0]?.total} matching sounds (catalogue override); the service's cache emptied before each case, so every call is a fresh, charged reading. Minimum calls = max(1, ⌈min(Limit, results) / page size⌉): the fewest calls that return the sounds asked for and, when all results are wanted, see \`nextCursor: null\`; page size = the node's Page Size (≤ the service's cap of ${credits.cap}). Minimum credits = minimum calls × the platform's price. Calls, credits and outcomes are the service's ledger.`,
	);
	lines.push('');
	lines.push(
		table(
			[
				'Platform (price)',
				'Page Size',
				'Limit',
				'sounds out',
				'calls',
				'minimum calls',
				'credits',
				'minimum credits',
				'waste',
			],
			credits.cases.map((c) => [
				`${c.platform} (${c.price})`,
				String(c.pageSize),
				c.limit === 'Return All' ? 'Return All' : `${c.label}: ${c.limit}`,
				String(c.itemsOut),
				String(c.calls),
				String(c.minCalls),
				`**${c.credits}**`,
				String(c.minCredits),
				c.credits - c.minCredits === 0 ? '0' : `**${c.credits - c.minCredits}**`,
			]),
		),
	);
	return lines.join('\n');
}

function keywordsSection(results, p) {
	const k = results.phases.keywords;
	const lines = [];
	lines.push(`## 4. Several input items: ${k.keywords.length} keywords`);
	lines.push('');
	lines.push(
		`A webhook receives \`{"keywords": [...]}\`; Split Out makes one item per keyword; one search per item with Limit ${k.limit} (one page each). (a) the node, (b) HTTP Request (one request per item, Split Out on \`data.items\`), (d) undici, all ${k.keywords.length} requests at once (n8n's declarative engine also starts every item's search at once). ${k.rounds} interleaved rounds, cache emptied before each run.`,
	);
	lines.push('');
	const rows = ['node', 'http', 'floor'].map((v) => {
		const runs = k.distinct.filter((r) => r.variant === v);
		const ms = summarize(runs.map((r) => r.ms));
		return [
			v === 'node'
				? LABELS.node
				: v === 'http'
					? '(b) HTTP Request + Split Out'
					: '(d) undici, all requests at once, outside n8n',
			`**${f0(ms.median)}**`,
			`${f0(ms.min)}–${f0(ms.max)}`,
			`**${f2(ms.median / k.keywords.length)}**`,
			String(runs[0]?.items),
			[...new Set(runs.map((r) => r.calls))].join(', '),
			[...new Set(runs.map((r) => r.credits))].join(', '),
		];
	});
	lines.push(
		table(
			[
				'Variant',
				`median ms for ${k.keywords.length} keywords`,
				'min–max',
				'ms per keyword',
				'sounds out',
				'calls',
				'credits',
			],
			rows,
		),
	);
	const kwNode = median(k.distinct.filter((r) => r.variant === 'node').map((r) => r.ms));
	const kwHttp = median(k.distinct.filter((r) => r.variant === 'http').map((r) => r.ms));
	if (keywordRatio(k) > TARGET_RATIO) {
		lines.push('');
		const per = (ms) => ms / k.keywords.length;
		let why = '';
		if (p && p['keywords-node'] && p['keywords-http']) {
			const kn = p['keywords-node'];
			const kh = p['keywords-http'];
			const perKw = (x, ms) => ms / x.times / k.keywords.length;
			const fnOf = (x, key) => x.functions.find((f) => f.fn === key)?.ms ?? 0;
			const expr = 'Expression engine (isolated-vm sandbox)';
			why = ` In the profile (section 5), n8n was busy ${f2(perKw(kn, kn.busyMs))} ms per keyword for the node against ${f2(perKw(kh, kh.busyMs))} ms for HTTP Request; the expression sandbox took ${f2(perKw(kn, kn.cats.get(expr) ?? 0))} ms against ${f2(perKw(kh, kh.cats.get(expr) ?? 0))} ms (expression evaluation, inclusive: ${f2(perKw(kn, fnOf(kn, '@n8n/expression-runtime: evaluate')))} ms against ${f2(perKw(kh, fnOf(kh, '@n8n/expression-runtime: evaluate')))} ms), and this package's own code ${f3(perKw(kn, kn.cats.get('this package (n8n-nodes-sound-search)') ?? 0))} ms. Per input item, n8n's declarative engine resolves the node's request expressions (the Base URL from the credential, the URL with the platform, the query) and, per request, the credential's header expression, each in the sandbox; HTTP Request here has a fixed URL and one expression (the query) besides its credential.`;
		}
		lines.push(
			`**The node is slower than HTTP Request here**: ${f2(per(kwNode))} ms against ${f2(per(kwHttp))} ms per keyword (median per-round ratio ${f2(keywordRatio(k))}), while it is faster on the ${results.phases.time?.pages ?? 100}-page Return All (section 1). With one page per keyword, the fixed cost of each input item's search dominates, not the per-page cost.${why}`,
		);
	}
	lines.push('');
	lines.push(
		`Minimum credits for ${k.keywords.length} distinct keywords: ${k.minCreditsDistinct}.`,
	);
	lines.push('');
	lines.push(
		'Repeated keywords (the service answers an identical request made within its cache window from a repeat reading, free):',
	);
	lines.push('');
	lines.push(
		table(
			[
				'Case',
				'Variant',
				'input items',
				'distinct keywords',
				'calls',
				'service outcomes',
				'credits',
				'minimum credits',
				'ms',
			],
			k.repeats.map((r) => [
				r.case,
				r.variant === 'node' ? 'Sound Search node' : 'HTTP Request',
				String(r.keywords),
				String(r.distinctKeywords),
				String(r.calls),
				Object.entries(r.outcomes)
					.map(([o, n]) => `${o} ${n}`)
					.join(', '),
				`**${r.credits}**`,
				String(r.minCredits),
				f0(r.ms),
			]),
		),
	);
	lines.push('');
	lines.push(
		'The node makes an identical search once per run and gives its sounds to every item that asked for it (those items carry `creditsCharged: 0`), so repeats in one run cost neither a call nor a credit; a repeat in a later run within the cache window is a call the service answers from its cache at 0 credits. HTTP Request sends every repeat; the reference service answers them from its cache because it handles them one after the other, but a service that receives identical requests at the same moment may read (and charge) each of them.',
	);
	return lines.join('\n');
}

function rawSection(results, t) {
	const lines = [];
	lines.push('## Raw figures');
	lines.push('');
	if (results.phases.time) {
		lines.push('<details><summary>Time: every run (ms)</summary>');
		lines.push('');
		lines.push(
			table(
				[
					'round',
					'order',
					'variant',
					'wall ms',
					'n8n CPU ms',
					'service CPU ms',
					'client CPU ms',
					'calls',
					'sounds',
				],
				results.phases.time.runs.map((r) => [
					String(r.round),
					String(r.position),
					r.variant,
					f1(r.ms),
					f0(r.n8nCpuMs),
					f0(r.serviceCpuMs),
					f0(r.clientCpuMs),
					String(r.calls),
					String(r.items),
				]),
			),
		);
		lines.push('');
		lines.push('Paired per round: ratio (a)/(b), per-page overheads in ms:');
		lines.push('');
		lines.push(
			table(
				['round', '(a)/(b)', '(a) net', '(b) net', '(a) gross', '(b) gross'],
				t.perRound.map((r) => [
					String(r.round),
					f3(r.ratio),
					f2(r.aNet),
					f2(r.bNet),
					f2(r.aGross),
					f2(r.bGross),
				]),
			),
		);
		lines.push('');
		lines.push('</details>');
		lines.push('');
	}
	if (results.phases.scale) {
		lines.push('<details><summary>Scale: every run</summary>');
		lines.push('');
		lines.push(
			table(
				[
					'rep',
					'variant',
					'sounds',
					'pages',
					'wall ms',
					'n8n CPU ms',
					'RSS before KiB',
					'peak KiB',
					'RSS after KiB',
					'runner peak KiB',
				],
				results.phases.scale.runs.map((r) => [
					String(r.rep),
					r.variant,
					String(r.size),
					String(r.pages),
					f1(r.ms),
					f0(r.n8nCpuMs),
					String(r.rssBeforeKb),
					String(r.peakKb),
					String(r.rssAfterKb),
					String(r.runnerPeakKb),
				]),
			),
		);
		lines.push('');
		lines.push('</details>');
		lines.push('');
	}
	if (results.phases.credits) {
		lines.push('<details><summary>Credits: service outcomes per case</summary>');
		lines.push('');
		lines.push(
			table(
				['platform', 'page size', 'limit', 'outcomes', 'ms'],
				results.phases.credits.cases.map((c) => [
					c.platform,
					String(c.pageSize),
					String(c.limit),
					JSON.stringify(c.outcomes),
					f0(c.ms),
				]),
			),
		);
		lines.push('');
		lines.push('</details>');
		lines.push('');
	}
	if (results.phases.keywords) {
		lines.push('<details><summary>Several keywords: every run</summary>');
		lines.push('');
		lines.push(
			table(
				['round', 'variant', 'ms', 'sounds', 'calls', 'credits', 'outcomes'],
				results.phases.keywords.distinct.map((r) => [
					String(r.round),
					r.variant,
					f1(r.ms),
					String(r.items),
					String(r.calls),
					String(r.credits),
					JSON.stringify(r.outcomes),
				]),
			),
		);
		lines.push('');
		lines.push('</details>');
		lines.push('');
	}
	if (results.phases.profile) {
		lines.push(
			'<details><summary>Profile: self time by package or native function (ms, all profiled runs)</summary>',
		);
		lines.push('');
		for (const s of results.phases.profile.scenarios) {
			lines.push(`${s.label} (${s.times} runs, ${f0(s.wallMs)} ms wall, ${s.samples} samples):`);
			lines.push('');
			lines.push(
				table(
					['bucket', 'ms', 'category'],
					s.buckets.slice(0, 25).map((b) => [b.bucket, f1(b.ms), categorise(b.bucket)]),
				),
			);
			lines.push('');
		}
		lines.push('</details>');
		lines.push('');
	}
	return lines.join('\n');
}

function render(results) {
	const { phases, machine, versions: v } = results;
	const t = phases.time ? analyseTime(phases.time) : null;
	const s = phases.scale ? analyseScale(phases.scale, t?.stats.noop.ms.median) : null;
	const p = phases.profile ? analyseProfile(phases.profile) : null;
	const m = phases.memory ? analyseMemory(phases.memory) : null;
	const conditions = conditionsOf(results);
	const lines = [];
	const date = new Date(results.finishedAt ?? Date.now())
		.toISOString()
		.replace('T', ' ')
		.slice(0, 16);
	lines.push('# Benchmarks');
	lines.push('');
	lines.push(
		`Generated by \`npm run bench\` ([bench/run.js](bench/run.js)) on ${date} UTC${results.options.quick ? ' with `--quick` (a smoke run: few rounds, two sizes; not the published figures)' : ''}. Do not edit by hand: run the benchmark again.`,
	);
	lines.push('');
	lines.push(
		`The Sound Search node against the alternatives a user has: n8n's own HTTP Request node with its pagination, and, as the floor, a plain HTTP client loop. Everything ran in one real n8n ${v.n8n} (the package installed from its \`npm pack\` tarball, workflows called through production webhooks) against the project's reference service, on one machine.`,
	);
	lines.push('');
	lines.push('## Summary');
	lines.push('');
	lines.push(
		table(
			['Target', 'Result', 'Verdict'],
			verdicts(results, t, s, m).map((x) => [
				x.target,
				x.result,
				x.verdict.startsWith('met') ? '**met**' : `**${x.verdict}**`,
			]),
		),
	);
	lines.push('');
	lines.push(
		conditions.quiet
			? `Conditions: quiet machine (1-minute load average ${results.quiet.load[0]} before the run; other processes used ${f2(conditions.timeForeign)} cores on average during the timing rounds).`
			: `Conditions: **busy machine**: ${results.quiet.quiet ? '' : `the 1-minute load average was ${results.quiet.load[0]} before the run (waited ${f0(results.quiet.waitedSeconds)} s for it to fall below ${results.options.maxLoad}); `}other processes used ${f2(conditions.timeForeign)} of ${machine.cores} cores on average during the timing rounds. Absolute times are inflated and noisier than on a quiet machine; the interleaving keeps the comparisons fair, but re-run on a quiet machine for publication.`,
	);
	lines.push('');

	lines.push('## Machine, versions, commands');
	lines.push('');
	lines.push(
		table(
			['', ''],
			[
				[
					'CPU',
					`${machine.cpuModel}, ${machine.cores} cores${machine.cpuMHz ? ` (${machine.cpuMHz} MHz reported)` : ''}`,
				],
				['Memory', `${f1(machine.memoryGiB)} GiB`],
				['OS', `${machine.kernel}; ${machine.virtualization}`],
				[
					'Load average (1, 5, 15 min)',
					`before: ${results.quiet.load.join(', ')}; after: ${(results.loadAtEnd ?? []).join(', ')}`,
				],
				[
					'CPU used by other processes',
					conditions.foreign
						.map((x) => `${x.name}: ${f2(x.foreignCores)} cores (ours ${f2(x.oursCores)})`)
						.join('; '),
				],
				['Node.js', `${v.benchNode} (benchmark), ${v.n8nNode} (n8n)`],
				[
					'n8n',
					`${v.n8n} (n8n-core ${v.n8nCore}, n8n-nodes-base ${v.n8nNodesBase}); started in ${f1(results.startSeconds)} s; RSS ${mib(results.n8nMemoryAfterStart?.rssKb)} MiB after start`,
				],
				[
					'Package',
					results.tarball
						? `the tarball ${results.tarball} (--tarball)`
						: `n8n-nodes-sound-search ${v.package}, packed from the working tree at commit ${v.commit}`,
				],
				[
					'Nodes',
					`Sound Search 1, HTTP Request ${v.httpRequestVersion}, Webhook ${v.webhookVersion}, Split Out 1, Summarize 1.1, No Operation 1`,
				],
				['Client', `undici ${v.undici}`],
				[
					'Wall time of this run',
					`${f0(results.wallSeconds)} s from packing to the report${results.quiet.waitedSeconds >= 1 ? `, after ${f0(results.quiet.waitedSeconds)} s of waiting for a quiet machine` : ''}`,
				],
			],
		),
	);
	lines.push('');
	lines.push('```sh');
	lines.push(
		'npm run bench               # = bash bench/run.sh: set-up, Node 24, the pinned n8n, then node bench/run.js',
	);
	lines.push(
		'npm run bench -- --quick    # smoke run: fewer rounds and sizes, no waiting for a quiet machine',
	);
	lines.push(
		'node bench/run.js --help    # options (rounds, warm-up, load threshold, deadline, output file)',
	);
	lines.push('```');
	lines.push('');
	lines.push(
		`This run: \`node bench/run.js${results.options.argv.length ? ` ${results.options.argv.join(' ')}` : ''}\`.`,
	);
	lines.push('');

	lines.push('## Method');
	lines.push('');
	lines.push(
		[
			'- **One n8n, real webhooks.** `bench/run.js` packs the package (`n8n-node build`, `npm pack`), installs the tarball into a fresh n8n user folder the way n8n installs a community package, imports the credentials and the workflows ([bench/workflows.js](bench/workflows.js)) with the n8n CLI, starts `n8n start` on 127.0.0.1, creates the owner, activates every workflow through the REST API, and calls the production webhooks with undici (keep-alive). Every workflow answers with one small summary item (Summarize: count and distinct count of `soundId`), checked after every run.',
			'- **Same work for every variant.** (a) Sound Search, Return All, Page Size 20 (defaults otherwise); (b) HTTP Request with pagination "Update a Parameter in Each Request" (query `cursor` = `{{ $response.body.data.nextCursor }}`, complete when `{{ !$response.body.data.nextCursor }}`), then Split Out on `data.items` so that it too outputs one item per sound, then the same Summarize; (c) Webhook → No Operation; (d) a plain undici loop in the benchmark process following `nextCursor` and collecting the sounds in an array, on a keep-alive connection; (e), supplementary: the same loop with a new connection per page, as the request helper of n8n makes them. HTTP Request authenticates with a Header Auth credential (`Authorization: Bearer …`), the node with its own credential.',
			'- **Fair timing.** Warm-up rounds first (JIT, connection pools, n8n caches); then rounds in which all the variants run back to back in an order rotated each round, so drift and background load spread over all of them; medians, percentiles and a distribution-free 95 % confidence interval of the median; ratios and overheads computed per round (paired) before taking medians.',
			'- **Settings.** Production executions are not stored (`saveDataSuccessExecution: none`, progress not saved) so that the database write of 2,000+ items does not dominate, and it would weigh more on (b), whose run data holds every page twice. n8n log level `warn`. Reference service: timing with its cache off (every page a fresh reading), credits and keywords with its default 60 s cache window; keyword lists at service scale on a third one, cache off, 150 ms per answer.',
			"- **CPU.** n8n CPU per run is user+system time of the n8n process and its task runner from /proc; the CPU of other processes is the machine total (/proc/stat) minus this benchmark's process tree.",
			'- **Reading the figures.** Absolute times depend on the machine and on what else runs on it; on a shared virtual machine they can move by tens of percent between runs taken minutes apart. The paired figures of one run (ratios, per-page differences) are the ones to compare; the CPU of other processes during each phase is recorded above.',
			'- **Not part of CI.** The benchmark is not run by `npm test` and passes or fails nothing: it fails only when a variant gives a wrong answer (items, distinct ids, calls).',
		].join('\n'),
	);
	lines.push('');
	if (t) {
		lines.push(timeSection(results, t));
		lines.push('');
		if (!(t.paired.aNet.median <= TARGET_PER_PAGE_MS)) {
			lines.push(whySection(results, t, p));
			lines.push('');
		}
	}
	if (s) {
		lines.push(scaleSection(results, s, m));
		lines.push('');
	}
	if (phases.credits) {
		lines.push(creditsSection(results));
		lines.push('');
	}
	if (phases.keywords) {
		lines.push(keywordsSection(results, p));
		lines.push('');
	}
	if (p) {
		lines.push(profileSection(results, p));
		lines.push('');
	}
	if (phases.keylists) {
		lines.push(keywordScaleSection(phases.keylists));
		lines.push('');
	}
	lines.push(rawSection(results, t));
	return `${lines
		.join('\n')
		.replace(/\n{3,}/g, '\n\n')
		.trimEnd()}\n`;
}

function writeReport(file, results) {
	fs.writeFileSync(file, render(results));
}

if (require.main === module) {
	const input = path.resolve(
		process.argv[2] ?? path.join(__dirname, '..', '.cache', 'bench', 'last-results.json'),
	);
	const out = path.resolve(process.argv[3] ?? path.join(__dirname, '..', 'BENCHMARKS.md'));
	writeReport(out, JSON.parse(fs.readFileSync(input, 'utf8')));
	process.stderr.write(`wrote ${out}\n`);
}

module.exports = { writeReport, render };
