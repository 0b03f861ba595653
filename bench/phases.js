'use strict';

// The measurements: time, scale, credits, several keywords, and the CPU profile. Each returns
// plain data (raw figures included) for report.js. Every run is checked (items out, distinct
// sound ids, calls the service recorded): a fast wrong answer fails the benchmark instead of
// being reported.

const { callWebhook, floorReturnAll, floorKeywords } = require('./client');
const system = require('./system');
const { summarize } = require('./stats');
const { describeQuery, normalizeQuery } = require('../reference-service/catalogue');

const SERVICE_PAGE_CAP = 50;

function checkDeadline(ctx) {
	if (Date.now() > ctx.deadline) throw new Error('deadline reached (see --deadline-minutes)');
}

function rotate(list, by) {
	const k = by % list.length;
	return [...list.slice(k), ...list.slice(0, k)];
}

function assert(condition, message) {
	if (!condition) throw new Error(`check failed: ${message}`);
}

/** Calls, credits and outcomes the service recorded since its last reset. */
async function ledgerSummary(service) {
	const { requests, totals, capacity } = await service.ledger();
	/** @type {Record<string, number>} */
	const outcomes = {};
	let servedItems = 0;
	for (const r of requests) {
		outcomes[r.outcome] = (outcomes[r.outcome] ?? 0) + 1;
		servedItems += r.itemCount ?? 0;
	}
	return {
		calls: totals.requests,
		credits: totals.creditsCharged,
		outcomes,
		servedItems,
		mostInFlight: capacity?.mostInFlight,
	};
}

const scaleQuery = (size) => `scale ${size}`;

/** Catalogue overrides of the timing service (re-applied after each reset, which clears them). */
async function prepareServices(ctx) {
	const overrides = [
		{ query: ctx.pagesQuery, total: ctx.pages * ctx.pageSize },
		...ctx.options.scaleSizes.map((size) => ({ query: scaleQuery(size), total: size })),
	];
	ctx.resetTiming = async () => {
		await ctx.timing.reset();
		for (const o of overrides) await ctx.timing.setCatalogue(o);
	};
	await ctx.resetTiming();
}

function webhookUrl(ctx, key, query) {
	const qs = query ? `?${new URLSearchParams(query)}` : '';
	return `${ctx.n8nUrl}/webhook/${ctx.paths[key]}${qs}`;
}

/** Sum of CPU seconds of n8n and its task runner(s), if any. */
function n8nCpuSeconds(ctx) {
	let total = system.processCpuSeconds(ctx.n8nPid);
	for (const pid of system.descendants(ctx.n8nPid)) total += system.processCpuSeconds(pid);
	return total;
}

// ---------------------------------------------------------------------------------------------
// Time: Return All over 100 pages of 20, (a) node, (b) HTTP Request, (c) no-op, (d) undici floor.

// floor-new: (d) with a new TCP connection per page, a supplementary figure that shows how much
// of the per-page overhead is connection set-up (n8n's request helper opens one per request).
const TIME_VARIANTS = ['node', 'http', 'noop', 'floor', 'floor-new'];

