import { useReferenceService } from '../harness/engine/searchFixture';
import { triggersOn, useTrendClock } from '../harness/engine/trigger';

// The Sound Search Trigger polled through n8n-core's PollContext, its static data carried from
// poll to poll as n8n saves it, against the reference service whose clock moves on between polls
// (new sounds appear, post counts grow). Its input checks: inputChecks.test.ts.

const { service, calls } = useReferenceService();
const clock = useTrendClock(service);
const trigger = triggersOn(service, { keywords: 'lofi, rainy jazz', limit: 10 });

describe('New Sound', () => {
	it('the first poll records a baseline; later polls emit each new sound once; nothing new is null to n8n', async () => {
		const watch = trigger();
		expect(await watch.poll()).toEqual({ items: [], emitted: false });
		expect(Object.keys(watch.remembered())).toHaveLength(20);

		await service().passTime({ newSounds: { lofi: 2, 'rainy jazz': 1 } });
		const second = await watch.poll();
		expect(second.error).toBeUndefined();
		expect(second.emitted).toBe(true);
		expect(second.items.map(({ json }) => [json.query, json.platform, json.page])).toEqual([
			['lofi', 'shortvideo', 1],
			['lofi', 'shortvideo', 1],
			['rainy jazz', 'shortvideo', 1],
		]);
		const first = second.items[0].json;
		expect(first).toMatchObject({ creditsCharged: 1, rank: 1, growthPosts: 0, postsPerDay: null });
		expect(first.postCountThen).toBe(first.postCountNow);
		expect(first.windowStart).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT/));

		// Not an empty list: n8n would start an execution with no items.
		expect(await watch.poll()).toEqual({ items: [], emitted: false });
		expect(await calls()).toHaveLength(6);
	});

	it('a keyword or platform added later gets its own baseline instead of a flood', async () => {
		const watch = trigger({ keywords: 'lofi' });
		await watch.poll();
		const widened = trigger({ keywords: 'lofi, workout' });
		widened.staticData = watch.staticData;
		expect((await widened.poll()).items).toEqual([]);
		const other = trigger({ keywords: 'lofi', platform: 'photosocial' });
		other.staticData = widened.staticData;
		expect((await other.poll()).items).toEqual([]);

		expect(Object.keys(other.remembered())).toHaveLength(30);
	});
});

describe('state', () => {
	it('a failed poll changes nothing: the sounds it did not emit are emitted by the next one', async () => {
		const watch = trigger();
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

	it('Add Poll Summary: one item per poll, even with nothing new; a keyword that fails is named in it and left as it was, the others go on', async () => {
		const watch = trigger({ options: { pollSummary: true } });
		const first = await watch.poll();
		expect(Math.abs(Date.parse(String(first.items[0].json.polledAt)) - Date.now())).toBeLessThan(
			5000,
		);
		expect(first.items.map(({ json }) => json)).toEqual([
			{
				pollSummary: true,
				polledAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
				keywordsChecked: 2,
				soundsChecked: 20,
				events: { newSound: 0, risingSound: 0, breakoutSound: 0 },
				creditsCharged: 2,
				calls: 2,
				keywordsFailed: [],
			},
		]);
		await service().passTime({ newSounds: { lofi: 1, 'rainy jazz': 1 } });
		await service().injectFaults([
			{ match: { query: 'rainy jazz' }, times: 'always', response: { status: 402 } },
		]);

		const { items, error } = await watch.poll();
		expect(error).toBeUndefined();
		expect(items.map(({ json }) => json.query ?? 'summary')).toEqual(['lofi', 'summary']);
		expect(items[1].json).toMatchObject({
			soundsChecked: 10,
			events: { newSound: 1, risingSound: 0, breakoutSound: 0 },
			creditsCharged: 1,
			keywordsFailed: [{ keyword: 'rainy jazz', error: expect.stringMatching(/402/) }],
		});

		// Nothing of the failed keyword was recorded: its new sound comes out once it answers.
		await service().reset();
		await service().passTime({ newSounds: { lofi: 1, 'rainy jazz': 1 } });
		const next = await watch.poll();
		expect(next.items.map(({ json }) => json.query ?? 'summary')).toEqual([
			'rainy jazz',
			'summary',
		]);
		// Every keyword failing fails the poll, as without a summary.
		await service().injectFaults([{ times: 'always', response: { status: 402 } }]);
		expect((await watch.poll()).error?.message).toMatch(/402/);
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
});

describe("n8n's every-minute default cannot spend every minute", () => {
	it('by default, a poll within 60 minutes of the last one makes no call; Fetch Test Event (manual) shows the current sounds all the same and leaves the state alone', async () => {
		const watch = trigger({ keywords: 'lofi', options: { minPollInterval: undefined } });
		expect((await watch.poll('manual')).items).toHaveLength(10);
		expect(watch.remembered()).toEqual({});
		await watch.poll();
		await service().passTime({ newSounds: { lofi: 1 } });

		expect((await watch.poll()).items).toEqual([]);
		expect(await calls()).toHaveLength(2);
		const before = JSON.stringify(watch.staticData);
		expect((await watch.poll('manual')).items).toHaveLength(10);
		expect(JSON.stringify(watch.staticData)).toBe(before);
		expect(await calls()).toHaveLength(3);
	});

	// Minutes, not seconds or hours: 50 minutes on is skipped, 59.9 is not.
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
});

it.each<[string, number | null, number, unknown]>([
	['a budget of 4 s waits a Retry-After of 1 s', 4000, 1, undefined],
	['a budget of 4 s fails at once on a Retry-After of 3 s', 4000, 3, expect.stringMatching(/429/)],
	['no budget (n8n before 2.39): up to 2 minutes, 1 s is waited', null, 1, undefined],
])(
	"a rate limit's wait is half of n8n's time budget for the poll: %s",
	async (_case, pollBudgetMs, retryAfter, failure) => {
		const headers = { 'Retry-After': String(retryAfter) };
		await service().injectFaults([{ response: { status: 429, headers } }]);
		const { error } = await trigger({ keywords: 'lofi' }).poll('trigger', { pollBudgetMs });

		expect(error?.message).toEqual(failure);
		const statuses = (await calls()).map(({ status }) => status);
		expect(statuses).toEqual(failure ? [429] : [429, 200]);
	},
);
