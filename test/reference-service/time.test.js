'use strict';

// The reference service's clock: between polls, new sounds appear and post counts grow,
// deterministically, each sound at its own rate or as a script says (trends.js), so trend tests
// know exactly what is new and what is rising.

const { withReferenceService } = require('../harness/referenceService');

const options = { keys: ['key-time'] };
const firstPage = async (service, q, limit = '50') =>
	(await service.search('shortvideo', { q, limit })).body.data.items;
const ids = (sounds) => sounds.map((sound) => sound.soundId);
const counts = (sounds) => sounds.map((sound) => sound.postCount);

test('new sounds appear at the top of a query, with ids of their own; the others move down', async () => {
	await withReferenceService(options, async (service) => {
		const before = await firstPage(service, 'rainy jazz');
		const passed = await service.passTime({ newSounds: { 'Rainy Jazz': 3 } });
		expect(passed).toEqual({ ok: true, day: 0 });
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
		expect(counts(await firstPage(service, 'lofi'))).toEqual(counts(day0));
		await expect(service.passTime({ days: -1 })).rejects.toThrow(/ 400: /);
	});
});

test('scripted trends: steady growth, bursts from their day on, rounded counts, fractional days; reset drops them', async () => {
	await withReferenceService(options, async (service) => {
		const scripted = async () => counts(await firstPage(service, 'scripted', '3'));
		const before = await scripted();
		await service.setTrend({ query: 'Scripted', index: 0, postCount: 1000, dailyGrowth: 0.1 });
		const bursts = [{ day: 0.5, percent: 50 }];
		await service.setTrend({
			query: 'scripted',
			index: 1,
			postCount: 2000,
			dailyGrowth: 0,
			bursts,
		});
		await service.setTrend({ query: 'scripted', index: 2, postCount: 1_234_567, rounded: true });
		expect(await scripted()).toEqual([1000, 2000, 1_200_000]);

		await service.passTime({ days: 0.25 });
		expect((await scripted()).slice(0, 2)).toEqual([1024, 2000]);
		await service.passTime({ days: 0.25 });
		expect((await scripted()).slice(0, 2)).toEqual([1049, 3000]);

		await service.reset();
		expect(await scripted()).toEqual(before);
		const refused = service.setTrend({ query: 'scripted', index: -1 });
		await expect(refused).rejects.toThrow(/ 400: .*index/);
	});
});
