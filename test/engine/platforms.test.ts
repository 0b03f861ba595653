import {
	API_KEY,
	fetchDirect,
	RAW_FIELDS,
	servicePage,
	useReferenceService,
} from '../harness/engine/searchFixture';

const { service, search, calls } = useReferenceService();

describe('platforms and prices', () => {
	it.each([
		['shortvideo', 1],
		['photosocial', 2],
	])('searches %s at %i credit(s) per call, sending the Bearer key', async (platform, price) => {
		const run = await search({ platform, query: 'Rainy  Day', limit: 5 });

		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(5);
		expect(run.items.every(({ json }) => json.creditsCharged === price && json.page === 1)).toBe(
			true,
		);
		const [call, ...others] = await calls();
		expect(others).toHaveLength(0);
		expect(call).toMatchObject({
			path: `/v1/${platform}/sound/search`,
			q: 'Rainy  Day',
			limit: '5',
			cursor: null,
			authorization: `Bearer ${API_KEY}`,
			creditsCharged: price,
		});
	});

	it('version 1: passes every field of the service through unchanged; a version 2 Simplify left in is ignored', async () => {
		const run = await search({ query: 'ocean waves', limit: 3, simplify: true });
		// The node's call filled the service's cache, so a direct identical call returns the same reading.
		const direct = await fetchDirect(service(), 'shortvideo', { q: 'ocean waves', limit: 3 });

		const expected = direct.items.map((item) => ({ ...item, cached: false, cacheAgeSeconds: 0 }));
		// Without the node's two fields (toEqual takes undefined for missing).
		const sounds = run.items.map(({ json }) => ({
			...json,
			creditsCharged: undefined,
			page: undefined,
		}));
		expect(sounds).toEqual(expected);
		expect(Object.keys(run.items[0].json)).toEqual(RAW_FIELDS);
	});
});

// Version 2's Simplify and the tool's Output: output.test.ts.
it("version 1's Simplify Output: every field flat, in the service's order; a media object as its first url_list entry, else its uri; other nested values as JSON text", async () => {
	const media = (uri: string, urlList: string[]) => ({ uri, width: 1, url_list: urlList });
	const sound = {
		soundId: '7',
		url: media('audio/7', ['https://audio.example/7.mp3', 'https://cdn.example/7.mp3']),
		coverUrl: media('covers/7.jpg', []),
		tags: ['calm', 'rain'],
		stats: { plays: 3 },
	};
	await service().injectFaults([{ response: { status: 200, body: servicePage([sound]) } }]);
	const run = await search({ query: 'lofi', limit: 1, options: { simplify: true } });

	const flat = {
		soundId: '7',
		audioUrl: 'https://audio.example/7.mp3',
		coverImageUrl: 'covers/7.jpg',
		tags: '["calm","rain"]',
		stats: '{"plays":3}',
		platform: 'shortvideo',
		query: 'lofi',
		creditsCharged: 0,
		page: 1,
	};
	expect(run.items.map(({ json }) => json)).toEqual([flat]);
	expect(Object.keys(run.items[0].json)).toEqual(Object.keys(flat));
});
