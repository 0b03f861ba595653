'use strict';

// The reference service's clock: between polls, new sounds appear and post counts grow,
// deterministically, so trend tests know exactly what is new and what is rising.

const { withReferenceService } = require('../harness/referenceService');

const options = { keys: ['key-time'] };

async function firstPage(service, q) {
	return (await service.search('shortvideo', { q, limit: '50' })).body.data.items;
}
const ids = (sounds) => sounds.map((sound) => sound.soundId);

test('new sounds appear at the top of a query, with ids of their own; the others move down', async () => {
	await withReferenceService(options, async (service) => {
		const before = await firstPage(service, 'rainy jazz');
		expect(await service.passTime({ newSounds: { 'Rainy Jazz': 3 } })).toEqual({
			ok: true,
			day: 0,
		});
		const after = await firstPage(service, 'rainy jazz');

		const oldIds = new Set(ids(before));
		expect(after.slice(0, 3).every((sound) => !oldIds.has(sound.soundId))).toBe(true);
		expect(ids(after.slice(3))).toEqual(ids(before.slice(0, 47)));
		const other = await firstPage(service, 'workout');
		await service.passTime({ newSounds: { 'rainy jazz': 1 } });
		expect(await firstPage(service, 'workout')).toHaveLength(other.length);
	});
});

test('post counts grow with the days, each sound at its own deterministic rate', async () => {
	await withReferenceService(options, async (service) => {
		const day0 = await firstPage(service, 'lofi');
		await service.passTime({ days: 3 });
		const day3 = await firstPage(service, 'lofi');

		const growth = day3.map((sound, i) => sound.postCount / Math.max(1, day0[i].postCount));
		expect(ids(day3)).toEqual(ids(day0));
		expect(growth.every((g) => g >= 1)).toBe(true);
		// One in ten rises fast, each at its own rate (25 % to 90 % a day): at least 1.95x in three
		// days, and not all alike (a ranking of risers would tie, a chart run parallel).
		const risers = growth.filter((g) => g > 1.9);
		expect(risers.length).toBeGreaterThan(1);
		expect(new Set(risers.map((g) => g.toFixed(2))).size).toBeGreaterThan(1);
		expect(growth.filter((g) => g < 1.2).length).toBeGreaterThan(growth.length / 2);
		await service.reset();
		const counts = (sounds) => sounds.map((sound) => sound.postCount);
		expect(counts(await firstPage(service, 'lofi'))).toEqual(counts(day0));
		await expect(service.passTime({ days: -1 })).rejects.toThrow(/ 400: /);
	});
});
