'use strict';

// The reference service's bucket mode over real HTTP: a token bucket per key (a burst of its
// size, then its refill rate), refused with a free 429 whose Retry-After says when a token is back.

const { setTimeout: sleep } = require('node:timers/promises');
const { withReferenceService } = require('../harness/referenceService');

const [KEY, OTHER_KEY] = ['key-bucket', 'key-other'];
const base = { keys: [KEY, OTHER_KEY], cacheSeconds: 0 };

/** The status, Retry-After and credits of one search. */
async function searchOnce(service, q, key = KEY) {
	const { status, headers, credits } = await service.search('shortvideo', { q }, { key });
	return { status, retryAfter: headers.get('retry-after'), credits };
}

const burst = (service, n, prefix) =>
	Promise.all(Array.from({ length: n }, (_, i) => searchOnce(service, `${prefix} ${i}`)));
const accepted = (answers) => answers.filter((answer) => answer.status === 200).length;

test('--bucket 4:2/s: a burst of the size per key, then the refill rate; an empty bucket is a free 429 to the next token', async () => {
	await withReferenceService({ ...base, bucket: '4:2/s' }, async (service) => {
		const first = await burst(service, 6, 'a');
		const other = await searchOnce(service, 'other', OTHER_KEY);

		expect(accepted(first)).toBe(4);
		const refused = first.filter((answer) => answer.status === 429);
		expect(refused).toEqual(Array(2).fill({ status: 429, retryAfter: '1', credits: '0' }));
		expect(other.status).toBe(200); // its own bucket
		// 2 tokens a second: after 1.1 s two are back, not a whole new burst of 4.
		await sleep(1100);
		expect(accepted(await burst(service, 4, 'b'))).toBe(2);
		const { bucket, totals } = await service.ledger();
		expect(bucket).toMatchObject({ size: 4, refillPerSecond: 2, accepted: 7, refused: 4 });
		expect(totals.creditsCharged).toBe(7);
	});
});

test('settings change at run time (a slow refill: Retry-After in whole seconds); reset restores them; bad settings refused', async () => {
	await withReferenceService(base, async (service) => {
		expect(accepted(await burst(service, 5, 'open'))).toBe(5); // no bucket by default

		await service.setBucket({ size: 1, refillPerSecond: 0.25 });
		const [taken, empty] = [await searchOnce(service, 'x'), await searchOnce(service, 'y')];
		expect([taken.status, empty.status]).toEqual([200, 429]);
		expect(empty.retryAfter).toBe('4'); // a token every 4 s

		await service.reset();
		expect((await service.ledger()).bucket).toEqual({
			size: 0,
			refillPerSecond: 1,
			accepted: 0,
			refused: 0,
		});
		expect(accepted(await burst(service, 3, 'after reset'))).toBe(3);
		await expect(service.setBucket({ size: -1 })).rejects.toThrow(/size must be/);
		await expect(service.setBucket({ refillPerSecond: 0 })).rejects.toThrow(/refillPerSecond/);
	});
});
