'use strict';

// The reference service's capacity mode over real HTTP: what a real service's limits look like.

const { withReferenceService } = require('../harness/referenceService');

const [KEY, OTHER_KEY] = ['key-capacity', 'key-other'];
const options = { keys: [KEY, OTHER_KEY], capacity: 2, latencyMs: 300, cacheSeconds: 0 };

/** The status, Retry-After and credits of one search. */
async function searchOnce(service, key, q) {
	const { status, headers, credits } = await service.search(
		'shortvideo',
		{ q, limit: '2' },
		{ key },
	);
	return { status, retryAfter: headers.get('retry-after'), credits };
}

test('at most N calls in flight per key: the others get a free 429 with Retry-After', async () => {
	await withReferenceService(options, async (service) => {
		const queries = ['a', 'b', 'c', 'd', 'e'];
		const answers = await Promise.all(queries.map((q) => searchOnce(service, KEY, q)));

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
		const calls = [
			[KEY, 'a'],
			[KEY, 'b'],
			[OTHER_KEY, 'c'],
		];
		const first = await Promise.all(calls.map(([key, q]) => searchOnce(service, key, q)));
		const after = await searchOnce(service, KEY, 'd');

		expect(first.map((answer) => answer.status)).toEqual([200, 200, 200]);
		expect(after.status).toBe(200);
	});
});

test('latency is added to every answer; settings change at run time and reset restores them', async () => {
	await withReferenceService({ ...options, capacity: 0, latencyMs: 0 }, async (service) => {
		await service.setCapacity({ latencyMs: 400, capacity: 1, retryAfterSeconds: 3 });
		const started = Date.now();
		const answers = await Promise.all(['a', 'b'].map((q) => searchOnce(service, KEY, q)));

		expect(Date.now() - started).toBeGreaterThanOrEqual(400);
		expect(answers.map((answer) => answer.retryAfter)).toContain('3');
		await service.reset();
		const restored = { capacity: 0, latencyMs: 0, retryAfterSeconds: 1, rateLimited: 0 };
		expect((await service.ledger()).capacity).toMatchObject(restored);
		await expect(service.setCapacity({ capacity: -1 })).rejects.toThrow(/capacity must be/);
	});
});