async function timedRun(ctx, variant) {
	const expected = ctx.pages * ctx.pageSize;
	const n8nCpu0 = n8nCpuSeconds(ctx);
	const svcCpu0 = system.processCpuSeconds(ctx.timing.pid);
	const client0 = process.cpuUsage();
	let ms;
	let items;
	let unique;
	if (variant === 'floor' || variant === 'floor-new') {
		const r = await floorReturnAll({
			serviceUrl: ctx.timing.url,
			apiKey: ctx.apiKey,
			q: ctx.pagesQuery,
			pageSize: ctx.pageSize,
			newConnection: variant === 'floor-new',
		});
		({ ms, items } = r);
		unique = items;
	} else {
		const r = await callWebhook(webhookUrl(ctx, variant));
		assert(
			r.status === 200,
			`${variant}: webhook answered ${r.status} ${JSON.stringify(r.json).slice(0, 300)}`,
		);
		ms = r.ms;
		items = r.json.count_soundId;
		unique = r.json.unique_count_soundId;
	}
	const client = process.cpuUsage(client0);
	const clientCpuMs = (client.user + client.system) / 1000;
	const n8nCpuMs = (n8nCpuSeconds(ctx) - n8nCpu0) * 1000;
	const serviceCpuMs = (system.processCpuSeconds(ctx.timing.pid) - svcCpu0) * 1000;
	const ledger = await ledgerSummary(ctx.timing);
	await ctx.resetTiming();
	if (variant === 'noop') {
		assert(ledger.calls === 0, `noop made ${ledger.calls} calls`);
	} else {
		assert(
			items === expected && unique === expected,
			`${variant}: ${items} items (${unique} distinct), expected ${expected}`,
		);
		assert(
			ledger.calls === ctx.pages && ledger.outcomes.ok === ctx.pages,
			`${variant}: ${JSON.stringify(ledger)}, expected ${ctx.pages} fresh calls`,
		);
	}
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
		`time: warm-up ${warmup} rounds, then ${rounds} interleaved rounds of ${TIME_VARIANTS.join(', ')}`,
	);
	for (let w = 0; w < warmup; w++) {
		checkDeadline(ctx);
		for (const v of rotate(TIME_VARIANTS, w)) await timedRun(ctx, v);
	}
	const loadBefore = system.loadavg();
	const meter = system.foreignCpuMeter();
	const runs = [];
	for (let r = 0; r < rounds; r++) {
		checkDeadline(ctx);
		const order = rotate(TIME_VARIANTS, r);
		for (const [position, v] of order.entries())
			runs.push({ round: r + 1, position: position + 1, ...(await timedRun(ctx, v)) });
		if ((r + 1) % 10 === 0 || r + 1 === rounds) {
			const byV = (v) => runs.filter((x) => x.variant === v).map((x) => x.ms);
			ctx.log(
				`time: round ${r + 1}/${rounds}: medians ${TIME_VARIANTS.map((v) => `${v} ${summarize(byV(v)).median.toFixed(0)} ms`).join(', ')}`,
			);
		}
	}
	const cpu = meter.stop();
	return {
		variants: TIME_VARIANTS,
		pages: ctx.pages,
		pageSize: ctx.pageSize,
		query: ctx.pagesQuery,
		rounds,
		warmup,
		runs,
		cpu,
		loadBefore,
		loadAfter: system.loadavg(),
	};
}

// ---------------------------------------------------------------------------------------------
// Scale: Return All of 1,000 ... 10,000 sounds (pages of 50): wall time, n8n peak memory, items.

async function scaleRun(ctx, variant, size) {
	const q = scaleQuery(size);
	const pages = Math.ceil(size / SERVICE_PAGE_CAP);
	const runnerPids = system.descendants(ctx.n8nPid);
	const before = system.memory(ctx.n8nPid);
	const peakReset = system.resetPeak(ctx.n8nPid);
	for (const pid of runnerPids) system.resetPeak(pid);
	const n8nCpu0 = n8nCpuSeconds(ctx);
	let ms;
	let items;
	let unique;
	if (variant === 'floor') {
		const r = await floorReturnAll({
			serviceUrl: ctx.timing.url,
			apiKey: ctx.apiKey,
			q,
			pageSize: SERVICE_PAGE_CAP,
			maxPages: 1000,
		});
		({ ms, items } = r);
		unique = items;
	} else {
		const r = await callWebhook(webhookUrl(ctx, variant, { q }));
		assert(
			r.status === 200,
			`${variant} ${size}: webhook answered ${r.status} ${JSON.stringify(r.json).slice(0, 300)}`,
		);
		ms = r.ms;
		items = r.json.count_soundId;
		unique = r.json.unique_count_soundId;
	}
	const n8nCpuMs = (n8nCpuSeconds(ctx) - n8nCpu0) * 1000;
	const after = system.memory(ctx.n8nPid);
	const runnerHwmKb = runnerPids
		.map((pid) => system.memory(pid)?.hwmKb ?? 0)
		.reduce((a, b) => a + b, 0);
	const ledger = await ledgerSummary(ctx.timing);
	await ctx.resetTiming();
	assert(
		items === size && unique === size,
		`${variant} ${size}: ${items} items (${unique} distinct)`,
	);
	assert(ledger.calls === pages, `${variant} ${size}: ${ledger.calls} calls, expected ${pages}`);
	return {
		variant,
		size,
		pages,
		ms,
		n8nCpuMs,
		items,
		calls: ledger.calls,
		rssBeforeKb: before.rssKb,
		peakKb: after.hwmKb,
		rssAfterKb: after.rssKb,
		peakResetWorked: peakReset,
		runnerPids: runnerPids.length,
		runnerPeakKb: runnerHwmKb,
	};
}

