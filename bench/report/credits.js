'use strict';

// Section 3: the credit matrix.

const { columns, blocks } = require('./format');

function creditsSection(results) {
	const credits = results.phases.credits;
	const waste = (c) => c.credits - c.minCredits;
	return blocks(
		'## 3. Credits: Limit matrix and Return All',
		`Query with ${credits.cases[0]?.total} matching sounds (catalogue override); the service's cache emptied before each case, so every call is a fresh, charged reading. Minimum calls = max(1, ⌈min(Limit, results) / page size⌉): the fewest calls that return the sounds asked for and, when all results are wanted, see \`nextCursor: null\`; page size = the node's Page Size (≤ the service's cap of ${credits.cap}). Minimum credits = minimum calls × the platform's price. Calls, credits and outcomes are the service's ledger.`,
		columns(
			[
				['Platform (price)', (c) => `${c.platform} (${c.price})`],
				['Page Size', (c) => c.pageSize],
				['Limit', (c) => (c.limit === 'Return All' ? 'Return All' : `${c.label}: ${c.limit}`)],
				['sounds out', (c) => c.itemsOut],
				['calls', (c) => c.calls],
				['minimum calls', (c) => c.minCalls],
				['credits', (c) => `**${c.credits}**`],
				['minimum credits', (c) => c.minCredits],
				['waste', (c) => (waste(c) === 0 ? '0' : `**${waste(c)}**`)],
			],
			credits.cases,
		),
	);
}

module.exports = { creditsSection };
