import { postCountOn } from '../../reference-service/trends';
import { useReferenceService } from '../harness/engine/searchFixture';
import { scriptSounds, triggersOn, useTrendClock } from '../harness/engine/trigger';

// Rising Sound over weeks, polled through n8n-core's PollContext on a clock the test moves in
// days with the reference service's (scripted sounds): grown by both thresholds within the growth
// window, each rise reported once. The window's rules one by one (irregular polls, rounded counts,
// exact thresholds): test/unit/trendWindow.test.ts.

const { service, calls } = useReferenceService();
const clock = useTrendClock(service);
const trigger = triggersOn(service, {
	event: 'risingSound',
	minGrowthPercent: 20,
	minGrowthPosts: 1000,
});
const rising = (keywords: string, limit: number, parameters = {}) =>
	trigger({ keywords, limit, ...parameters });
const soundIds = (poll: { items: Array<{ json: Record<string, unknown> }> }) =>
	poll.items.map(({ json }) => json.soundId);

it('a steady grower never rises; a burst is reported once, and a second burst again', async () => {
	const [, bursty] = await scriptSounds(service(), 'wave', [
		{ postCount: 200_003, dailyGrowth: 0.02 },
		{
			postCount: 50_007,
			dailyGrowth: 0.01,
			bursts: [
				{ day: 10, percent: 40 },
				{ day: 25, percent: 40 },
			],
		},
		{ postCount: 9_001, dailyGrowth: 0 },
	]);
	// Four polls a day for 30 days: since first seen, the steady grower passed 20 % on day 10.
	const watch = rising('wave', 3);
	const reported: unknown[][] = [];
	for (let poll = 0; poll <= 120; poll++) {
		if (poll > 0) await clock.advance(0.25);
		const result = await watch.poll();
		expect(result.error).toBeUndefined();
		for (const { json } of result.items) reported.push([clock.day(), json, Date.now()]);
	}

	expect(reported.map(([day, json]) => [day, (json as { soundId: string }).soundId])).toEqual([
		[10, bursty],
		[25, bursty],
	]);
	const then = postCountOn(9, 50_007, 0.01);
	const now = postCountOn(10, 50_007, 0.01, { bursts: [{ day: 10, percent: 40 }] });
	const [, first, polledAt] = reported[0] as [number, Record<string, unknown>, number];
	expect(first).toMatchObject({
		rank: 1,
		growthWindowHours: 24,
		postCountThen: then,
		postCountNow: now,
		growthPosts: now - then,
		growthPercent: Math.round(((now - then) / then) * 1000) / 10,
	});
	// The window is a day (and the second or so the test's polls take).
	const windowMs = polledAt - Date.parse(String(first.windowStart));
	expect(Math.abs(windowMs - 86_400_000)).toBeLessThan(5000);
	expect(Math.abs((first.postsPerDay as number) - (now - then))).toBeLessThan(5);
});

// Polls half a day apart: the memory keeps several readings, and the one a window ago is not the
// oldest kept (36 hours ago, which a memory read back wrong would measure from).
it('a window measures from the reading a window ago, read back from the memory of several', async () => {
	const burst = [{ day: 1.25, percent: 40 }];
	const [sound] = await scriptSounds(service(), 'tide', [
		{ postCount: 50_003, dailyGrowth: 0, bursts: burst },
	]);
	const watch = rising('tide', 1);
	for (let poll = 0; poll < 3; poll++) {
		if (poll > 0) await clock.advance(0.5);
		expect((await watch.poll()).items).toEqual([]);
	}
	await clock.advance(0.5);
	const [json] = (await watch.poll()).items.map((item) => item.json);

	expect(json).toMatchObject({ soundId: sound, growthPercent: 40 });
	expect(Date.now() - Date.parse(String(json.windowStart))).toBeCloseTo(86_400_000, -4);
});

it('Top Risers per Poll: the fastest N by growth in % (not in posts); the others rising come out at the next poll', async () => {
	// Four sounds that jump on day 1 by 30, 80, 50 and 26 % (the last by the most posts).
	const ids = await scriptSounds(
		service(),
		'top two',
		[30, 80, 50, 26].map((percent) => ({
			postCount: percent === 26 ? 900_001 : 10_001,
			dailyGrowth: 0,
			bursts: [{ day: 1, percent }],
		})),
	);
	// Version 2: its simplified items carry the growth (triggerOutput.test.ts has their fields).
	const watch = trigger({ keywords: 'top two', limit: 4, options: { topRisers: 2 } }, 2);
	await watch.poll();
	await clock.advance(1);

	expect(
		(await watch.poll()).items.map(({ json }) => [json.soundId, json.rank, json.growthPercent]),
	).toEqual([
		[ids[1], 1, 80],
		[ids[2], 2, 50],
	]);
	// 30 hours after the reading before the burst: 30 and 26 % over 1.25 windows are still over 20.
	await clock.advance(0.25);
	expect((await watch.poll()).items.map(({ json }) => [json.soundId, json.rank])).toEqual([
		[ids[0], 1],
		[ids[3], 2],
	]);
});

// With no history: triggerOutput.test.ts (no call, the notice).
describe('Fetch Test Event (manual) with history', () => {
	it('searches each keyword, one added since the last poll too, and says what the test cost', async () => {
		for (const query of ['calm', 'still'])
			await scriptSounds(service(), query, [{ postCount: 80_003, dailyGrowth: 0 }]);
		const polled = rising('calm', 1);
		await polled.poll();
		const watch = rising('calm, still', 1);
		watch.staticData = polled.staticData;
		await clock.advance(0.5); // past the service's cache: every call is paid
		const before = (await calls()).length;
		const { items } = await watch.poll('manual');

		expect((await calls()).slice(before).map(({ q }) => q)).toEqual(['calm', 'still']);
		expect(items[0].json).toEqual({
			notice: expect.stringMatching(
				/^Nothing is rising now.*This test cost 2 credits \(2 calls\)\.$/,
			),
			hasHistory: true,
			creditsCharged: 2,
			calls: 2,
			growthWindowHours: 24,
		});
	});

	it('shows what is rising now by the memory, reported or not, and changes nothing', async () => {
		const [, bursty] = await scriptSounds(service(), 'peek', [
			{ postCount: 70_001, dailyGrowth: 0 },
			{ postCount: 60_001, dailyGrowth: 0, bursts: [{ day: 1, percent: 50 }] },
		]);
		const watch = rising('peek', 2);
		await watch.poll();
		await clock.advance(0.5);
		expect((await watch.poll('manual')).items[0].json).toMatchObject({
			hasHistory: true,
			notice: expect.stringMatching(
				/^Nothing is rising now.* This test cost 1 credit \(1 call\)\.$/,
			),
			creditsCharged: 1,
			calls: 1,
		});

		await clock.advance(0.5);
		const before = JSON.stringify(watch.staticData);
		const shown = await watch.poll('manual');
		expect(soundIds(shown)).toEqual([bursty]);
		expect(shown.items[0].json.creditsCharged).toBe(1);
		expect(JSON.stringify(watch.staticData)).toBe(before);
		expect(soundIds(await watch.poll())).toEqual([bursty]);
		expect(soundIds(await watch.poll('manual'))).toEqual([bursty]);
	});
});
