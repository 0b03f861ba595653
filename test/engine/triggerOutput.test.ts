import { fetchDirect, useReferenceService } from '../harness/engine/searchFixture';
import { triggersOn } from '../harness/engine/trigger';

// What the Sound Search Trigger's items hold: version 2's Simplify (n8n's UX guideline: at most
// 10 fields, the most useful first, nothing nested), version 2 with Simplify off, and version 1
// as saved workflows have it.

const { service, calls } = useReferenceService();
const trigger = triggersOn(service, { keywords: 'ocean waves', limit: 3 });
/** New Sound emitting what the first poll finds: items at once, no history needed. */
const firstPoll = { options: { emitOnFirstPoll: true } };

const SIMPLIFIED = [
	...['soundId', 'title', 'rank', 'growthPercent', 'growthPosts', 'postCountNow'],
	...['postsPerDay', 'authorName', 'query', 'audioUrl'],
];
const TREND = [
	...['rank', 'growthWindowHours', 'windowStart', 'postCountThen', 'postCountNow'],
	...['growthPosts', 'growthPercent', 'postsPerDay'],
	...['postsPerDayBefore', 'acceleration', 'stage', 'firstSeenAt', 'daysTracked'],
];
const SERVICE = ['soundId', 'title', 'authorName', 'postCount', 'durationSeconds'];
const RAW = [
	...[...SERVICE, 'url', 'coverUrl', 'fetchedAt', 'cached', 'cacheAgeSeconds'],
	...['creditsCharged', 'page', 'query', 'platform', ...TREND],
];

const nothingNested = (json: Record<string, unknown>) =>
	Object.values(json).every((value) => typeof value !== 'object' || value === null);

describe('version 2, Simplify (on by default)', () => {
	it('New Sound: 10 flat fields for trend-watchers, in order, the audio as one URL; Emit Current Sounds on First Poll emits the baseline once', async () => {
		const watch = trigger(firstPoll, 2);
		const { items, error } = await watch.poll();
		const direct = await fetchDirect(service(), 'shortvideo', { q: 'ocean waves', limit: 3 });

		expect(error).toBeUndefined();
		expect(items).toHaveLength(3);
		items.forEach(({ json }, index) => {
			const sound = direct.items[index] as Record<string, unknown> & {
				url: { url_list: string[] };
			};
			expect(Object.keys(json)).toEqual(SIMPLIFIED);
			expect(json).toEqual({
				soundId: sound.soundId,
				title: sound.title,
				rank: index + 1,
				growthPercent: 0,
				growthPosts: 0,
				postCountNow: sound.postCount,
				postsPerDay: null,
				authorName: sound.authorName,
				query: 'ocean waves',
				audioUrl: sound.url.url_list[0],
			});
		});
		expect((await watch.poll()).items).toEqual([]);
	});

	// Rising items in version 2: triggerRising.test.ts (Top Risers per Poll).
	it('on the photo-and-video platform: the same 10 columns, what it does not report null', async () => {
		const { items } = await trigger({ ...firstPoll, platform: 'photosocial' }, 2).poll();

		expect(items.map(({ json }) => Object.keys(json))).toEqual([
			SIMPLIFIED,
			SIMPLIFIED,
			SIMPLIFIED,
		]);
		expect(items[0].json).toMatchObject({
			rank: 1,
			postCountNow: null,
			growthPercent: null,
			authorName: null,
			audioUrl: null,
		});
		expect(typeof items[0].json.soundId).toBe('string');
	});

	it('Fetch Test Event of Rising Sound with no history: no call, and the notice whole', async () => {
		const { items, error } = await trigger({ event: 'risingSound' }, 2).poll('manual');

		expect(error).toBeUndefined();
		expect(await calls()).toEqual([]);
		expect(items).toEqual([
			{
				json: {
					notice: expect.stringMatching(/^No history yet/),
					growthWindowHours: 24,
					hasHistory: false,
					creditsCharged: 0,
					calls: 0,
				},
			},
		]);
		const { notice } = items[0].json as { notice: string };
		expect(notice).toMatch(/no paid call \(0 credits\)/);
		expect(notice).toMatch(/Publish the workflow \(Activate in n8n 1\.x\)/);
	});
});

it('Breakout Sound: Fetch Test Event with no history makes no call and says it needs two windows; the photo-and-video platform is refused before any call', async () => {
	const { items } = await trigger({ event: 'breakoutSound' }, 2).poll('manual');
	expect(items).toHaveLength(1);
	expect(items[0].json.notice).toMatch(
		/^No history yet, so this test made no paid call \(0 credits\): breakouts need post counts from earlier polls, over two growth windows\./,
	);
	const refused = await trigger({ event: 'breakoutSound', platform: 'photosocial' }, 2).poll();
	expect(refused.error?.message).toMatch(/^Breakout Sound needs post counts/);
	expect(await calls()).toEqual([]);
});

it.each([
	['version 2 with Simplify off', { simplify: false }, 2],
	[
		'version 1 without Simplify Output; a version 2 parameter left in is ignored',
		{ simplify: true },
		1,
	],
])(
	'%s: every field of the service, media objects included, with the trend fields',
	async (_case, parameters, typeVersion) => {
		const { items } = await trigger({ ...firstPoll, ...parameters }, typeVersion).poll();

		expect(Object.keys(items[0].json)).toEqual(RAW);
		// A sound seen for the first time: its life starts now, too young for a pace before.
		expect(items[0].json).toMatchObject({
			postsPerDayBefore: null,
			acceleration: null,
			stage: 'new',
			daysTracked: 0,
		});
		expect(Math.abs(Date.parse(String(items[0].json.firstSeenAt)) - Date.now())).toBeLessThan(5000);
		expect(items[0].json.url).toMatchObject({
			url_list: expect.arrayContaining([expect.any(String)]),
		});
	},
);

it('version 1, Options → Simplify Output: every field flat, media objects as URL strings', async () => {
	const options = { ...firstPoll.options, simplify: true };
	const { items } = await trigger({ options }, 1).poll();

	expect(Object.keys(items[0].json)).toEqual([
		...[...SERVICE, 'audioUrl', 'coverImageUrl', 'fetchedAt', 'cached', 'cacheAgeSeconds'],
		...['platform', 'query', 'creditsCharged', 'page', ...TREND],
	]);
	expect(nothingNested(items[0].json)).toBe(true);
});
