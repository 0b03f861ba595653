'use strict';

// The reference service's quota mode over real HTTP: N calls per rolling window per key, refused
// with a free 429 whose Retry-After says when the next slot frees; the RateLimit-* headers.

const { setTimeout: sleep } = require('node:timers/promises');
const { withReferenceService } = require('../harness/referenceService');

const [KEY, OTHER_KEY] = ['key-quota', 'key-other'];
const base = { keys: [KEY, OTHER_KEY], cacheSeconds: 0 };

/** The status, Retry-After, credits and RateLimit-* headers of one search. */
async function searchOnce(service, q, key = KEY) {
	const { status, headers, credits } = await service.search('shortvideo', { q }, { key });
	const rateLimit = Object.fromEntries(
		[...headers].filter(([name]) => name.startsWith('ratelimit-')),
	);
	return { status, retryAfter: headers.get('retry-after'), credits, rateLimit };
}

const statuses = (answers) => answers.map((answer) => answer.status);

test('--quota 3/s: three calls per rolling second per key, the others a free 429 to the next slot', async () => {
	await withReferenceService({ ...base, quota: '3/s' }, async (service) => {
		const burst = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((q) => searchOnce(service, q)));
		const other = await searchOnce(service, 'f', OTHER_KEY);

		expect(statuses(burst).sort()).toEqual([200, 200, 200, 429, 429]);
		const refused = burst.filter((answer) => answer.status === 429);
		const free429 = { status: 429, retryAfter: '1', credits: '0', rateLimit: {} };
		expect(refused).toEqual([free429, free429]);
		expect(other.status).toBe(200);
		const { quota, totals } = await service.ledger();
		expect(quota).toMatchObject({ limit: 3, windowMs: 1000, accepted: 4, refused: 2 });
		expect(totals.creditsCharged).toBe(4);
	});
});

test('a window of seconds is rolling: Retry-After counts to when the oldest call leaves it', async () => {
	await withReferenceService({ ...base, quota: '2/3s' }, async (service) => {
		const first = await searchOnce(service, 'a');
		await sleep(1200);
		const second = await searchOnce(service, 'b');
		const refused = await searchOnce(service, 'c');

		expect(statuses([first, second, refused])).toEqual([200, 200, 429]);
		// The first call leaves the window 3 s after it came, about 1.8 s from now: 2 whole seconds.
		expect(refused.retryAfter).toBe('2');
		await sleep(2000);
		// The first call has left; the second is still in: one slot, not a new window of two.
		const after = await Promise.all(['d', 'e'].map((q) => searchOnce(service, q)));
		expect(statuses(after).sort()).toEqual([200, 429]);
	});
});

test('RateLimit-* headers on every answer when asked; settings change at run time; reset restores them', async () => {
	const args = ['--quota', '2/min', '--quota-headers'];
	await withReferenceService({ ...base, args }, async (service) => {
		const answers = [];
		for (const q of ['a', 'b', 'c']) answers.push(await searchOnce(service, q));

		const remaining = answers.map((answer) => answer.rateLimit['ratelimit-remaining']);
		expect(remaining).toEqual(['1', '0', '0']);
		expect(answers[2]).toMatchObject({ status: 429, retryAfter: '60' });
		expect(answers[2].rateLimit).toEqual({
			'ratelimit-limit': '2',
			'ratelimit-remaining': '0',
			'ratelimit-reset': '60',
			'ratelimit-policy': '2;w=60',
		});

		await service.setQuota({ limit: 0 });
		expect((await searchOnce(service, 'd')).status).toBe(200);
		await service.reset();
		const started = { limit: 2, windowMs: 60_000, headers: true, accepted: 0, refused: 0 };
		expect((await service.ledger()).quota).toEqual(started);
		await expect(service.setQuota({ windowMs: 0 })).rejects.toThrow(/windowMs must be/);
	});
});
