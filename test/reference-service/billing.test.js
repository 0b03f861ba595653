'use strict';

// What a search costs (spec 8): lookups without data are charged, a repeat within the cache window
// is free (rule 3), and the ledger records every search with its credits.

const { setTimeout: sleep } = require('node:timers/promises');
const { withReferenceService } = require('../harness/referenceService');
const { KEY, OTHER_KEY, FRESH, serviceForFile } = require('./shared');

const service = serviceForFile();
/** @type {typeof service.search} */
const search = (...args) => service.search(...args);
const outcomes = async () => (await service.ledger()).requests.map((r) => r.outcome);

describe('charged lookups without data', () => {
	it.each([
		['shortvideo', 'No  Such Sound', '1', null, 'empty'],
		['photosocial', 'No  Such Sound', '2', null, 'empty'],
		['photosocial', 'private sound', '2', 'private', 'unavailable'],
		['photosocial', 'deleted sound', '2', 'deleted', 'unavailable'],
		['photosocial', 'unsupported sound', '2', 'unsupported', 'unavailable'],
	])('charges %s "%s" (%s credits), availability status %s; a repeat is cached', async (...row) => {
		const [platform, q, credits, availabilityStatus, outcome] = row;
		const answer = await search(platform, { q });
		expect([answer.status, answer.credits]).toEqual([200, credits]);
		const availability = availabilityStatus
			? { available: false, availabilityStatus }
			: { available: true };
		const data = { items: [], nextCursor: null, ...FRESH };
		expect(answer.body).toEqual({ success: true, ...availability, data });
		const repeat = await search(platform, { q });
		expect(repeat.credits).toBe('0');
		expect(repeat.body).toMatchObject({ ...availability, data: { cached: true } });
		expect(await outcomes()).toEqual([outcome, 'cached']);
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
		const age = expect.any(Number);
		expect(repeat.body.data).toMatchObject({ cached: true, fetchedAt: null, cacheAgeSeconds: age });
		const again = fresh.body.data.items.map((item) => ({
			...item,
			cached: true,
			cacheAgeSeconds: age,
		}));
		expect(repeat.body.data.items).toEqual(again);
		// Another limit is another request: charged.
		expect((await search('shortvideo', { q: 'rain', limit: '6' })).credits).toBe('1');
		expect(await outcomes()).toEqual(['ok', 'cached', 'ok']);

		await service.reset();
		const afterReset = await search('shortvideo', { q: 'rain', limit: '5' });
		expect([afterReset.credits, afterReset.body.data.cached]).toEqual(['1', false]);
	});

	it('reports the age of the reading in whole seconds, and charges again once the window has passed', async () => {
		await withReferenceService({ cacheSeconds: 3 }, async (short) => {
			const read = () => short.search('shortvideo', { q: 'thunder', limit: '2' });
			const fresh = await read();
			await sleep(1100);
			const repeat = await read();
			const age = repeat.body.data.cacheAgeSeconds;
			expect([repeat.credits, Number.isInteger(age), age >= 1]).toEqual(['0', true, true]);
			const [first] = fresh.body.data.items;
			expect(repeat.body.data.items[0]).toMatchObject({
				cacheAgeSeconds: age,
				fetchedAt: first.fetchedAt,
			});
			await sleep(2000);
			expect((await read()).credits).toBe('1');
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
			expect.objectContaining({ seq: 2, cursor, authorization: `Bearer ${OTHER_KEY}` }),
		]);
		expect(totals).toEqual({ requests: 2, creditsCharged: 2 });
	});
});
