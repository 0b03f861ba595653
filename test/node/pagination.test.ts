import { fetchDirect, requestsSeen, search, useReferenceService } from '../harness/searchFixture';

const { service } = useReferenceService();
// The reference service caps pages at 50 sounds; the node asks for 50 by default.
const SERVER_MAX_PAGE = 50;

async function withMatches(query: string, total: number) {
	await service().setCatalogue({ query, total });
}

describe('Return All', () => {
	it('follows nextCursor across many pages until it is null', async () => {
		await withMatches('city pop', 1234);
		const run = await search(service(), {
			parameters: { platform: 'shortvideo', query: 'city pop', returnAll: true },
		});

		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(1234);
		expect(new Set(run.items.map(({ json }) => json.soundId)).size).toBe(1234);
		const calls = await requestsSeen(service());
		expect(calls).toHaveLength(Math.ceil(1234 / SERVER_MAX_PAGE));
		expect(calls[0].cursor).toBeNull();
		expect(calls.slice(1).every((call) => typeof call.cursor === 'string')).toBe(true);
		expect(run.items[run.items.length - 1].json.page).toBe(calls.length);
		expect(calls.reduce((sum, call) => sum + call.creditsCharged, 0)).toBe(calls.length);
	});

	it("numbers pages from 1 and reports each call's credits on its sounds", async () => {
		await withMatches('jazz', 120);
		const run = await search(service(), {
			parameters: { platform: 'photosocial', query: 'jazz', returnAll: true },
		});

		const pages = run.items.map(({ json }) => json.page);
		expect(pages.filter((page) => page === 1)).toHaveLength(50);
		expect(pages.filter((page) => page === 2)).toHaveLength(50);
		expect(pages.filter((page) => page === 3)).toHaveLength(20);
		expect(run.items.every(({ json }) => json.creditsCharged === 2)).toBe(true);
	});

	it('makes exactly one call when everything fits on the first page', async () => {
		await withMatches('harp', 50);
		const run = await search(service(), {
			parameters: { platform: 'shortvideo', query: 'harp', returnAll: true },
		});

		expect(run.items).toHaveLength(50);
		expect(await requestsSeen(service())).toHaveLength(1);
	});
});

describe('Limit spends only the calls it needs', () => {
	it.each([
		['smaller than a page', 7, ['7']],
		['equal to a page', 50, ['50']],
		['one more than a page', 51, ['50', '1']],
		['larger than a page', 120, ['50', '50', '20']],
	])('limit %s (%i) against 1,000 matches', async (_case, limit, pageLimits) => {
		await withMatches('piano', 1000);
		const run = await search(service(), {
			parameters: { platform: 'shortvideo', query: 'piano', limit },
		});

		expect(run.items).toHaveLength(limit);
		const calls = await requestsSeen(service());
		expect(calls.map((call) => call.limit)).toEqual(pageLimits);
		expect(calls.reduce((sum, call) => sum + call.creditsCharged, 0)).toBe(pageLimits.length);
	});

	it('returns every result, in one call, when the limit is larger than all results', async () => {
		await withMatches('kazoo', 45);
		const run = await search(service(), {
			parameters: { platform: 'shortvideo', query: 'kazoo', limit: 500 },
		});

		expect(run.items).toHaveLength(45);
		expect(await requestsSeen(service())).toHaveLength(1);
	});

	it('makes the minimum number of calls when its page size is above the service maximum', async () => {
		await withMatches('violin', 1000);
		const run = await search(service(), {
			parameters: {
				platform: 'shortvideo',
				query: 'violin',
				limit: 70,
				options: { pageSize: 100 },
			},
		});

		expect(run.items).toHaveLength(70);
		expect((await requestsSeen(service())).map((call) => call.limit)).toEqual(['70', '20']);
	});

	it('uses a smaller page size when asked, paying one call per page', async () => {
		await withMatches('drums', 1000);
		const run = await search(service(), {
			parameters: { platform: 'shortvideo', query: 'drums', limit: 25, options: { pageSize: 10 } },
		});

		expect(run.items).toHaveLength(25);
		expect((await requestsSeen(service())).map((call) => call.limit)).toEqual(['10', '10', '5']);
	});
});

describe('Start Cursor', () => {
	it('continues from the given cursor instead of the first page', async () => {
		await withMatches('synthwave', 100);
		const firstPage = await fetchDirect(service(), 'shortvideo', { q: 'synthwave', limit: 50 });
		const cursor = firstPage.body.data.nextCursor as string;
		await service().reset();
		await withMatches('synthwave', 100);

		const run = await search(service(), {
			parameters: {
				platform: 'shortvideo',
				query: 'synthwave',
				returnAll: true,
				options: { startCursor: cursor },
			},
		});

		expect(run.items).toHaveLength(50);
		const firstIds = new Set(firstPage.body.data.items.map((item) => item.soundId));
		expect(run.items.some(({ json }) => firstIds.has(json.soundId as string))).toBe(false);
		const calls = await requestsSeen(service());
		expect(calls).toHaveLength(1);
		expect(calls[0].cursor).toBe(cursor);
	});
});

describe('cache window', () => {
	it('reports 0 credits on sounds the service answers from its cache', async () => {
		const first = await search(service(), {
			parameters: { platform: 'photosocial', query: 'rain', limit: 10 },
		});
		const again = await search(service(), {
			parameters: { platform: 'photosocial', query: 'rain', limit: 10 },
		});

		expect(
			first.items.every(({ json }) => json.creditsCharged === 2 && json.cached === false),
		).toBe(true);
		expect(again.items.every(({ json }) => json.creditsCharged === 0 && json.cached === true)).toBe(
			true,
		);
		expect(again.items.map(({ json }) => json.soundId)).toEqual(
			first.items.map(({ json }) => json.soundId),
		);
		expect((await requestsSeen(service())).map((call) => call.creditsCharged)).toEqual([2, 0]);
	});
});
