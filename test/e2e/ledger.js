'use strict';

// What the reference service got: its ledger, one row per request n8n caused, read after a run.
// A test asserts on the requests (q, platform, limit, cursor: what the node asked for) and on
// what each page cost (credits) and held (items): expect(await scenario.ledger()).toEqual([page(
// { q: 'lofi', platform: 'photosocial', credits: 2, items: 3 }), ...]).

/** The ledger's row for one request, as the tests compare it. @param {any} r */
const ledgerRow = (r) => ({
	platform: r.platform,
	q: r.q,
	limit: r.limit,
	cursor: r.cursor,
	status: r.status,
	outcome: r.outcome,
	credits: r.creditsCharged,
	items: r.itemCount,
	authorization: r.authorization,
});

/**
 * What a test expects of one page the service was asked for: those of its fields it names.
 * @param {Partial<ReturnType<typeof ledgerRow>>} fields
 */
const page = (fields) => expect.objectContaining(fields);

/**
 * Rows sorted by search (platform, then query), each search's own pages in order: the node
 * searches several input items at once.
 * @template {{ platform: string, q: string | null }} T @param {T[]} rows @returns {T[]}
 */
function bySearch(rows) {
	const key = (/** @type {T} */ r) => `${r.platform} ${r.q}`;
	return [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** What a page of search results costs on each platform (the service's pricing). */
const PRICE = { shortvideo: 1, photosocial: 2 };

/**
 * The searches the service must have seen, one page each at its platform's price, in the order
 * bySearch gives the ledger.
 * @param {{ platform: string, q: string }[]} searches @param {Record<string, unknown>} fields
 */
const onePageEach = (searches, fields) =>
	bySearch(searches).map((s) => page({ ...s, ...fields, credits: PRICE[s.platform] }));

module.exports = { ledgerRow, page, bySearch, onePageEach };
