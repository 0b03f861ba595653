'use strict';

// Credits: the Limit matrix and Return All on both platforms, against the minimum number of calls.

const { SERVICE_PAGE_CAP } = require('./scale');
const { checkDeadline, assert, ledgerSummary, callWorkflow } = require('./common');

const TOTAL = 173;
const QUERY = 'credit matrix';
/** @type {Record<string, number>} */
const PRICES = { shortvideo: 1, photosocial: 2 };
const CONFIGS = [
	{ platform: 'shortvideo', pageSize: 50 },
	{ platform: 'photosocial', pageSize: 20 },
];

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

/** Fewest calls that can return min(limit, total) sounds and know the search is done. */
function minimumCalls(limit, total, pageSize) {
	const wanted = limit === Infinity ? total : Math.min(limit, total);
	return Math.max(1, Math.ceil(wanted / Math.min(pageSize, SERVICE_PAGE_CAP)));
}

async function creditCase(ctx, { platform, pageSize }, label, limit) {
	checkDeadline(ctx);
	await ctx.billing.reset();
	await ctx.billing.setCatalogue({ query: QUERY, total: TOTAL });
	const all = limit === Infinity;
	const query = { q: QUERY, pageSize: String(pageSize), ...(all ? {} : { limit: String(limit) }) };
	const r = await callWorkflow(ctx, `credits-${all ? 'all' : 'limit'}-${platform}`, { query });
	const { calls, credits, outcomes } = await ledgerSummary(ctx.billing);
	const expectedItems = Math.min(limit, TOTAL);
	const minCalls = minimumCalls(limit, TOTAL, pageSize);
	assert(
		r.items === expectedItems && r.unique === expectedItems,
		`credits ${platform} ${label}: ${r.items} items, expected ${expectedItems}`,
	);
	const price = PRICES[platform];
	return {
		platform,
		price,
		pageSize,
		total: TOTAL,
		label,
		limit: all ? 'Return All' : limit,
		itemsOut: r.items,
		distinct: r.unique,
		expectedItems,
		calls,
		minCalls,
		credits,
		minCredits: minCalls * price,
		outcomes,
		ms: r.ms,
	};
}

async function creditsPhase(ctx) {
	const cases = [];
	for (const config of CONFIGS)
		for (const [label, limit] of limitsFor(config.pageSize))
			cases.push(await creditCase(ctx, config, String(label), Number(limit)));
	await ctx.billing.reset();
	ctx.log(
		`credits: ${cases.filter((c) => c.credits === c.minCredits).length}/${cases.length} cases at the minimum`,
	);
	return { cases, cap: SERVICE_PAGE_CAP, query: QUERY };
}

module.exports = { creditsPhase, minimumCalls };
