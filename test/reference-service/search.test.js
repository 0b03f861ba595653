'use strict';

// The search endpoints against the spec over real HTTP: auth (5), the two platforms and their
// prices (1, 2.3), pagination (4) and refused requests (7).

const { fnv1a32, SOUND_FIELDS } = require('../../reference-service/catalogue');
const { encodeCursor } = require('../../reference-service/cursor');
const { withReferenceService } = require('../harness/referenceService');
const { KEY, OTHER_KEY, REVOKED_KEY, FRESH, serviceForFile } = require('./shared');

const service = serviceForFile();
/** @type {typeof service.search} */
const search = (...args) => service.search(...args);
const ISO_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** Follows nextCursor to the end; returns every page. */
async function walk(platform, q, limit) {
	const pages = [];
	let cursor = null;
	do {
		const page = await search(platform, { q, limit: String(limit), ...(cursor && { cursor }) });
		expect(page.status).toBe(200);
		pages.push(page);
		cursor = page.body.data.nextCursor;
	} while (cursor !== null);
	return pages;
}

const soundIds = (pages) => pages.flatMap((page) => page.body.data.items.map((i) => i.soundId));

describe('auth', () => {
	const unauthorized = { code: 'unauthorized', message: 'Missing or invalid API key' };
	it.each([
		['no header', { authorization: null }, 401, unauthorized],
		['another scheme', { authorization: `Token ${KEY}` }, 401, unauthorized],
		['an empty bearer', { authorization: 'Bearer ' }, 401, unauthorized],
		['an unknown key', { authorization: 'Bearer secret-unknown-key-7f3a' }, 401, unauthorized],
		['a revoked key', { key: REVOKED_KEY }, 403, { code: 'forbidden', message: 'API key revoked' }],
	])('refuses %s, charges nothing, does not echo the key', async (_label, auth, status, error) => {
		const answer = await search('photosocial', { q: 'rain' }, auth);
		expect([answer.status, answer.credits]).toEqual([status, '0']);
		expect(answer.headers.get('content-type')).toBe('application/json');
		expect(answer.body).toEqual({ success: false, error });
		expect(answer.text).not.toMatch(/secret-unknown-key-7f3a|key-revoked-9f2c/);
		const { requests, totals } = await service.ledger();
		const seen = requests.map((r) => [r.status, r.outcome, r.creditsCharged]);
		expect(seen).toEqual([[status, error.code, 0]]);
		expect(totals.creditsCharged).toBe(0);
	});

	it('accepts every configured key', async () => {
		expect((await search('shortvideo', { q: 'rain' }, { key: KEY })).status).toBe(200);
		expect((await search('shortvideo', { q: 'snow' }, { key: OTHER_KEY })).status).toBe(200);
		expect(service.keys).toEqual([KEY, OTHER_KEY]);
	});
});

describe('platforms and prices', () => {
	it('serves shortvideo for 1 credit with populated items', async () => {
		const answer = await search('shortvideo', { q: 'Ocean Waves' });
		expect([answer.status, answer.credits]).toEqual([200, '1']);
		expect(answer.headers.get('content-type')).toBe('application/json');
		const { items, ...page } = answer.body.data;
		expect(answer.body).toMatchObject({ success: true, available: true });
		expect(page).toEqual({ nextCursor: expect.any(String), ...FRESH });
		expect(items).toHaveLength(20); // default page size
		const [item] = items;
		expect(Object.keys(item)).toEqual(SOUND_FIELDS);
		expect(item.soundId).toMatch(/^7\d{18}$/);
		expect(item.title).toMatch(/Ocean Waves Sound 1\b/);
		expect(typeof item.authorName).toBe('string');
		expect(Number.isInteger(item.postCount)).toBe(true);
		expect(item.durationSeconds).toBeGreaterThanOrEqual(5);
		expect(item.durationSeconds).toBeLessThanOrEqual(180);
		expect(item.url).toEqual({
			uri: expect.any(String),
			width: expect.any(Number),
			height: expect.any(Number),
			url_list: expect.arrayContaining([
				expect.stringMatching(/^https:\/\/audio\.sandbox\.invalid\/.+\.mp3$/),
			]),
			url_prefix: null,
		});
		expect(item.coverUrl.url_list[0]).toMatch(
			/^https:\/\/covers\.sandbox\.invalid\/.+\.jpg\?x-expires=\d+&x-signature=[0-9a-f]+$/,
		);
		expect(item.fetchedAt).toMatch(ISO_SECONDS);
		expect(item).toMatchObject({ cached: false, cacheAgeSeconds: 0 });
	});

	it('serves photosocial for 2 credits with only soundId and title', async () => {
		const answer = await search('photosocial', { q: 'ocean waves', limit: '5' });
		expect(answer.credits).toBe('2');
		expect(answer.body.data.items).toHaveLength(5);
		const nulls = { authorName: null, postCount: null, durationSeconds: null, url: null };
		for (const item of answer.body.data.items) {
			expect(item.soundId).toMatch(/^1\d{15}$/);
			expect(item.title).toEqual(expect.stringContaining('Ocean Waves'));
			expect(item).toMatchObject({ ...nulls, coverUrl: null, cached: false, cacheAgeSeconds: 0 });
		}
	});

	it('is deterministic except for timestamps and cover signatures', async () => {
		const first = await search('shortvideo', { q: 'rain', limit: '3' });
		await service.reset(); // defeat the cache: a second, fresh reading
		const second = await search('shortvideo', { q: 'rain', limit: '3' });
		const stable = (page) =>
			page.body.data.items.map(({ soundId, title, postCount }) => [soundId, title, postCount]);
		expect(stable(second)).toEqual(stable(first));
		const cover = (page) => page.body.data.items[0].coverUrl.url_list[0];
		expect(cover(second)).not.toBe(cover(first));
	});
});

