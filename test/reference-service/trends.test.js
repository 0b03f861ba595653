'use strict';

// Scripted trends (reference-service/trends.js): a sound's post count follows its start count,
// daily rate and bursts with the service's days (fractions too), shown rounded when asked.

const { withReferenceService } = require('../harness/referenceService');

const options = { keys: ['key-trends'] };
const counts = async (service, q) =>
	(await service.search('shortvideo', { q, limit: '3' })).body.data.items.map((s) => s.postCount);

test('steady growth, bursts from their day on, rounded counts, fractional days; reset drops them', async () => {
	await withReferenceService(options, async (service) => {
		const before = await counts(service, 'scripted');
		await service.setTrend({ query: 'Scripted', index: 0, postCount: 1000, dailyGrowth: 0.1 });
		await service.setTrend({
			query: 'scripted',
			index: 1,
			postCount: 2000,
			dailyGrowth: 0,
			bursts: [{ day: 0.5, percent: 50 }],
		});
		await service.setTrend({ query: 'scripted', index: 2, postCount: 1_234_567, rounded: true });
		const [steady, bursty, rounded] = await counts(service, 'scripted');
		expect([steady, bursty]).toEqual([1000, 2000]);
		expect(rounded % 100_000).toBe(0);

		await service.passTime({ days: 0.25 });
		expect((await counts(service, 'scripted')).slice(0, 2)).toEqual([1024, 2000]);
		await service.passTime({ days: 0.25 });
		expect((await counts(service, 'scripted')).slice(0, 2)).toEqual([1049, 3000]);

		await service.reset();
		expect(await counts(service, 'scripted')).toEqual(before);
		const refused = service.setTrend({ query: 'scripted', index: -1 });
		await expect(refused).rejects.toThrow(/ 400: .*index/);
	});
});
