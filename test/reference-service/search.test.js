'use strict';

// The search endpoints against the spec over real HTTP: auth (5), the two platforms and their
// prices (1, 2.3), pagination and cursors (4) and refused requests (7).

const { fnv1a32, SOUND_FIELDS } = require('../../reference-service/catalogue');
const { encodeCursor } = require('../../reference-service/cursor');
const { withReferenceService } = require('../harness/referenceService');
const { KEY, REVOKED_KEY, FRESH, serviceForFile } = require('./shared');

const service = serviceForFile();
/** @type {typeof service.search} */
const search = (...args) => service.search(...args);
/** What the ledger recorded of each request: status, outcome, credits. */
const recorded = async () =>
	(await service.ledger()).requests.map((r) => [r.status, r.outcome, r.creditsCharged]);

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
		expect(await recorded()).toEqual([[status, error.code, 0]]);
	});
});

describe('platforms and prices', () => {
	const media = (url) => ({
		...{ uri: expect.any(String), width: expect.any(Number), height: expect.any(Number) },
		url_list: expect.arrayContaining([expect.stringMatching(url)]),
		url_prefix: null,
	});
	const SHORTVIDEO = {
		soundId: expect.stringMatching(/^7\d{18}$/),
		...{ authorName: expect.any(String), postCount: expect.any(Number) },
		url: media(/^https:\/\/audio\.sandbox\.invalid\/.+\.mp3$/),
		coverUrl: media(
			/^https:\/\/covers\.sandbox\.invalid\/.+\.jpg\?x-expires=\d+&x-signature=[0-9a-f]+$/,
		),
	};
	const PHOTOSOCIAL = {
		soundId: expect.stringMatching(/^1\d{15}$/),
		...{ authorName: null, postCount: null, durationSeconds: null, url: null, coverUrl: null },
	};
	it.each([
		['shortvideo', '1 credit, every field populated', '1', SHORTVIDEO],
		['photosocial', '2 credits, only soundId and title', '2', PHOTOSOCIAL],
	])('serves %s for %s, 20 items by default', async (platform, _, credits, fields) => {
		const answer = await search(platform, { q: 'Ocean Waves' });
		expect([answer.status, answer.credits]).toEqual([200, credits]);
		expect(answer.headers.get('content-type')).toBe('application/json');
		const { items, ...page } = answer.body.data;
		expect(answer.body).toMatchObject({ success: true, available: true });
		expect(page).toEqual({ nextCursor: expect.any(String), ...FRESH });
		expect(items).toHaveLength(20);
		expect(Object.keys(items[0])).toEqual(SOUND_FIELDS);
		expect(items[0]).toMatchObject({
			...fields,
			title: expect.stringMatching(/Ocean Waves Sound 1\b/),
			fetchedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
			...{ cached: false, cacheAgeSeconds: 0 },
		});
		if (platform === 'shortvideo') expect(items[0].durationSeconds).toBeGreaterThanOrEqual(5);
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
	it.each([
		['a 45-match override', 'shortvideo', 'forty five', 20, 45],
		['all 10000 "lofi" matches', 'shortvideo', 'lofi', 50, 10000],
		['a total from the query hash (40..199)', 'photosocial', 'ocean waves', 50, null],
	])('walks %s to nextCursor null, each soundId once, each page charged', async (...row) => {
		const [, platform, q, limit, total] = row;
		// The override is set for the query written otherwise: it is normalized too.
		if (total === 45) await service.setCatalogue({ query: 'Forty  Five', total });
		const matches = total ?? 40 + (fnv1a32(`${platform}:${q}`) % 160);
		const pages = await walk(platform, q, limit);
		const ids = pages.flatMap((page) => page.body.data.items.map((i) => i.soundId));
		expect([pages.length, ids.length, new Set(ids).size]).toEqual([
			Math.ceil(matches / limit),
			matches,
			matches,
		]);
		const charged = pages.length * (platform === 'shortvideo' ? 1 : 2);
		const totals = { requests: pages.length, creditsCharged: charged };
		expect((await service.ledger()).totals).toEqual(totals);
	});

	it('caps limit at the maximum page size instead of refusing it', async () => {
		const answer = await search('shortvideo', { q: 'lofi', limit: '500' });
		expect(answer.body.data.items).toHaveLength(50);
		expect((await service.ledger()).requests[0]).toMatchObject({ limit: '500', itemCount: 50 });
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
		const error = { code, message: expect.any(String) };
		expect(answer.body).toEqual({ success: false, available: false, error, data: null });
		expect(await recorded()).toEqual([[200, 'refused', 0]]);
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
			});
		},
	);

	it('hands out the cursors those cases replay, and accepts an equal query written otherwise', async () => {
		const first = await search('shortvideo', { q: 'rain', limit: '2' });
		const photo = await search('photosocial', { q: 'snow', limit: '2' });
		const cursor = first.body.data.nextCursor;
		expect([cursor, photo.body.data.nextCursor]).toEqual([RAIN_2, PHOTO_SNOW_2]);
		const next = await search('shortvideo', { q: '  RAIN ', limit: '2', cursor });
		expect(next.body.data.items[0].title).toMatch(/Rain Sound 3\b/);
	});
});
