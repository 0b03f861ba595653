'use strict';

// Against the billing service (its default 60 s cache). Credits: the Limit matrix and Return All
// on both platforms, against the fewest calls that can do it. Keywords: 50 input items, one
// search each (Limit 50: one page), then repeated keywords.

const { floorKeywords } = require('../client');
const { foreignCpuMeter } = require('../system');
const { describeQuery, normalizeQuery } = require('../../reference-service/catalogue');
const { checkDeadline, assert, ledgerSummary, callWorkflow, interleaved } = require('./common');
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
	const expectedItems = Math.min(limit, TOTAL);
	const got = `${r.items} items, expected ${expectedItems}`;
	assert(
		r.items === expectedItems && r.unique === expectedItems,
		`credits ${platform} ${label}: ${got}`,
	);
	// The fewest calls that return the sounds asked for and know the search is done.
	const minCalls = Math.max(1, Math.ceil(expectedItems / Math.min(pageSize, SERVICE_PAGE_CAP)));
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

/** Sounds the reference service holds for these keywords, up to `limit` each. */
function expectedKeywordItems(keywords, limit = LIMIT) {
	const total = (k) => describeQuery('shortvideo', normalizeQuery(k), new Map()).total;
	return keywords.reduce((sum, k) => sum + Math.min(limit, total(k)), 0);
}

/** POSTs the keywords to a keywords workflow and checks the sounds that came out. */
async function postKeywords(ctx, key, keywords) {
	const r = await callWorkflow(ctx, key, { method: 'POST', body: { keywords } });
	const expected = expectedKeywordItems(keywords);
	assert(r.items === expected, `${key}: ${r.items} items, expected ${expected}`);
	return r;
}

async function keywordRun(ctx, variant, keywords) {
	const floor = { serviceUrl: ctx.billing.url, apiKey: ctx.apiKey, keywords, limit: LIMIT };
	const { ms, items } =
		variant === 'floor'
			? await floorKeywords(floor)
			: await postKeywords(ctx, `keywords-${variant}`, keywords);
	const expected = expectedKeywordItems(keywords);
	assert(items === expected, `keywords ${variant}: ${items} items, expected ${expected}`);
	const distinctKeywords = new Set(keywords.map(normalizeQuery)).size;
	const ledger = await ledgerSummary(ctx.billing);
	return { variant, keywords: keywords.length, distinctKeywords, ms, items, ...ledger };
}

/** (1) The same 50 keywords again within the cache window. (2) 10 keywords 5 times each. */
async function repeatRuns(ctx, v) {
	const ten = KEYWORDS.slice(0, 10);
	await ctx.billing.reset();
	const cold = await keywordRun(ctx, v, KEYWORDS);
	const warm = await keywordRun(ctx, v, KEYWORDS); // the ledger not reset: less the cold run's
	await ctx.billing.reset();
	const dup = await keywordRun(
		ctx,
		v,
		Array.from({ length: 50 }, (_, i) => ten[i % 10]),
	);
	const outcomes = Object.entries(warm.outcomes)
		.map(([k, n]) => [k, n - (cold.outcomes[k] ?? 0)])
		.filter(([, d]) => d);
	const again = {
		calls: warm.calls - cold.calls,
		credits: warm.credits - cold.credits,
		outcomes: Object.fromEntries(outcomes),
	};
	return [
		{
			case: 'same 50 keywords again within the cache window',
			...warm,
			...again,
			minCredits: 0,
		},
		{ case: '10 keywords x 5 in one run', ...dup, minCredits: ten.length },
	];
}

async function keywordsPhase(ctx) {
	const rounds = ctx.options.keywordRounds;
	const variants = ['node', 'http', 'floor'];
	ctx.log(
		`keywords: ${KEYWORDS.length} distinct keywords, ${rounds} interleaved rounds; then repeats`,
	);
	const coldRun = async (v) => {
		await ctx.billing.reset(); // cold cache: every keyword is a fresh, charged reading
		const run = await keywordRun(ctx, v, KEYWORDS);
		assert(run.calls === KEYWORDS.length, `keywords ${v}: ${run.calls} calls`);
		return run;
	};
	await interleaved(ctx, 1, variants, coldRun); // warm-up, untimed
	const meter = foreignCpuMeter();
	const distinct = await interleaved(ctx, rounds, variants, async (v, r) => ({
		round: r + 1,
		...(await coldRun(v)),
	}));
	const cpu = meter.stop();
	const repeats = [...(await repeatRuns(ctx, 'node')), ...(await repeatRuns(ctx, 'http'))];
	await ctx.billing.reset();
	const minCreditsDistinct = KEYWORDS.length;
	return { keywords: KEYWORDS, limit: LIMIT, rounds, distinct, repeats, cpu, minCreditsDistinct };
}

module.exports = { creditsPhase, keywordsPhase, postKeywords, expectedKeywordItems, KEYWORDS };