async function scalePhase(ctx) {
	const { scaleSizes, scaleReps } = ctx.options;
	const variants = ['scale-node', 'scale-http', 'floor'];
	ctx.log(
		`scale: sizes ${scaleSizes.join(', ')}, ${scaleReps} repetition(s), variants ${variants.join(', ')}`,
	);
	// One untimed 1,000 run of each n8n variant: the workflows' first production runs.
	for (const v of variants) await scaleRun(ctx, v, scaleSizes[0]);
	const meter = system.foreignCpuMeter();
	const runs = [];
	for (let rep = 0; rep < scaleReps; rep++) {
		for (const size of scaleSizes) {
			checkDeadline(ctx);
			for (const v of rotate(variants, rep)) {
				const run = await scaleRun(ctx, v, size);
				runs.push({ rep: rep + 1, ...run });
				if (v !== 'floor') {
					ctx.log(
						`scale: ${v} ${size}: ${run.ms.toFixed(0)} ms, peak ${(run.peakKb / 1024).toFixed(0)} MiB (before ${(run.rssBeforeKb / 1024).toFixed(0)} MiB)`,
					);
				}
			}
		}
	}
	return {
		sizes: scaleSizes,
		reps: scaleReps,
		pageSize: SERVICE_PAGE_CAP,
		runs,
		cpu: meter.stop(),
	};
}

// ---------------------------------------------------------------------------------------------
// Credits: Limit matrix and Return All against the minimum number of calls.

const CREDIT_TOTAL = 173;
const PRICES = { shortvideo: 1, photosocial: 2 };

/** Fewest calls that can return min(limit, total) sounds and know the search is done. */
function minimumCalls(limit, total, pageSize) {
	const size = Math.min(pageSize, SERVICE_PAGE_CAP);
	const wanted = limit === Infinity ? total : Math.min(limit, total);
	return Math.max(1, Math.ceil(wanted / size));
}

async function creditsPhase(ctx) {
	const configs = [
		{ platform: 'shortvideo', pageSize: 50, total: CREDIT_TOTAL },
		{ platform: 'photosocial', pageSize: 20, total: CREDIT_TOTAL },
	];
	const q = 'credit matrix';
	const cases = [];
	for (const config of configs) {
		const P = config.pageSize;
		const T = config.total;
		const limits = [
			['1', 1],
			['page size - 1', P - 1],
			['page size', P],
			['page size + 1', P + 1],
			['3 pages + 1', 3 * P + 1],
			['all results exactly', T],
			['more than all results', 1000],
			['Return All', Infinity],
		];
		for (const [label, limit] of limits) {
			checkDeadline(ctx);
			await ctx.billing.reset();
			await ctx.billing.setCatalogue({ query: q, total: T });
			const key =
				limit === Infinity ? `credits-all-${config.platform}` : `credits-limit-${config.platform}`;
			const query = { q, pageSize: String(P) };
			if (limit !== Infinity) query.limit = String(limit);
			const r = await callWebhook(webhookUrl(ctx, key, query));
			assert(
				r.status === 200,
				`credits ${label}: webhook answered ${r.status} ${JSON.stringify(r.json).slice(0, 300)}`,
			);
			const ledger = await ledgerSummary(ctx.billing);
			const expectedItems = Math.min(limit, T);
			const minCalls = minimumCalls(limit, T, P);
			const c = {
				platform: config.platform,
				price: PRICES[config.platform],
				pageSize: P,
				total: T,
				label,
				limit: limit === Infinity ? 'Return All' : limit,
				itemsOut: r.json.count_soundId,
				distinct: r.json.unique_count_soundId,
				expectedItems,
				calls: ledger.calls,
				minCalls,
				credits: ledger.credits,
				minCredits: minCalls * PRICES[config.platform],
				outcomes: ledger.outcomes,
				ms: r.ms,
			};
			assert(
				c.itemsOut === expectedItems && c.distinct === expectedItems,
				`credits ${config.platform} ${label}: ${c.itemsOut} items, expected ${expectedItems}`,
			);
			cases.push(c);
		}
	}
	await ctx.billing.reset();
	ctx.log(
		`credits: ${cases.filter((c) => c.credits === c.minCredits).length}/${cases.length} cases at the minimum`,
	);
	return { cases, cap: SERVICE_PAGE_CAP, query: q };
}

// ---------------------------------------------------------------------------------------------
// Several input items: 50 keywords, one search each (Limit 50: one page).

