'use strict';

// The reference service's clock: between polls, new sounds appear and post counts grow,
// deterministically, so trend tests know exactly what is new and what is rising.

const { withReferenceService } = require('../harness/referenceService');

const KEY = 'key-time';

async function firstPage(service, q, platform = 'shortvideo') {
	const url = `${service.url}/v1/${platform}/sound/search?q=${encodeURIComponent(q)}&limit=50`;
	const response = await fetch(url, { headers: { Authorization: `Bearer ${KEY}` } });
	return (await response.json()).data.items;
}

async function advance(service, body) {
	const response = await fetch(`${service.url}/__sandbox/time`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	return { status: response.status, body: await response.json() };
}

test('new sounds appear at the top of a query, with ids of their own; the others move down', async () => {
	await withReferenceService({ keys: [KEY] }, async (service) => {
		const before = await firstPage(service, 'rainy jazz');
		expect((await advance(service, { newSounds: { 'Rainy Jazz': 3 } })).body).toEqual({
			ok: true,
			day: 0,
		});
		const after = await firstPage(service, 'rainy jazz');

		const oldIds = new Set(before.map((sound) => sound.soundId));
		expect(after.slice(0, 3).every((sound) => !oldIds.has(sound.soundId))).toBe(true);
		expect(after.slice(3).map((sound) => sound.soundId)).toEqual(
			before.slice(0, 47).map((sound) => sound.soundId),
		);
		const other = await firstPage(service, 'workout');
		await advance(service, { newSounds: { 'rainy jazz': 1 } });
		expect(await firstPage(service, 'workout')).toHaveLength(other.length);
	});
});

test('post counts grow with the days, each sound at its own deterministic rate', async () => {
	await withReferenceService({ keys: [KEY] }, async (service) => {
		const day0 = await firstPage(service, 'lofi');
		await advance(service, { days: 3 });
		const day3 = await firstPage(service, 'lofi');

		const growth = day3.map((sound, i) => sound.postCount / Math.max(1, day0[i].postCount));
		expect(day3.map((sound) => sound.soundId)).toEqual(day0.map((sound) => sound.soundId));
		expect(growth.every((g) => g >= 1)).toBe(true);
		// One in ten rises fast (50 % a day): about 3.4x in three days.
		expect(growth.filter((g) => g > 3).length).toBeGreaterThan(0);
		expect(growth.filter((g) => g < 1.2).length).toBeGreaterThan(growth.length / 2);
		await service.reset();
		expect((await firstPage(service, 'lofi')).map((s) => s.postCount)).toEqual(
			day0.map((s) => s.postCount),
		);
		expect((await advance(service, { days: -1 })).status).toBe(400);
	});
});
