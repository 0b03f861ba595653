'use strict';

// Several input items: 50 keywords, one search each (Limit 50: one page), then repeats.

const { floorKeywords } = require('../client');
const { foreignCpuMeter } = require('../system');
const { describeQuery, normalizeQuery } = require('../../reference-service/catalogue');
const { assert, ledgerSummary, callWorkflow, interleaved } = require('./common');

const KEYWORDS = (
	'lofi,jazz,chill,ambient,piano,guitar,synthwave,house,techno,trap,drill,afrobeat,reggaeton,' +
	'kpop,country,folk,blues,soul,funk,disco,metal,punk,indie,opera,orchestral,cinematic,epic,' +
	'happy,sad,romantic,workout,study,sleep,rain,ocean,birds,coffee shop,summer,winter,party,' +
	'wedding,birthday,christmas,halloween,meme,viral dance,slowed reverb,sped up,acoustic,remix'
).split(',');
const LIMIT = 50;

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
	const { ms, items } =
		variant === 'floor'
			? await floorKeywords({
					serviceUrl: ctx.billing.url,
					apiKey: ctx.apiKey,
					keywords,
					limit: LIMIT,
				})
			: await postKeywords(ctx, `keywords-${variant}`, keywords);
	const expected = expectedKeywordItems(keywords);
	assert(items === expected, `keywords ${variant}: ${items} items, expected ${expected}`);
	const distinctKeywords = new Set(keywords.map(normalizeQuery)).size;
	return {
		variant,
		keywords: keywords.length,
		distinctKeywords,
		ms,
		items,
		...(await ledgerSummary(ctx.billing)),
	};
}

/** Differences of the outcome counts (a ledger not reset in between). */
function subtractOutcomes(after, before) {
	return Object.fromEntries(
		Object.entries(after)
			.map(([k, v]) => [k, v - (before[k] ?? 0)])
			.filter(([, d]) => d),
	);
}

/** (1) The same 50 keywords again within the cache window. (2) 10 keywords 5 times each. */
async function repeatRuns(ctx, v) {
	const ten = KEYWORDS.slice(0, 10);
	await ctx.billing.reset();
	const cold = await keywordRun(ctx, v, KEYWORDS);
	const warm = await keywordRun(ctx, v, KEYWORDS); // ledger not reset: subtract the cold run
	await ctx.billing.reset();
	const dup = await keywordRun(
		ctx,
		v,
		Array.from({ length: 50 }, (_, i) => ten[i % 10]),
	);
	const again = {
		calls: warm.calls - cold.calls,
		credits: warm.credits - cold.credits,
		outcomes: subtractOutcomes(warm.outcomes, cold.outcomes),
	};
	return [
		{
			case: 'same 50 keywords again within the cache window',
			...warm,
			...again,
			minCredits: 0,
			coldMs: cold.ms,
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
	return {
		keywords: KEYWORDS,
		limit: LIMIT,
		rounds,
		distinct,
		repeats,
		cpu,
		minCreditsDistinct: KEYWORDS.length,
	};
}

module.exports = { keywordsPhase, postKeywords, expectedKeywordItems, KEYWORDS };