const KEYWORDS = [
	'lofi',
	'jazz',
	'chill',
	'ambient',
	'piano',
	'guitar',
	'synthwave',
	'house',
	'techno',
	'trap',
	'drill',
	'afrobeat',
	'reggaeton',
	'kpop',
	'country',
	'folk',
	'blues',
	'soul',
	'funk',
	'disco',
	'metal',
	'punk',
	'indie',
	'opera',
	'orchestral',
	'cinematic',
	'epic',
	'happy',
	'sad',
	'romantic',
	'workout',
	'study',
	'sleep',
	'rain',
	'ocean',
	'birds',
	'coffee shop',
	'summer',
	'winter',
	'party',
	'wedding',
	'birthday',
	'christmas',
	'halloween',
	'meme',
	'viral dance',
	'slowed reverb',
	'sped up',
	'acoustic',
	'remix',
];
const KEYWORD_LIMIT = 50;

function expectedKeywordItems(keywords, limit = KEYWORD_LIMIT) {
	return keywords.reduce(
		(sum, k) =>
			sum + Math.min(limit, describeQuery('shortvideo', normalizeQuery(k), new Map()).total),
		0,
	);
}

async function keywordRun(ctx, variant, keywords) {
	let ms;
	let items;
	if (variant === 'floor') {
		const r = await floorKeywords({
			serviceUrl: ctx.billing.url,
			apiKey: ctx.apiKey,
			keywords,
			limit: KEYWORD_LIMIT,
		});
		({ ms, items } = r);
	} else {
		const r = await callWebhook(webhookUrl(ctx, `keywords-${variant}`), {
			method: 'POST',
			body: { keywords },
		});
		assert(
			r.status === 200,
			`keywords ${variant}: webhook answered ${r.status} ${JSON.stringify(r.json).slice(0, 300)}`,
		);
		ms = r.ms;
		items = r.json.count_soundId;
	}
	const ledger = await ledgerSummary(ctx.billing);
	const expected = expectedKeywordItems(keywords);
	assert(items === expected, `keywords ${variant}: ${items} items, expected ${expected}`);
	return {
		variant,
		keywords: keywords.length,
		distinctKeywords: new Set(keywords.map(normalizeQuery)).size,
		ms,
		items,
		...ledger,
	};
}

async function keywordsPhase(ctx) {
	const rounds = ctx.options.keywordRounds;
	const variants = ['node', 'http', 'floor'];
	ctx.log(
		`keywords: ${KEYWORDS.length} distinct keywords, ${rounds} interleaved rounds; then repeats`,
	);
	// Warm-up (untimed) of both workflows.
	for (const v of variants) {
		await ctx.billing.reset();
		await keywordRun(ctx, v, KEYWORDS);
	}
	const meter = system.foreignCpuMeter();
	const distinct = [];
	for (let r = 0; r < rounds; r++) {
		checkDeadline(ctx);
		for (const v of rotate(variants, r)) {
			await ctx.billing.reset(); // cold cache: every keyword is a fresh, charged reading
			const run = await keywordRun(ctx, v, KEYWORDS);
			assert(run.calls === KEYWORDS.length, `keywords ${v}: ${run.calls} calls`);
			distinct.push({ round: r + 1, ...run });
		}
	}
	const cpu = meter.stop();

	// Repeats. (1) The same 50 keywords again within the cache window. (2) 50 input items holding
	// 10 keywords 5 times each, in one run (cold cache).
	const repeats = [];
	const ten = KEYWORDS.slice(0, 10);
	const duplicated = Array.from({ length: 50 }, (_, i) => ten[i % 10]);
	for (const v of ['node', 'http']) {
		checkDeadline(ctx);
		await ctx.billing.reset();
		const cold = await keywordRun(ctx, v, KEYWORDS);
		const warm = await keywordRun(ctx, v, KEYWORDS); // ledger not reset: subtract the cold run
		repeats.push({
			case: 'same 50 keywords again within the cache window',
			...warm,
			calls: warm.calls - cold.calls,
			credits: warm.credits - cold.credits,
			outcomes: subtractOutcomes(warm.outcomes, cold.outcomes),
			minCredits: 0,
			coldMs: cold.ms,
		});
		await ctx.billing.reset();
		const dup = await keywordRun(ctx, v, duplicated);
		repeats.push({ case: '10 keywords x 5 in one run', ...dup, minCredits: ten.length });
	}
	await ctx.billing.reset();
	return {
		keywords: KEYWORDS,
		limit: KEYWORD_LIMIT,
		rounds,
		distinct,
		repeats,
		cpu,
		minCreditsDistinct: KEYWORDS.length,
	};
}

