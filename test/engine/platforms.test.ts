import {
	API_KEY,
	fetchDirect,
	RAW_FIELDS,
	servicePage,
	serviceFields,
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

	it('passes every field of the service through unchanged', async () => {
		const run = await search({ query: 'ocean waves', limit: 3 });
		// The node's call filled the service's cache, so a direct identical call returns the same reading.
		const direct = await fetchDirect(service(), 'shortvideo', { q: 'ocean waves', limit: 3 });

		const expected = direct.items.map((item) => ({
			...item,
			cached: false,
			cacheAgeSeconds: 0,
		}));
		expect(serviceFields(run)).toEqual(expected);
		expect(Object.keys(run.items[0].json)).toEqual(RAW_FIELDS);
	});

	it('keeps the photo-and-video platform nulls as the service sends them', async () => {
		const run = await search({ platform: 'photosocial', query: 'ocean waves', limit: 2 });

		expect(run.items[0].json).toMatchObject({
			soundId: expect.stringMatching(/^1\d{15}$/),
			title: expect.any(String),
			url: null,
			coverUrl: null,
			postCount: null,
			authorName: null,
			durationSeconds: null,
			creditsCharged: 2,
		});
	});
});

describe('simplified output', () => {
	const simplified = { query: 'lofi', options: { simplify: true } };

	it('flattens media objects to single URL strings next to the native fields', async () => {
		const run = await search({ ...simplified, limit: 2 });
		const direct = await fetchDirect(service(), 'shortvideo', { q: 'lofi', limit: 2 });
		const [first] = direct.items as Array<{
			soundId: string;
			url: { url_list: string[] };
			coverUrl: { url_list: string[] };
		}>;

		expect(run.items[0].json).toMatchObject({
			soundId: first.soundId,
			audioUrl: first.url.url_list[0],
			coverImageUrl: first.coverUrl.url_list[0],
			platform: 'shortvideo',
			query: 'lofi',
			creditsCharged: 1,
			page: 1,
		});
		for (const { json } of run.items) {
			expect(
				Object.values(json).every((value) => value === null || typeof value !== 'object'),
			).toBe(true);
			expect(json).not.toHaveProperty('url');
			expect(json).not.toHaveProperty('coverUrl');
		}
	});

	it('falls back to the uri of a media object without url_list, and turns other nested values into JSON text', async () => {
		const media = (uri: string) => ({ uri, width: 1, height: 1, url_list: [] });
		const sound = {
			soundId: '7',
			url: media('https://audio.example/7.mp3'),
			coverUrl: media('covers/7.jpg'),
			tags: ['calm', 'rain'],
			stats: { plays: 3 },
		};
		await service().injectFaults([{ response: { status: 200, body: servicePage([sound]) } }]);
		const run = await search({ ...simplified, limit: 1 });

		expect(run.items.map(({ json }) => json)).toEqual([
			{
				soundId: '7',
				audioUrl: 'https://audio.example/7.mp3',
				coverImageUrl: 'covers/7.jpg',
				tags: '["calm","rain"]',
				stats: '{"plays":3}',
				platform: 'shortvideo',
				query: 'lofi',
				creditsCharged: 0,
				page: 1,
			},
		]);
	});

	it('gives null URLs where the platform has no media', async () => {
		const run = await search({ ...simplified, platform: 'photosocial', limit: 1 });

		expect(run.items[0].json).toMatchObject({
			audioUrl: null,
			coverImageUrl: null,
			creditsCharged: 2,
		});
	});
});
