'use strict';

// The reference service's capacity mode over real HTTP: what a real service's limits look like.

const { withReferenceService } = require('../harness/referenceService');

const KEY = 'key-capacity';
const OTHER_KEY = 'key-other';

async function searchOnce(service, key, q) {
	const url = `${service.url}/v1/shortvideo/sound/search?q=${encodeURIComponent(q)}&limit=2`;
	const response = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
	await response.text();
	return {
		status: response.status,
		retryAfter: response.headers.get('retry-after'),
		credits: response.headers.get('x-credits-charged'),
	};
}

const options = { keys: [KEY, OTHER_KEY], capacity: 2, latencyMs: 300, cacheSeconds: 0 };

test('at most N calls in flight per key: the others get a free 429 with Retry-After', async () => {
	await withReferenceService(options, async (service) => {
		const answers = await Promise.all(
			['a', 'b', 'c', 'd', 'e'].map((q) => searchOnce(service, KEY, q)),
		);

		const byStatus = (status) => answers.filter((answer) => answer.status === status);
		expect(byStatus(200)).toHaveLength(2);
		expect(byStatus(429)).toEqual(Array(3).fill({ status: 429, retryAfter: '1', credits: '0' }));
		const { capacity, totals } = await service.ledger();
		expect(capacity).toMatchObject({ rateLimited: 3, inFlight: 0 });
		// Two held for 300 ms, plus refusals, which are answered at once.
		expect(capacity.mostInFlight).toBeGreaterThanOrEqual(3);
		expect(totals).toEqual({ requests: 5, creditsCharged: 2 });
	});
});

test('the limit is per key, and a freed slot is usable again', async () => {
	await withReferenceService(options, async (service) => {
		const first = await Promise.all([
			searchOnce(service, KEY, 'a'),
			searchOnce(service, KEY, 'b'),
			searchOnce(service, OTHER_KEY, 'c'),
		]);
		const after = await searchOnce(service, KEY, 'd');

		expect(first.map((answer) => answer.status)).toEqual([200, 200, 200]);
		expect(after.status).toBe(200);
	});
});

test('latency is added to every answer; settings change at run time and reset restores them', async () => {
	await withReferenceService({ ...options, capacity: 0, latencyMs: 0 }, async (service) => {
		await service.setCapacity({ latencyMs: 400, capacity: 1, retryAfterSeconds: 3 });
		const started = Date.now();
		const answers = await Promise.all([
			searchOnce(service, KEY, 'a'),
			searchOnce(service, KEY, 'b'),
		]);

		expect(Date.now() - started).toBeGreaterThanOrEqual(400);
		expect(answers.map((answer) => answer.retryAfter)).toContain('3');
		await service.reset();
		expect((await service.ledger()).capacity).toMatchObject({
			capacity: 0,
			latencyMs: 0,
			retryAfterSeconds: 1,
			rateLimited: 0,
		});
		await expect(service.setCapacity({ capacity: -1 })).rejects.toThrow(/capacity must be/);
	});
});
