import type { INodeParameters } from 'n8n-workflow';
import { API_KEY, useReferenceService } from '../harness/engine/searchFixture';
import { TriggerUnderTest, useTrendClock } from '../harness/engine/trigger';

// The Sound Search Trigger polled several times through n8n-core's PollContext, its static data
// carried from poll to poll as n8n saves it, against the reference service whose clock moves on
// between polls (new sounds appear, post counts grow).

const { service, calls } = useReferenceService();
const clock = useTrendClock(service);

/** A trigger polled back to back: the tests poll at once, so no minimum interval unless given. */
function trigger(parameters: INodeParameters) {
	const options = { minPollInterval: 0, ...(parameters.options as INodeParameters | undefined) };
	return new TriggerUnderTest(
		{ platform: 'shortvideo', keywords: 'lofi, rainy jazz', limit: 10, ...parameters, options },
		{ apiKey: API_KEY, baseUrl: service().url },
	);
}

describe('New Sound', () => {
	it('the first poll records a baseline; later polls emit each new sound once', async () => {
		const watch = trigger({});
		const baseline = await watch.poll();
		expect(baseline.items).toEqual([]);
		expect(Object.keys(watch.remembered())).toHaveLength(20);

		await service().passTime({ newSounds: { lofi: 2, 'rainy jazz': 1 } });
		const second = await watch.poll();
		expect(second.error).toBeUndefined();
		expect(second.items.map(({ json }) => [json.query, json.platform, json.page])).toEqual([
			['lofi', 'shortvideo', 1],
			['lofi', 'shortvideo', 1],
			['rainy jazz', 'shortvideo', 1],
		]);
		const first = second.items[0].json;
		expect(first).toMatchObject({ creditsCharged: 1, rank: 1, growthPosts: 0, postsPerDay: null });
		expect(first.postCountThen).toBe(first.postCountNow);
		expect(first.windowStart).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT/));

		const third = await watch.poll();
		expect(third.items).toEqual([]);
		// Two searches per poll, three polls; the last two polls' first pages were fresh readings
		// (time passed) or cache hits (0 credits): never more than one call per keyword a poll.
		expect(await calls()).toHaveLength(6);
	});

	it('a poll with nothing new gives n8n nothing to start an execution with (null, not no items)', async () => {
		const watch = trigger({ keywords: 'lofi' });
		expect(await watch.poll()).toEqual({ items: [], emitted: false });

		await service().passTime({ newSounds: { lofi: 1 } });
		expect(await watch.poll()).toMatchObject({ emitted: true, items: [expect.anything()] });
		expect(await watch.poll()).toEqual({ items: [], emitted: false });
	});

	it('Emit Current Sounds on First Poll emits the baseline too', async () => {
		const watch = trigger({ keywords: 'workout', options: { emitOnFirstPoll: true } });

		expect((await watch.poll()).items).toHaveLength(10);
		expect((await watch.poll()).items).toHaveLength(0);
	});

	it('a keyword added later gets its own baseline instead of a flood', async () => {
		const watch = trigger({ keywords: 'lofi' });
		await watch.poll();
		const widened = trigger({ keywords: 'lofi, workout' });
		widened.staticData = watch.staticData;

		expect((await widened.poll()).items).toEqual([]);
		expect(Object.keys(widened.remembered())).toHaveLength(20);
	});

	it('works on the photo-and-video platform (no post counts: trend numbers are null)', async () => {
		const watch = trigger({ platform: 'photosocial', keywords: 'lofi' });
		await watch.poll();
		await service().passTime({ newSounds: { lofi: 1 } });
		const { items } = await watch.poll();

		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({
			postCountNow: null,
			growthPosts: null,
			creditsCharged: 2,
		});
	});
});

describe('Rising Sound', () => {
	it('is refused on the photo-and-video platform, before any call', async () => {
		const { error } = await trigger({ event: 'risingSound', platform: 'photosocial' }).poll();

		expect(error?.message).toMatch(/Rising Sound needs post counts/);
		expect(await calls()).toEqual([]);
	});
});

