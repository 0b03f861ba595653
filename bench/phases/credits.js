'use strict';

// Against the billing service (its default 60 s cache). Credits: the Limit matrix and Return All
// on both platforms, against the fewest calls that can do it. Keywords: 50 keywords, one search
// each (one page), then the same 50 again within the cache window, then 10 keywords 5 times each:
// the node beside HTTP Request.

const { normalizeQuery } = require('../../reference-service/catalogue');
const { checkDeadline, assert, ledgerSummary, callWorkflow, expectedItems } = require('./common');
const { SERVICE_PAGE_CAP } = require('./time');

const TOTAL = 173;
const QUERY = 'credit matrix';
const PRICES = { shortvideo: 1, photosocial: 2 };
const PAGE_SIZES = { shortvideo: 50, photosocial: 20 };
const KEYWORDS = (
	'lofi,jazz,chill,ambient,piano,guitar,synthwave,house,techno,trap,drill,afrobeat,reggaeton,' +
	'kpop,country,folk,blues,soul,funk,disco,metal,punk,indie,opera,orchestral,cinematic,epic,' +
	'happy,sad,romantic,workout,study,sleep,rain,ocean,birds,coffee shop,summer,winter,party,' +
	'wedding,birthday,christmas,halloween,meme,viral dance,slowed reverb,sped up,acoustic,remix'
).split(',');
const LIMIT = 50;

/** The Limits of the matrix for page size P: [label, limit]. */
const limitsFor = (P) => [
	['1', 1],
	['page size - 1', P - 1],
	['page size', P],
	['page size + 1', P + 1],
	['3 pages + 1', 3 * P + 1],
	['all results exactly', TOTAL],
	['more than all results', 1000],
	['Return All', Infinity],
];

async function creditCase(ctx, platform, label, limit) {
	checkDeadline(ctx);
	await ctx.billing.reset();
	await ctx.billing.setCatalogue({ query: QUERY, total: TOTAL });
	const [all, pageSize, price] = [limit === Infinity, PAGE_SIZES[platform], PRICES[platform]];
	const query = { q: QUERY, pageSize: String(pageSize), ...(all ? {} : { limit: String(limit) }) };
	const r = await callWorkflow(ctx, `credits-${all ? 'all' : 'limit'}-${platform}`, { query });
	const { calls, credits, outcomes } = await ledgerSummary(ctx.billing);
	const items = Math.min(limit, TOTAL);
	const got = `credits ${platform} ${label}: ${r.items} items, expected ${items}`;
	assert(r.items === items && r.unique === items, got);
	// The fewest calls that return the sounds asked for and know the search is done.
	const minCalls = Math.max(1, Math.ceil(items / Math.min(pageSize, SERVICE_PAGE_CAP)));
	const asked = {
		platform,
		price,
		pageSize,
		total: TOTAL,
		label,
		limit: all ? 'Return All' : limit,
	};
	const spent = { calls, minCalls, credits, minCredits: minCalls * price, outcomes };
	return { ...asked, itemsOut: r.items, ...spent, ms: r.ms };
}

async function creditsPhase(ctx) {
	const cases = [];
	for (const platform of Object.keys(PAGE_SIZES))
		for (const [label, limit] of limitsFor(PAGE_SIZES[platform]))
			cases.push(await creditCase(ctx, platform, String(label), Number(limit)));
	await ctx.billing.reset();
	const atMinimum = cases.filter((c) => c.credits === c.minCredits).length;
	ctx.log(`credits: ${atMinimum}/${cases.length} cases at the minimum`);
	return { cases, cap: SERVICE_PAGE_CAP, query: QUERY };
}

/** One list through `keywords-<variant>`; what the service's ledger holds since its reset. */
async function keywordRun(ctx, variant, keywords) {
	const r = await callWorkflow(ctx, `keywords-${variant}`, { method: 'POST', body: { keywords } });
	const expected = expectedItems(keywords, LIMIT);
	assert(r.items === expected, `keywords ${variant}: ${r.items} items, expected ${expected}`);
	const distinctKeywords = new Set(keywords.map(normalizeQuery)).size;
	const ledger = await ledgerSummary(ctx.billing);
	const { calls, credits, outcomes } = ledger;
	return {
		variant,
		keywords: keywords.length,
		distinctKeywords,
		ms: r.ms,
		items: r.items,
		calls,
		credits,
		outcomes,
	};
}

/** 50 distinct keywords cold; the same again within the cache window; 10 keywords × 5. */
async function keywordRuns(ctx, variant) {
	const ten = KEYWORDS.slice(0, 10);
	await ctx.billing.reset();
	const cold = await keywordRun(ctx, variant, KEYWORDS);
	assert(cold.calls === KEYWORDS.length, `keywords ${variant}: ${cold.calls} calls`);
	const warm = await keywordRun(ctx, variant, KEYWORDS); // the ledger holds the cold run too
	await ctx.billing.reset();
	const dup = await keywordRun(
		ctx,
		variant,
		Array.from({ length: 50 }, (_, i) => ten[i % 10]),
	);
	const outcomes = Object.entries(warm.outcomes)
		.map(([k, n]) => [k, n - (cold.outcomes[k] ?? 0)])
		.filter(([, d]) => d);
	const again = {
		case: 'same 50 keywords again within the cache window',
		...warm,
		calls: warm.calls - cold.calls,
		credits: warm.credits - cold.credits,
		outcomes: Object.fromEntries(outcomes),
		minCredits: 0,
	};
	const repeats = [again, { case: '10 keywords x 5 in one run', ...dup, minCredits: ten.length }];
	return { distinct: { round: 1, ...cold }, repeats };
}

async function keywordsPhase(ctx) {
	ctx.log(`keywords: ${KEYWORDS.length} keywords, again, and 10 keywords x 5`);
	const [node, http] = [await keywordRuns(ctx, 'node'), await keywordRuns(ctx, 'http')];
	await ctx.billing.reset();
	return {
		keywords: KEYWORDS,
		limit: LIMIT,
		rounds: 1,
		distinct: [node.distinct, http.distinct],
		repeats: [...node.repeats, ...http.repeats],
		minCreditsDistinct: KEYWORDS.length,
	};
}

module.exports = { creditsPhase, keywordsPhase };