function subtractOutcomes(after, before) {
	const out = {};
	for (const [k, v] of Object.entries(after)) {
		const d = v - (before[k] ?? 0);
		if (d) out[k] = d;
	}
	return out;
}

module.exports = {
	prepareServices,
	timePhase,
	scalePhase,
	creditsPhase,
	keywordsPhase,
	minimumCalls,
	// for bench/keywordScale.js
	checkDeadline,
	assert,
	rotate,
	ledgerSummary,
	webhookUrl,
	expectedKeywordItems,
	n8nCpuSeconds,
};

// ---------------------------------------------------------------------------------------------
// Where the time goes: CPU profile of n8n over a few runs of (a) and (b) (after the timed phases).

async function profilePhase(ctx, session, profileScenarios) {
	const times = ctx.options.quick ? 3 : 10;
	const run = (variant) => async () => {
		const r = await callWebhook(webhookUrl(ctx, variant));
		const ok =
			r.status === 200 && (variant === 'noop' || r.json.count_soundId === ctx.pages * ctx.pageSize);
		assert(ok, `profile ${variant}: ${r.status} ${JSON.stringify(r.json).slice(0, 200)}`);
	};
	const keywords = (variant) => async () => {
		await ctx.billing.reset(); // cold cache, as in the timed keyword runs
		const r = await callWebhook(webhookUrl(ctx, `keywords-${variant}`), {
			method: 'POST',
			body: { keywords: KEYWORDS },
		});
		assert(
			r.status === 200 && r.json.count_soundId === expectedKeywordItems(KEYWORDS),
			`profile keywords-${variant}: ${r.status}`,
		);
	};
	ctx.log(
		`profile: ${times} runs each of node, http, noop, keywords-node, keywords-http under the V8 sampling profiler`,
	);
	const result = await profileScenarios(session, [
		{ label: 'node', times, run: run('node') },
		{ label: 'http', times, run: run('http') },
		{ label: 'noop', times, run: run('noop') },
		{ label: 'keywords-node', times, run: keywords('node') },
		{ label: 'keywords-http', times, run: keywords('http') },
	]);
	await ctx.resetTiming();
	await ctx.billing.reset();
	return { ...result, pages: ctx.pages, keywords: KEYWORDS.length };
}

// ---------------------------------------------------------------------------------------------
// Memory: the JavaScript heap a Return All of 1,000 ... 10,000 sounds needs (inspector; untimed).

async function memoryPhase(ctx, session, measureHeap) {
	const { scaleSizes } = ctx.options;
	const reps = ctx.options.quick ? 1 : 2;
	const variants = ['scale-node', 'scale-http'];
	ctx.log(
		`memory: JS heap of n8n during Return All of ${scaleSizes.join(', ')} sounds, ${reps} repetition(s)`,
	);
	const runs = [];
	// One unrecorded run of each variant first: the first run under the heap profiler also
	// allocates for one-time work (expression compilation, code caches).
	for (let rep = -1; rep < reps; rep++) {
		for (const size of rep < 0 ? scaleSizes.slice(0, 1) : scaleSizes) {
			checkDeadline(ctx);
			for (const v of rotate(variants, Math.max(0, rep))) {
				const q = scaleQuery(size);
				system.resetPeak(ctx.n8nPid);
				const before = system.memory(ctx.n8nPid);
				let json;
				const heap = await measureHeap(session, async () => {
					const r = await callWebhook(webhookUrl(ctx, v, { q }));
					assert(
						r.status === 200,
						`memory ${v} ${size}: ${r.status} ${JSON.stringify(r.json).slice(0, 200)}`,
					);
					json = r.json;
				});
				const after = system.memory(ctx.n8nPid);
				assert(
					json.count_soundId === size && json.unique_count_soundId === size,
					`memory ${v} ${size}: ${json.count_soundId} items`,
				);
				await ctx.resetTiming();
				if (rep < 0) continue;
				runs.push({
					rep: rep + 1,
					variant: v,
					size,
					...heap,
					rssBeforeKb: before.rssKb,
					peakRssKb: after.hwmKb,
				});
				ctx.log(
					`memory: ${v} ${size}: allocated ${(heap.allocatedKb / 1024).toFixed(1)} MiB, held at once +${((heap.peakUsedKb - heap.baseUsedKb) / 1024).toFixed(1)} MiB over ${(heap.baseUsedKb / 1024).toFixed(0)} MiB`,
				);
			}
		}
	}
	return { sizes: scaleSizes, reps, runs };
}

module.exports.profilePhase = profilePhase;
module.exports.memoryPhase = memoryPhase;
