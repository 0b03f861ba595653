'use strict';

// The reference service's capacity mode over real HTTP: at most N calls in flight per key.

const { withReferenceService } = require('../harness/referenceService');

const [KEY, OTHER_KEY] = ['key-capacity', 'key-other'];
const options = { keys: [KEY, OTHER_KEY], capacity: 2, latencyMs: 300, cacheSeconds: 0 };

/** The status, Retry-After and credits of one search. */
async function searchOnce(service, key, q) {
	const { status, headers, credits } = await service.search('shortvideo', { q }, { key });
	return { status, retryAfter: headers.get('retry-after'), credits };
}

test('at most N calls in flight per key: the others get a free 429 with Retry-After; a freed slot is usable again', async () => {
	await withReferenceService(options, async (service) => {
		const calls = [KEY, KEY, KEY, KEY, KEY, OTHER_KEY];
		const answers = await Promise.all(calls.map((key, i) => searchOnce(service, key, `q${i}`)));
		const after = await searchOnce(service, KEY, 'after');

		expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 429, 429, 429]);
		expect(answers[5].status).toBe(200); // the other key's own slots
		const refused = answers.filter((answer) => answer.status === 429);
		expect(refused).toEqual(Array(3).fill({ status: 429, retryAfter: '1', credits: '0' }));
		expect(after.status).toBe(200);
		const { capacity, totals } = await service.ledger();
		// Those held for 300 ms, and a refusal beside them (refusals are answered at once).
		expect(capacity).toMatchObject({ rateLimited: 3, inFlight: 0 });
		expect(capacity.mostInFlight).toBeGreaterThanOrEqual(3);
		expect(totals).toEqual({ requests: 7, creditsCharged: 4 });
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
