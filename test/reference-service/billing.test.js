'use strict';

// What a search costs (spec 8): lookups without data are charged, a repeat within the cache window
// is free, and the ledger records every search with its credits.

const { setTimeout: sleep } = require('node:timers/promises');
const { withReferenceService } = require('../harness/referenceService');
const { KEY, OTHER_KEY, FRESH, serviceForFile } = require('./shared');

const service = serviceForFile();
/** @type {typeof service.search} */
const search = (...args) => service.search(...args);

describe('charged lookups without data', () => {
	it.each([
		['shortvideo', 'No  Such Sound', '1', null, 'empty'],
		['photosocial', 'No  Such Sound', '2', null, 'empty'],
		['photosocial', 'private sound', '2', 'private', 'unavailable'],
		['photosocial', 'deleted sound', '2', 'deleted', 'unavailable'],
		['photosocial', 'unsupported sound', '2', 'unsupported', 'unavailable'],
	])('charges %s "%s" (%s credits), availability status %s', async (...row) => {
		const [platform, q, credits, availabilityStatus, outcome] = row;
		const answer = await search(platform, { q });
		expect([answer.status, answer.credits]).toEqual([200, credits]);
		const availability = availabilityStatus
			? { available: false, availabilityStatus }
			: { available: true };
		const data = { items: [], nextCursor: null, ...FRESH };
		expect(answer.body).toEqual({ success: true, ...availability, data });
		const [request] = (await service.ledger()).requests;
		expect(request).toMatchObject({ outcome, creditsCharged: Number(credits) });
	});

	it('takes availability overrides per platform', async () => {
		const gone = { query: 'gone', platform: 'photosocial', availabilityStatus: 'deleted' };
		await service.setCatalogue(gone);
		expect((await search('photosocial', { q: 'gone' })).body.availabilityStatus).toBe('deleted');
		expect((await search('shortvideo', { q: 'gone' })).body.available).toBe(true);
	});
});

describe('cache', () => {
	it('repeats an identical request for free, whatever the key, until reset', async () => {
		const fresh = await search('shortvideo', { q: 'Rain', limit: '5' }, { key: KEY });
		const repeat = await search('shortvideo', { q: '  rain ', limit: '5' }, { key: OTHER_KEY });
		expect([fresh.credits, repeat.credits]).toEqual(['1', '0']);
		expect(repeat.body.data).toMatchObject({
			cached: true,
			fetchedAt: null,
			cacheAgeSeconds: expect.any(Number),
		});
		repeat.body.data.items.forEach((item, index) => {
			const original = fresh.body.data.items[index];
			expect(item).toEqual({ ...original, cached: true, cacheAgeSeconds: expect.any(Number) });
			expect(Number.isInteger(item.cacheAgeSeconds)).toBe(true);
		});
		// Another limit is another request: charged.
		expect((await search('shortvideo', { q: 'rain', limit: '6' })).credits).toBe('1');
		expect((await service.ledger()).requests.map((r) => r.outcome)).toEqual(['ok', 'cached', 'ok']);

		await service.reset();
		const again = await search('shortvideo', { q: 'rain', limit: '5' });
		expect(again.credits).toBe('1');
		expect(again.body.data.cached).toBe(false);
	});

	it('reports the age of the reading in whole seconds', async () => {
		const fresh = await search('shortvideo', { q: 'thunder', limit: '2' });
		await sleep(1100);
		const repeat = await search('shortvideo', { q: 'thunder', limit: '2' });
		expect(repeat.body.data.cacheAgeSeconds).toBeGreaterThanOrEqual(1);
		expect(repeat.body.data.items[0].cacheAgeSeconds).toBe(repeat.body.data.cacheAgeSeconds);
		expect(repeat.body.data.items[0].fetchedAt).toBe(fresh.body.data.items[0].fetchedAt);
	});

	it('caches available:false answers like successes', async () => {
		await search('shortvideo', { q: 'private sound' });
		const repeat = await search('shortvideo', { q: 'private sound' });
		expect(repeat.credits).toBe('0');
		const unavailable = { available: false, availabilityStatus: 'private' };
		expect(repeat.body).toMatchObject({ ...unavailable, data: { cached: true } });
	});

	it('charges again once the window has passed', async () => {
		await withReferenceService({ cacheSeconds: 1 }, async (short) => {
			const credits = async () => (await short.search('shortvideo', { q: 'rain' })).credits;
			expect(await credits()).toBe('1');
			expect(await credits()).toBe('0');
			await sleep(1100);
			expect(await credits()).toBe('1');
		});
	});
});

describe('ledger', () => {
	it('records every search with its raw inputs and outcome, but not control calls', async () => {
		const first = await search('shortvideo', { q: ' Lo  Fi ', limit: '3' });
		const cursor = first.body.data.nextCursor;
		await search('shortvideo', { q: 'lo fi', limit: '3', cursor }, { key: OTHER_KEY });
		await fetch(`${service.url}/healthz`);
		const { requests, totals } = await service.ledger();
		const where = { method: 'GET', path: '/v1/shortvideo/sound/search', platform: 'shortvideo' };
		const sent = { q: ' Lo  Fi ', query: 'lo fi', limit: '3', cursor: null };
		const answered = { status: 200, creditsCharged: 1, outcome: 'ok', itemCount: 3 };
		const at = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/);
		expect(requests).toEqual([
			{ seq: 1, at, ...where, ...sent, authorization: `Bearer ${KEY}`, ...answered },
			expect.objectContaining({
				seq: 2,
				cursor,
				authorization: `Bearer ${OTHER_KEY}`,
				outcome: 'ok',
			}),
		]);
		expect(totals).toEqual({ requests: 2, creditsCharged: 2 });
	});
});
