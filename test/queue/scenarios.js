'use strict';

// What the queue-mode suite expects of a search, read from the reference service's own catalogue
// code, and the checks of webhook answers and of the service's ledger against it.

const { readPage, normalizeQuery, overrideKey } = require('../../reference-service/catalogue');

const PRICE = /** @type {Record<string, number>} */ ({ shortvideo: 1, photosocial: 2 });
const SERVICE_KEY = 'queue-mode-test-key';

/**
 * @typedef {object} SearchCase
 * @property {string} keyword
 * @property {'shortvideo' | 'photosocial'} platform
 * @property {boolean} returnAll
 * @property {number} [limit] when not returnAll
 * @property {number} pageSize
 * @property {number} total what the catalogue holds for the keyword
 * @typedef {{ c: SearchCase, status: number, executionId: string | null, items: any, ms: number }} Answer
 */

// The shapes of a burst: Return All over 3 pages (two ways), Limit in one page, Limit over 3 pages.
const SHAPES = [
	{ returnAll: true, total: 120, pageSize: 50 }, // 50 + 50 + 20
	{ returnAll: true, total: 45, pageSize: 20 }, // 20 + 20 + 5
	{ returnAll: false, limit: 30, pageSize: 50, total: 200 }, // 30
	{ returnAll: false, limit: 70, pageSize: 25, total: 200 }, // 25 + 25 + 20
];

/**
 * Keywords `<prefix> 01`, `<prefix> 02`, ...; shapes in turn, platforms every 4 cases.
 * @param {string} prefix
 * @param {number} count
 * @returns {SearchCase[]}
 */
const makeCases = (prefix, count) =>
	Array.from({ length: count }, (_, i) => ({
		keyword: `${prefix} ${String(i + 1).padStart(2, '0')}`,
		platform: Math.floor(i / SHAPES.length) % 2 === 0 ? 'shortvideo' : 'photosocial',
		...SHAPES[i % SHAPES.length],
	}));

/**
 * The calls the node must make for a case: the limit it asks for and the sounds it gets, per page.
 * @param {SearchCase} c
 */
function expectedPages(c) {
	const want = c.returnAll ? Infinity : Number(c.limit);
	const pages = [];
	for (let got = 0; got < c.total && got < want; ) {
		const limit = Math.min(c.pageSize, want - got);
		const items = Math.min(limit, c.total - got);
		pages.push({ limit, items });
		got += items;
	}
	return pages;
}

/** @param {SearchCase[]} cases */
const pagesOf = (cases) => cases.reduce((sum, c) => sum + expectedPages(c).length, 0);

/** @param {any[]} records ledger records */
const credits = (records) => records.reduce((sum, r) => sum + (r.creditsCharged ?? 0), 0);

/**
 * The sounds a case must return, with the page each comes from.
 * @param {SearchCase} c
 */
function expectedItems(c) {
	const query = normalizeQuery(c.keyword);
	const pageOf = expectedPages(c).flatMap((p, index) => Array(p.items).fill(index + 1));
	const overrides = new Map([
		[overrideKey(c.platform, query), { total: c.total, availabilityStatus: null }],
	]);
	const read = {
		platform: c.platform,
		query,
		offset: 0,
		limit: pageOf.length,
		readingMs: Date.now(),
		overrides,
	};
	return readPage(read).items.map((/** @type {any} */ item, /** @type {number} */ i) => ({
		soundId: item.soundId,
		title: item.title,
		authorName: item.authorName,
		durationSeconds: item.durationSeconds,
		page: pageOf[i],
		creditsCharged: PRICE[c.platform],
	}));
}

/**
 * What is wrong with webhook answers (empty when each is exactly right).
 * @param {Answer[]} answers
 * @returns {string[]}
 */
const checkAnswers = (answers) => answers.flatMap(checkAnswer);

/** @param {Answer} answer */
function checkAnswer({ c, status, items }) {
	const where = `${c.platform} "${c.keyword}"`;
	if (status !== 200 || !Array.isArray(items))
		return [`${where}: HTTP ${status} ${JSON.stringify(items).slice(0, 300)}`];
	const expected = expectedItems(c);
	const problems =
		items.length === expected.length
			? []
			: [`${where}: ${items.length} items, expected ${expected.length}`];
	expected.forEach((want, i) => {
		for (const [key, value] of Object.entries(want))
			if (items[i]?.[key] !== value)
				problems.push(
					`${where} item ${i}: ${key} = ${JSON.stringify(items[i]?.[key])}, expected ${value}`,
				);
	});
	return problems.slice(0, 10);
}

/**
 * Ledger records of a case, in the order the service received them.
 * @param {any[]} ledger
 * @param {SearchCase} c
 */
const recordsOf = (ledger, c) =>
	ledger
		.filter((r) => r.platform === c.platform && r.query === normalizeQuery(c.keyword))
		.sort((a, b) => a.seq - b.seq);

/**
 * What is wrong with the ledger for cases that must have run completely: exactly one charged
 * request per expected page, with the expected limits, sizes, cursor and key.
 * @param {SearchCase[]} cases
 * @param {any[]} ledger
 */
function checkLedger(cases, ledger) {
	return cases.flatMap((c) => {
		const [records, pages, where] = [
			recordsOf(ledger, c),
			expectedPages(c),
			`${c.platform} "${c.keyword}"`,
		];
		if (records.length !== pages.length)
			return [
				`${where}: the service saw ${records.length} requests, expected ${pages.length} (one per page)`,
			];
		return records.flatMap((r, i) => {
			const bad = [
				Number(r.limit) !== pages[i].limit && `limit ${r.limit} (expected ${pages[i].limit})`,
				r.itemCount !== pages[i].items && `${r.itemCount} items (expected ${pages[i].items})`,
				(r.outcome !== 'ok' || r.status !== 200) && `outcome ${r.outcome} / ${r.status}`,
				r.creditsCharged !== PRICE[c.platform] &&
					`${r.creditsCharged} credits (expected ${PRICE[c.platform]})`,
				(i === 0) !== !r.cursor &&
					(i === 0 ? 'a cursor on the first page' : 'no cursor after the first page'),
				r.authorization !== `Bearer ${SERVICE_KEY}` && "not the credential's key",
			].filter(Boolean);
			return bad.length > 0 ? [`${where} page ${i + 1}: ${bad.join(', ')}`] : [];
		});
	});
}

/**
 * Requests the service saw more than once (same platform, query, limit, cursor): a call paid twice.
 * @param {any[]} ledger
 */
function duplicateRequests(ledger) {
	/** @type {Map<string, number>} */
	const seen = new Map();
	for (const r of ledger) {
		const key = `${r.platform}|${r.query}|${r.limit}|${r.cursor ?? ''}`;
		seen.set(key, (seen.get(key) ?? 0) + 1);
	}
	return [...seen].filter(([, n]) => n > 1).map(([key, n]) => `${key} x${n}`);
}

module.exports = {
	PRICE,
	SERVICE_KEY,
	makeCases,
	expectedPages,
	pagesOf,
	credits,
	checkAnswers,
	recordsOf,
	checkLedger,
	duplicateRequests,
};