describe('state', () => {
	it('a failed poll changes nothing: the sounds it did not emit are emitted by the next one', async () => {
		const watch = trigger({});
		await watch.poll();
		const before = JSON.stringify(watch.staticData);
		await service().passTime({ newSounds: { lofi: 1, 'rainy jazz': 1 } });
		await service().injectFaults([
			{ match: { query: 'rainy jazz' }, times: 'always', response: { status: 402 } },
		]);

		const failed = await watch.poll();
		expect(failed.error?.message).toMatch(/402/);
		expect(JSON.stringify(watch.staticData)).toBe(before);

		await service().reset();
		await service().passTime({ newSounds: { lofi: 1, 'rainy jazz': 1 } });
		expect((await watch.poll()).items.map(({ json }) => json.query)).toEqual([
			'lofi',
			'rainy jazz',
		]);
	});

	it('a keyword that fails stops the poll: no new call for the keywords after it', async () => {
		// 20 keywords, 8 calls in flight at most: kw0 is refused at once, while kw1-kw7 take 200 ms.
		await service().setCapacity({ latencyMs: 200 });
		await service().injectFaults([
			{ match: { query: 'kw0' }, times: 'always', response: { status: 402 } },
		]);
		const keywords = Array.from({ length: 20 }, (_, index) => `kw${index}`).join(', ');
		const { error } = await trigger({ keywords, limit: 2 }).poll();

		expect(error?.message).toMatch(/402/);
		expect((await calls()).length).toBeLessThanOrEqual(8);
	});

	it('Fetch Test Event (manual) shows the current sounds and leaves the state alone', async () => {
		const watch = trigger({ keywords: 'lofi' });
		const fresh = await watch.poll('manual');
		expect(fresh.items).toHaveLength(10);
		expect(watch.remembered()).toEqual({});

		await watch.poll();
		const before = JSON.stringify(watch.staticData);
		expect((await watch.poll('manual')).items).toHaveLength(10);
		expect(JSON.stringify(watch.staticData)).toBe(before);
	});
});

describe("n8n's every-minute default cannot spend every minute", () => {
	it('by default, a poll within 60 minutes of the last one makes no call; Fetch Test Event still does', async () => {
		const watch = trigger({ keywords: 'lofi', options: { minPollInterval: 60 } });
		await watch.poll();
		await service().passTime({ newSounds: { lofi: 1 } });

		expect((await watch.poll()).items).toEqual([]);
		expect(await calls()).toHaveLength(1);
		expect((await watch.poll('manual')).items).toHaveLength(10);
		expect(await calls()).toHaveLength(2);
	});

	it('a cron poll a few seconds early is not skipped; one minutes early is', async () => {
		const watch = trigger({ keywords: 'lofi', options: { minPollInterval: 60 } });
		await watch.poll();
		await clock.advance(50 / 1440, { serviceToo: false });
		await watch.poll();
		expect(await calls()).toHaveLength(1);
		await clock.advance(9.9 / 1440, { serviceToo: false });
		await watch.poll();
		expect(await calls()).toHaveLength(2);
	});

	it('the default is 60 minutes', async () => {
		const watch = new TriggerUnderTest(
			{ platform: 'shortvideo', keywords: 'lofi', limit: 10 },
			{ apiKey: API_KEY, baseUrl: service().url },
		);
		await watch.poll();
		await watch.poll();

		expect(await calls()).toHaveLength(1);
	});
});

describe('input is checked before any call', () => {
	it.each([
		['no keyword', { keywords: ' , ,' }, /"Keywords" parameter has no keyword/],
		['Limit 0', { limit: 0 }, /"Limit" parameter must be a whole number/],
		['a negative growth threshold', { event: 'risingSound', minGrowthPercent: -5 }, /Min Growth/],
	])('%s', async (_case, parameters, message) => {
		const { error } = await trigger(parameters).poll();

		expect(error?.message).toMatch(message);
		expect(await calls()).toEqual([]);
	});

	it('the same keyword twice is searched once', async () => {
		await trigger({ keywords: 'lofi, LOFI,  lofi ' }).poll();

		expect(await calls()).toHaveLength(1);
	});
});

describe("a rate limit's wait: half of n8n's time budget for the poll", () => {
	const rateLimited = async (retryAfterSeconds: number) =>
		await service().injectFaults([
			{ response: { status: 429, headers: { 'Retry-After': String(retryAfterSeconds) } } },
		]);

	it('a budget of 4 s: waits a Retry-After of 1 s, fails at once on one of 3 s', async () => {
		await rateLimited(1);
		const waited = await trigger({ keywords: 'lofi' }).poll('trigger', { pollBudgetMs: 4000 });
		expect(waited.error).toBeUndefined();
		expect((await calls()).map(({ status }) => status)).toEqual([429, 200]);

		await service().reset();
		await rateLimited(3);
		const refused = await trigger({ keywords: 'lofi' }).poll('trigger', { pollBudgetMs: 4000 });
		expect(refused.error?.message).toMatch(/429/);
		expect((await calls()).map(({ status }) => status)).toEqual([429]);
	});

	it('n8n before 2.39 gives no budget: up to 2 minutes, so a Retry-After of 1 s is waited', async () => {
		await rateLimited(1);
		const { error } = await trigger({ keywords: 'lofi' }).poll('trigger', { pollBudgetMs: null });

		expect(error).toBeUndefined();
		expect((await calls()).map(({ status }) => status)).toEqual([429, 200]);
	});
});
