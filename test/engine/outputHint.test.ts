import {
	BY_KEYWORD,
	fetchDirect,
	keywordItems,
	useReferenceService,
} from '../harness/engine/searchFixture';
import type { SearchRun } from '../harness/engine/engine';
import { startForwardProxy } from '../harness/forwardProxy';

const { service, search, calls } = useReferenceService();

const hintOf = (run: SearchRun) => run.run.data.resultData.runData['Sound Search'][0].hints;

// Calls are counted as they settle: every page of a Return All is one.
it("the output panel's cost hint after a run: credits charged, calls made, free cached answers, repeats searched once", async () => {
	// "piano" was searched moments ago: the service answers it from its cache for 0 credits.
	await fetchDirect(service(), 'photosocial', { q: 'piano', limit: 1 });
	const run = await search(
		{ ...BY_KEYWORD, platform: 'photosocial', limit: 1 },
		{ input: keywordItems('rain', 'rain', 'piano', 'jazz', 'rain') },
	);

	expect(run.error).toBeUndefined();
	expect(run.items).toHaveLength(5);
	expect(hintOf(run)).toEqual([
		{
			message:
				'This run cost 4 credits: 3 calls to the service (1 answered free from its cache), 2 repeated searches made once.',
			type: 'info',
			location: 'outputPane',
		},
	]);
});

describe("n8n's Request Options, which the Search operation applies as n8n's routing node does", () => {
	let proxy: { url: string; seen: string[]; close: () => Promise<void> };
	beforeAll(async () => {
		proxy = await startForwardProxy();
	});
	afterAll(async () => {
		await proxy.close();
	});

	it('Proxy: every call goes through it', async () => {
		proxy.seen.length = 0;
		const run = await search(
			{ ...BY_KEYWORD, limit: 1, requestOptions: { proxy: proxy.url } },
			{ input: keywordItems('rain', 'piano') },
		);

		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(2);
		expect(proxy.seen.map((url) => new URL(url).searchParams.get('q')).sort()).toEqual([
			'piano',
			'rain',
		]);
	});

	it('a proxy that is not an address fails before any call', async () => {
		const run = await search({ query: 'rain', requestOptions: { proxy: 'not a proxy' } });

		expect(run.error?.message).toBe('The proxy is not valid');
		expect(await calls()).toEqual([]);
	});

	// Every item is checked before the first batch: input.test.ts ("names the item whose query is empty").
	it('Batching: items of later batches start after the interval, so they do not overlap', async () => {
		await service().setCapacity({ latencyMs: 50 });
		const batching = { batch: { batchSize: 1, batchInterval: 200 } };
		const run = await search(
			{ ...BY_KEYWORD, limit: 1, requestOptions: { batching } },
			{ input: keywordItems('rain', 'piano', 'jazz') },
		);

		expect(run.items).toHaveLength(3);
		expect((await service().ledger()).capacity.mostInFlight).toBe(1);
	});

	it('Batching: the first batch starts at once, its items together', async () => {
		await service().setCapacity({ latencyMs: 150 });
		const batching = { batch: { batchSize: 3, batchInterval: 3000 } };
		const started = Date.now();
		const run = await search(
			{ ...BY_KEYWORD, limit: 1, requestOptions: { batching } },
			{ input: keywordItems('rain', 'piano', 'jazz') },
		);

		expect(run.items).toHaveLength(3);
		expect((await service().ledger()).capacity.mostInFlight).toBe(3);
		expect(Date.now() - started).toBeLessThan(3000);
	});
});
