import type { INodeParameters } from 'n8n-workflow';
import { postCountOn } from '../../reference-service/trends';
import { API_KEY, useReferenceService } from '../harness/engine/searchFixture';
import { scriptSounds, TriggerUnderTest, useTrendClock } from '../harness/engine/trigger';

// Rising Sound over weeks: the trigger polled through n8n-core's PollContext with a clock the
// test moves in days, together with the reference service's (scripted sounds: a steady grower,
// bursts at known days, counts shown rounded). Rising means grown by both thresholds within the
// growth window; each rise is reported once.

const { service, calls } = useReferenceService();
const clock = useTrendClock(service);

function rising(keywords: string, limit: number, parameters: INodeParameters = {}) {
	const options = { minPollInterval: 0, ...(parameters.options as INodeParameters | undefined) };
	return new TriggerUnderTest(
		{
			platform: 'shortvideo',
			event: 'risingSound',
			keywords,
			limit,
			minGrowthPercent: 20,
			minGrowthPosts: 1000,
			...parameters,
			options,
		},
		{ apiKey: API_KEY, baseUrl: service().url },
	);
}

type Json = Record<string, unknown>;
/** Polls every `everyDays` up to `days`; what came out, as [day, soundId] pairs, and the items. */
async function pollFor(watch: TriggerUnderTest, days: number, everyDays: number) {
	const reported: [number, unknown][] = [];
	const items: (Json & { polledAt: number })[] = [];
	for (let poll = 0; poll * everyDays <= days; poll++) {
		if (poll > 0) await clock.advance(everyDays);
		const result = await watch.poll();
		expect(result.error).toBeUndefined();
		for (const { json } of result.items) reported.push([clock.day(), json.soundId]);
		items.push(...result.items.map(({ json }) => ({ ...json, polledAt: Date.now() })));
	}
	return { reported, items };
}

/** The ISO time is `hours` before the (moved) clock, to the few seconds a poll takes. */
function expectHoursAgo(iso: unknown, hours: number, polledAt = Date.now()) {
	const ageMs = polledAt - new Date(String(iso)).getTime();
	expect(Math.abs(ageMs - hours * 3_600_000)).toBeLessThan(5000);
}

