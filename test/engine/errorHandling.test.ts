import { BY_KEYWORD, keywordItems, useReferenceService } from '../harness/engine/searchFixture';

const { service, search, calls } = useReferenceService();

const keywords = keywordItems('lofi', 'private sound', 'jazz');
const byKeyword = { ...BY_KEYWORD, limit: 2 };

describe('Continue On Fail', () => {
	it('"Continue (regular output)": one error item per failed input item, paired, the rest untouched', async () => {
		const run = await search(byKeyword, {
			input: keywords,
			nodeSettings: { onError: 'continueRegularOutput' },
		});

		expect(run.error).toBeUndefined();
		expect(
			run.items.map(({ json, pairedItem }) => [json.soundId ? 'sound' : json.error, pairedItem]),
		).toEqual([
			['sound', { item: 0 }],
			['sound', { item: 0 }],
			['The service answered available: false with status "private"', { item: 1 }],
			['sound', { item: 2 }],
			['sound', { item: 2 }],
		]);
		expect(run.items[2].json.details).toMatch(/charged 1 credit/);
	});

	it('"Continue (using error output)": failed items go to the error output, paired', async () => {
		const run = await search(byKeyword, {
			input: keywords,
			nodeSettings: { onError: 'continueErrorOutput' },
		});

		expect(run.items.map(({ pairedItem }) => pairedItem)).toEqual(
			[0, 0, 2, 2].map((item) => ({ item })),
		);
		expect(run.errorItems).toHaveLength(1);
		expect(run.errorItems[0].pairedItem).toEqual({ item: 1 });
		expect(run.errorItems[0].json).toMatchObject({
			error: expect.stringMatching(/status "private"/),
			details: expect.stringMatching(/charged 1 credit/),
		});
	});

	it('a connection dropped on one input item loses none of the items already searched', async () => {
		await service().injectFaults([
			{ match: { query: 'jazz' }, times: 'always', response: { destroy: true } },
		]);
		const run = await search(
			{ ...byKeyword, options: { maxRetries: 1 } },
			{
				input: keywordItems('lofi', 'jazz', 'rain'),
				nodeSettings: { onError: 'continueRegularOutput' },
			},
		);

		expect(
			run.items.filter(({ json }) => json.soundId).map(({ pairedItem }) => pairedItem),
		).toEqual([0, 0, 2, 2].map((item) => ({ item })));
		const failed = run.items.filter(({ json }) => json.error);
		expect(failed).toEqual([expect.objectContaining({ pairedItem: { item: 1 } })]);
		expect(failed[0].json.error).toBe('Could not reach the Sound Search service');
		expect(failed[0].json.details).toMatch(/ECONNRESET.*tried 2 times/s);
	});

	it('without Continue On Fail the node fails on the first failed item, naming it', async () => {
		const run = await search(byKeyword, { input: keywords });

		expect(run.error?.message).toMatch(/status "private"/);
		expect(run.error?.context?.itemIndex).toBe(1);
	});
});

describe("n8n's Retry On Fail adds to the node's own retries", () => {
	it('re-runs the node; pages fetched moments before come back free from the cache', async () => {
		await service().setCatalogue({ query: 'cumbia', total: 120 });
		// The third page fails once with a 500 and the node itself is told not to retry.
		await service().injectFaults([
			{ match: { query: 'cumbia', nth: 3 }, response: { status: 500 } },
		]);
		const run = await search(
			{ query: 'cumbia', returnAll: true, options: { maxRetries: 0 } },
			{ nodeSettings: { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 } },
		);

		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(120);
		expect((await calls()).map((call) => `${call.outcome}:${call.creditsCharged}`)).toEqual([
			'ok:1',
			'ok:1',
			'fault:0',
			'cached:0',
			'cached:0',
			'ok:1',
		]);
		expect(
			run.items.reduce(
				(pages, { json }) => pages.add(`${json.page}:${json.creditsCharged}`),
				new Set(),
			),
		).toEqual(new Set(['1:0', '2:0', '3:1']));
	});
});
