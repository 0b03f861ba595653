import {
	BY_KEYWORD,
	fetchDirect,
	keywordItems,
	useReferenceService,
} from '../harness/engine/searchFixture';

const { service, search } = useReferenceService();

describe("the output panel's cost hint", () => {
	it('after a run: credits charged, calls made, free cached answers, repeats searched once', async () => {
		// "piano" was searched moments ago: the service answers it from its cache for 0 credits.
		await fetchDirect(service(), 'photosocial', { q: 'piano', limit: 1 });
		const run = await search(
			{ ...BY_KEYWORD, platform: 'photosocial', limit: 1 },
			{ input: keywordItems('rain', 'rain', 'piano', 'rain') },
		);

		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(4);
		expect(run.run.data.resultData.runData['Sound Search'][0].hints).toEqual([
			{
				message:
					'This run cost 2 credits: 2 calls to the service, 1 call of them answered free from its cache; 2 repeated searches made once.',
				type: 'info',
				location: 'outputPane',
			},
		]);
	});

	it('counts every page of a Return All search', async () => {
		const run = await search({ query: 'ocean waves', returnAll: true, options: { pageSize: 50 } });

		const pages = new Set(run.items.map(({ json }) => json.page)).size;
		expect(pages).toBeGreaterThan(1);
		expect(run.run.data.resultData.runData['Sound Search'][0].hints?.[0].message).toBe(
			`This run cost ${pages} credits: ${pages} calls to the service, 0 calls of them answered free from its cache; 0 repeated searches made once.`,
		);
	});
});