it('a steady grower never rises; a burst is reported once, and a second burst again', async () => {
	const [steady, bursty] = await scriptSounds(service(), 'wave', [
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
	const { reported, items } = await pollFor(rising('wave', 3), 30, 0.25);

	expect(reported).toEqual([
		[10, bursty],
		[25, bursty],
	]);
	expect(reported.map(([, id]) => id)).not.toContain(steady);
	const [then, now] = [
		postCountOn(9, 50_007, 0.01),
		postCountOn(10, 50_007, 0.01, {
			bursts: [{ day: 10, percent: 40 }],
		}),
	];
	expect(items[0]).toMatchObject({
		rank: 1,
		growthWindowHours: 24,
		postCountThen: then,
		postCountNow: now,
		growthPosts: now - then,
		growthPercent: Math.round(((now - then) / then) * 1000) / 10,
	});
	expectHoursAgo(items[0].windowStart, 24, items[0].polledAt);
	// The window is a day (and the second or so the test's polls take).
	expect(Math.abs((items[0].postsPerDay as number) - (now - then))).toBeLessThan(5);
});

it('counts exactly at both thresholds are rising', async () => {
	// 100,005 + 20 % = 120,006: exactly 20 % and 20,001 posts.
	const [sound] = await scriptSounds(service(), 'edge', [
		{ postCount: 100_005, dailyGrowth: 0, bursts: [{ day: 1, percent: 20 }] },
	]);
	const watch = rising('edge', 1, { minGrowthPercent: 20, minGrowthPosts: 20_001 });
	const { reported, items } = await pollFor(watch, 2, 0.5);

	expect(reported).toEqual([[1, sound]]);
	expect(items[0]).toMatchObject({ growthPosts: 20_001, growthPercent: 20 });
});

it('irregular polls: a history younger than the window, a gap longer than it, a gap of days', async () => {
	const [steady, bursty] = await scriptSounds(service(), 'drift', [
		{ postCount: 300_007, dailyGrowth: 0.15 },
		{
			postCount: 40_009,
			dailyGrowth: 0,
			bursts: [
				{ day: 0.2, percent: 30 },
				{ day: 2, percent: 35 },
			],
		},
	]);
	const watch = rising('drift', 2);
	await watch.poll();
	// 6 hours of history, younger than the 24-hour window: measured from the first reading.
	await clock.advance(0.25);
	const young = await watch.poll();
	expect(young.items.map(({ json }) => json.soundId)).toEqual([bursty]);
	expect(young.items[0].json.growthPercent).toBe(30);
	expectHoursAgo(young.items[0].json.windowStart, 6);

	// 36 hours without a poll: the steady grower's 23 % over 1.5 days is 15 % a window.
	await clock.advance(1.5);
	expect((await watch.poll()).items).toEqual([]);
	// A burst within a 36-hour gap: 35 % over 1.5 days is still over 20 % a window.
	await clock.advance(0.5);
	await clock.advance(1);
	const gap = await watch.poll();
	expect(gap.items.map(({ json }) => json.soundId)).toEqual([bursty]);
	expect(gap.items[0].json.growthPercent).toBe(35);
	expectHoursAgo(gap.items[0].json.windowStart, 36);

	// Three days without a poll: older than two windows, no reference, no rise; then as usual.
	await clock.advance(3);
	expect((await watch.poll()).items).toEqual([]);
	await clock.advance(0.5);
	expect((await watch.poll()).items.map(({ json }) => json.soundId)).not.toContain(steady);
});

it('counts shown rounded (1.2M): a step of the rounding is no rise, a real burst is', async () => {
	const [rounded, burst] = await scriptSounds(service(), 'charts', [
		{ postCount: 1_040_000, dailyGrowth: 0.01, rounded: true },
		{ postCount: 2_050_000, dailyGrowth: 0, rounded: true, bursts: [{ day: 5, percent: 20 }] },
	]);
	// 1.0M -> 1.1M is 10 %, over the 5 % threshold, and it is only the rounding moving.
	const watch = rising('charts', 2, { minGrowthPercent: 5, minGrowthPosts: 1000 });
	const { reported, items } = await pollFor(watch, 20, 0.25);

	expect(reported).toEqual([[5, burst]]);
	expect(reported.map(([, id]) => id)).not.toContain(rounded);
	expect(items[0]).toMatchObject({ postCountThen: 2_000_000, postCountNow: 2_400_000 });
});

/** Four sounds that jump on day 1: by 30, 80, 50 and 26 % (the last by the most posts). */
async function fourBursts(query: string) {
	const scripts = [30, 80, 50, 26].map((percent) => ({
		postCount: percent === 26 ? 900_001 : 10_001,
		dailyGrowth: 0,
		bursts: [{ day: 1, percent }],
	}));
	return await scriptSounds(service(), query, scripts);
}
const ranks = (items: { json: Json }[]) => items.map(({ json }) => [json.soundId, json.rank]);

it('top risers first, ranked by growth in % (not in posts)', async () => {
	const ids = await fourBursts('ranked');
	const watch = rising('ranked', 4);
	await watch.poll();
	await clock.advance(1);
	const { items } = await watch.poll();

	expect(items.map(({ json }) => [json.soundId, json.rank, json.growthPercent])).toEqual([
		[ids[1], 1, 80],
		[ids[2], 2, 50],
		[ids[0], 3, 30],
		[ids[3], 4, 26],
	]);
});

it('Top Risers per Poll: the fastest N; the others still rising come out at the next poll', async () => {
	const ids = await fourBursts('top two');
	const watch = rising('top two', 4, { options: { topRisers: 2 } });
	await watch.poll();
	await clock.advance(1);

	expect(ranks((await watch.poll()).items)).toEqual([
		[ids[1], 1],
		[ids[2], 2],
	]);
	// 30 hours after the reading before the burst: 30 and 26 % over 1.25 windows are still over 20.
	await clock.advance(0.25);
	expect(ranks((await watch.poll()).items)).toEqual([
		[ids[0], 1],
		[ids[3], 2],
	]);
});

describe('Fetch Test Event (manual)', () => {
	it('with no history: no call to the service, a notice saying so and what to do', async () => {
		const { items, error } = await rising('lofi, rainy jazz, ocean waves', 10).poll('manual');

		expect(error).toBeUndefined();
		expect(await calls()).toEqual([]);
		expect(items).toEqual([
			{
				json: {
					notice: expect.stringMatching(/^No history yet/),
					hasHistory: false,
					creditsCharged: 0,
					calls: 0,
					growthWindowHours: 24,
				},
			},
		]);
		const { notice } = items[0].json as { notice: string };
		expect(notice).toMatch(/no paid call \(0 credits\)/);
		expect(notice).toMatch(/Publish the workflow \(Activate in n8n 1\.x\)/);
	});

	describe('with history', () => {
		/** 'calm' and 'still': a sound each, flat; the keywords the test event searched, its items. */
		async function testEventAfter(polled: TriggerUnderTest) {
			const watch = rising('calm, still', 1);
			watch.staticData = polled.staticData;
			await clock.advance(0.5); // past the service's cache: every call is paid
			const before = (await calls()).length;
			const { items } = await watch.poll('manual');
			return { searched: (await calls()).slice(before).map(({ q }) => q), items };
		}
		beforeEach(async () => {
			for (const query of ['calm', 'still']) {
				await scriptSounds(service(), query, [{ postCount: 80_003, dailyGrowth: 0 }]);
			}
		});

		it('searches each keyword and says what the test cost', async () => {
			const polled = rising('calm, still', 1);
			await polled.poll();
			const { searched, items } = await testEventAfter(polled);

			expect(searched).toEqual(['calm', 'still']);
			expect(items[0].json).toEqual({
				notice: expect.stringMatching(/^Nothing is rising now/),
				hasHistory: true,
				creditsCharged: 2,
				calls: 2,
				growthWindowHours: 24,
			});
			expect(items[0].json.notice).toMatch(/This test cost 2 credits \(2 calls\)\.$/);
		});

		it('for one keyword only (the other added since): it searches both', async () => {
			const polled = rising('calm', 1);
			await polled.poll();
			const { searched, items } = await testEventAfter(polled);

			expect(searched).toEqual(['calm', 'still']);
			expect(items[0].json).toMatchObject({ hasHistory: true, creditsCharged: 2, calls: 2 });
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
		const quiet = await watch.poll('manual');
		expect(quiet.items[0].json).toMatchObject({
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
		expect(shown.items.map(({ json }) => json.soundId)).toEqual([bursty]);
		expect(shown.items[0].json.creditsCharged).toBe(1);
		expect(JSON.stringify(watch.staticData)).toBe(before);
		expect((await watch.poll()).items.map(({ json }) => json.soundId)).toEqual([bursty]);
		expect((await watch.poll('manual')).items.map(({ json }) => json.soundId)).toEqual([bursty]);
	});
});
