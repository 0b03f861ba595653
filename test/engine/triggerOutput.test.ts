import type { INodeParameters } from 'n8n-workflow';
import { API_KEY, fetchDirect, useReferenceService } from '../harness/engine/searchFixture';
import { scriptSounds, TriggerUnderTest, useTrendClock } from '../harness/engine/trigger';

// What the Sound Search Trigger's items hold: version 2's Simplify (n8n's UX guideline: at most
// 10 fields, the most useful first, nothing nested), version 2 with Simplify off, and version 1
// as saved workflows have it. Polled through n8n-core's PollContext against the reference service.

const { service } = useReferenceService();
const clock = useTrendClock(service);

function trigger(parameters: INodeParameters, typeVersion: number) {
	const options = { minPollInterval: 0, ...(parameters.options as INodeParameters | undefined) };
	return new TriggerUnderTest(
		{ platform: 'shortvideo', keywords: 'ocean waves', limit: 3, ...parameters, options },
		{ apiKey: API_KEY, baseUrl: service().url },
		typeVersion,
	);
}
/** New Sound emitting what the first poll finds: items at once, no history needed. */
const firstPoll = { options: { emitOnFirstPoll: true } };

const SIMPLIFIED = [
	'soundId',
	'title',
	'rank',
	'growthPercent',
	'growthPosts',
	'postCountNow',
	'postsPerDay',
	'authorName',
	'query',
	'audioUrl',
];
const TREND = [
	'rank',
	'growthWindowHours',
	'windowStart',
	'postCountThen',
	'postCountNow',
	'growthPosts',
	'growthPercent',
	'postsPerDay',
];
const SERVICE = ['soundId', 'title', 'authorName', 'postCount', 'durationSeconds'];
const RAW = [
	...[...SERVICE, 'url', 'coverUrl', 'fetchedAt', 'cached', 'cacheAgeSeconds'],
	...['creditsCharged', 'page', 'query', 'platform', ...TREND],
];

const nothingNested = (json: Record<string, unknown>) =>
	Object.values(json).every((value) => typeof value !== 'object' || value === null);

describe('version 2, Simplify (on by default)', () => {
	it('New Sound: 10 flat fields for trend-watchers, in order, the audio as one URL', async () => {
		const { items, error } = await trigger(firstPoll, 2).poll();
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
			expect(nothingNested(json)).toBe(true);
		});
	});

	it('Rising Sound: the fastest riser first, with its growth within the window', async () => {
		const [slower, faster] = await scriptSounds(service(), 'tide', [
			{ postCount: 10_001, dailyGrowth: 0, bursts: [{ day: 1, percent: 30 }] },
			{ postCount: 20_003, dailyGrowth: 0, bursts: [{ day: 1, percent: 60 }] },
			{ postCount: 9_001, dailyGrowth: 0 },
		]);
		const watch = trigger({ keywords: 'tide', event: 'risingSound' }, 2);
		expect((await watch.poll()).items).toEqual([]); // the baseline
		await clock.advance(1);
		const { items } = await watch.poll();

		expect(items.map(({ json }) => Object.keys(json))).toEqual([SIMPLIFIED, SIMPLIFIED]);
		expect(items.map(({ json }) => json)).toMatchObject([
			{ soundId: faster, rank: 1, growthPercent: 60, growthPosts: 12_002, postCountNow: 32_005 },
			{ soundId: slower, rank: 2, growthPercent: 30, growthPosts: 3_000, postCountNow: 13_001 },
		]);
		// A day of history: about the day's growth per day.
		expect(items[0].json.postsPerDay).toBeCloseTo(12_002, -2);
		expect(items.every(({ json }) => nothingNested(json) && json.query === 'tide')).toBe(true);
	});

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

	it('leaves the Fetch Test Event notice whole when nothing is rising', async () => {
		const { items } = await trigger({ event: 'risingSound' }, 2).poll('manual');

		expect(items).toHaveLength(1);
		expect(items[0].json).toEqual({
			notice: expect.stringMatching(/^No history yet/),
			growthWindowHours: 24,
			hasHistory: false,
			creditsCharged: 0,
			calls: 0,
		});
	});
});

describe('version 2, Simplify off', () => {
	it('every field of the service, media objects included, with the trend fields', async () => {
		const { items } = await trigger({ ...firstPoll, simplify: false }, 2).poll();

		expect(Object.keys(items[0].json)).toEqual(RAW);
		expect(items[0].json.url).toMatchObject({
			url_list: expect.arrayContaining([expect.any(String)]),
		});
	});
});

describe('version 1, as saved workflows have it', () => {
	it('without Simplify Output: every field of the service; a version 2 parameter left in is ignored', async () => {
		const { items } = await trigger({ ...firstPoll, simplify: true }, 1).poll();

		expect(Object.keys(items[0].json)).toEqual(RAW);
	});

	it('Options → Simplify Output: every field flat, media objects as URL strings', async () => {
		const options = { ...firstPoll.options, simplify: true };
		const { items } = await trigger({ options }, 1).poll();

		expect(Object.keys(items[0].json)).toEqual([
			...[...SERVICE, 'audioUrl', 'coverImageUrl', 'fetchedAt', 'cached', 'cacheAgeSeconds'],
			...['platform', 'query', 'creditsCharged', 'page', ...TREND],
		]);
		expect(nothingNested(items[0].json)).toBe(true);
	});
});