describe('pagination', () => {
	it('pages a 45-match query as 20, 20, 5 and ends with nextCursor null', async () => {
		await service.setCatalogue({ query: 'Forty  Five', total: 45 });
		const pages = await walk('shortvideo', 'forty five', 20);
		expect(pages.map((p) => p.body.data.items.length)).toEqual([20, 20, 5]);
		expect(pages.map((p) => p.body.data.nextCursor === null)).toEqual([false, false, true]);
		expect(new Set(soundIds(pages)).size).toBe(45);
		expect(pages[2].body.data.items[4].title).toMatch(/Forty Five Sound 45\b/);
		expect((await service.ledger()).totals).toEqual({ requests: 3, creditsCharged: 3 });
	});

	it('caps limit at the maximum page size instead of refusing it', async () => {
		const answer = await search('shortvideo', { q: 'lofi', limit: '500' });
		expect(answer.body.success).toBe(true);
		expect(answer.body.data.items).toHaveLength(50);
		expect((await service.ledger()).requests[0]).toMatchObject({ limit: '500', itemCount: 50 });
	});

	it('walks all 10000 lofi matches in 200 pages of 50 with unique soundIds', async () => {
		const started = Date.now();
		const pages = await walk('shortvideo', 'lofi', 50);
		expect(pages).toHaveLength(200);
		const ids = soundIds(pages);
		expect(ids).toHaveLength(10000);
		expect(new Set(ids).size).toBe(10000);
		expect(Date.now() - started).toBeLessThan(20000);
		expect((await service.ledger()).totals).toEqual({ requests: 200, creditsCharged: 200 });
	});

	it('derives other totals from the query hash (40..199)', async () => {
		const pages = await walk('photosocial', 'ocean waves', 50);
		const expected = 40 + (fnv1a32('photosocial:ocean waves') % 160);
		expect(soundIds(pages)).toHaveLength(expected);
	});
});

describe('refused requests', () => {
	// The cursors the service hands out for page 2 of rain, and of snow on the other platform.
	const RAIN_2 = encodeCursor('shortvideo', 'rain', 2);
	const PHOTO_SNOW_2 = encodeCursor('photosocial', 'snow', 2);
	it.each([
		['missing q', {}, 'query_required'],
		['empty q', { q: '' }, 'query_required'],
		['whitespace q', { q: ' \t  ' }, 'query_required'],
		['non-numeric limit', { q: 'snow', limit: 'ten' }, 'invalid_limit'],
		['zero limit', { q: 'snow', limit: '0' }, 'invalid_limit'],
		['negative limit', { q: 'snow', limit: '-3' }, 'invalid_limit'],
		['fractional limit', { q: 'snow', limit: '2.5' }, 'invalid_limit'],
		['garbage cursor', { q: 'snow', cursor: 'not a cursor!' }, 'invalid_cursor'],
		['undecodable cursor', { q: 'snow', cursor: 'AAAA' }, 'invalid_cursor'],
		['cursor of another query', { q: 'snow', cursor: RAIN_2 }, 'invalid_cursor'],
		['cursor of another platform', { q: 'snow', cursor: PHOTO_SNOW_2 }, 'invalid_cursor'],
	])('answers %s with 200, success:false, data:null, 0 credits', async (_label, params, code) => {
		const answer = await search('shortvideo', params);
		expect([answer.status, answer.credits]).toEqual([200, '0']);
		expect(answer.body).toEqual({
			success: false,
			available: false,
			error: { code, message: expect.any(String) },
			data: null,
		});
		const { requests, totals } = await service.ledger();
		expect(requests.map((r) => [r.outcome, r.creditsCharged])).toEqual([['refused', 0]]);
		expect(totals).toEqual({ requests: 1, creditsCharged: 0 });
	});

	it.each([400, 422])(
		'answers them with %i instead when started with --refusal-status (still free, same body)',
		async (status) => {
			const flags = { keys: [KEY], args: ['--refusal-status', String(status)] };
			await withReferenceService(flags, async (strict) => {
				const empty = await strict.search('shortvideo', { q: '' });
				expect([empty.status, empty.credits, empty.body.error.code]).toEqual([
					status,
					'0',
					'query_required',
				]);
				// Only refusals change: a search is still a 200.
				expect((await strict.search('shortvideo', { q: 'snow' })).status).toBe(200);
				const { requests } = await strict.ledger();
				expect(requests.map((r) => [r.status, r.outcome, r.creditsCharged])).toEqual([
					[status, 'refused', 0],
					[200, 'ok', 1],
				]);
			});
		},
	);

	it('hands out the cursors those cases replay, and accepts an equal query written otherwise', async () => {
		const first = await search('shortvideo', { q: 'rain', limit: '2' });
		const photo = await search('photosocial', { q: 'snow', limit: '2' });
		expect([first.body.data.nextCursor, photo.body.data.nextCursor]).toEqual([
			RAIN_2,
			PHOTO_SNOW_2,
		]);
		const cursor = first.body.data.nextCursor;
		const next = await search('shortvideo', { q: '  RAIN ', limit: '2', cursor });
		expect(next.body.success).toBe(true);
		expect(next.body.data.items[0].title).toMatch(/Rain Sound 3\b/);
	});
});
