import {
	fetchDirect,
	servicePage,
	soundIds,
	sounds,
	useReferenceService,
	type LedgerRequest,
} from '../harness/engine/searchFixture';

const { service, search, calls } = useReferenceService();
// The reference service caps pages at 50 sounds; the node asks for 50 by default.
const SERVER_MAX_PAGE = 50;

const withMatches = async (query: string, total: number) =>
	await service().setCatalogue({ query, total });
const credits = (seen: LedgerRequest[]) => seen.reduce((sum, call) => sum + call.creditsCharged, 0);
const limits = async () => (await calls()).map((call) => call.limit);

describe('Return All', () => {
	it('follows nextCursor across many pages until it is null', async () => {
		await withMatches('city pop', 1234);
		const run = await search({ query: 'city pop', returnAll: true });

		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(1234);
		expect(new Set(soundIds(run)).size).toBe(1234);
		const seen = await calls();
		expect(seen).toHaveLength(Math.ceil(1234 / SERVER_MAX_PAGE));
		expect(seen[0].cursor).toBeNull();
		expect(seen.slice(1).every((call) => typeof call.cursor === 'string')).toBe(true);
		expect(run.items[run.items.length - 1].json.page).toBe(seen.length);
		expect(credits(seen)).toBe(seen.length);
	});

	it("numbers pages from 1 and reports each call's credits on its sounds", async () => {
		await withMatches('jazz', 120);
		const run = await search({ platform: 'photosocial', query: 'jazz', returnAll: true });

		const pages = run.items.map(({ json }) => json.page);
		expect([1, 2, 3].map((page) => pages.filter((p) => p === page).length)).toEqual([50, 50, 20]);
		expect(run.items.every(({ json }) => json.creditsCharged === 2)).toBe(true);
	});

	it('makes exactly one call when everything fits on the first page', async () => {
		await withMatches('harp', 50);
		const run = await search({ query: 'harp', returnAll: true });

		expect(run.items).toHaveLength(50);
		expect(await calls()).toHaveLength(1);
	});
});

describe('Limit spends only the calls it needs', () => {
	it.each([
		['smaller than a page', 7, {}, ['7']],
		['equal to a page', 50, {}, ['50']],
		['one more than a page', 51, {}, ['50', '1']],
		['larger than a page', 120, {}, ['50', '50', '20']],
		['with a page size above the service maximum', 70, { pageSize: 100 }, ['70', '20']],
		['with a smaller page size, one call per page', 25, { pageSize: 10 }, ['10', '10', '5']],
	])('limit %s (%i) against 1,000 matches', async (_case, limit, options, pageLimits) => {
		await withMatches('piano', 1000);
		const run = await search({ query: 'piano', limit, options });

		expect(run.items).toHaveLength(limit);
		const seen = await calls();
		expect(seen.map((call) => call.limit)).toEqual(pageLimits);
		expect(credits(seen)).toBe(pageLimits.length);
	});

	it('returns every result, in one call, when the limit is larger than all results', async () => {
		await withMatches('kazoo', 45);
		const run = await search({ query: 'kazoo', limit: 500 });

		expect(run.items).toHaveLength(45);
		expect(await limits()).toEqual(['50']);
	});

	it('cuts the output at Limit when the service returns more than asked', async () => {
		const tooMany = servicePage(sounds(8), 'more');
		await service().injectFaults([{ response: { status: 200, creditsCharged: 1, body: tooMany } }]);
		const run = await search({ query: 'lofi', limit: 5 });

		expect(soundIds(run)).toEqual(['s0', 's1', 's2', 's3', 's4']);
		expect(await limits()).toEqual(['5']);
	});
});

describe('Start Cursor', () => {
	it('continues from the given cursor instead of the first page', async () => {
		await withMatches('synthwave', 100);
		const firstPage = await fetchDirect(service(), 'shortvideo', { q: 'synthwave', limit: 50 });
		const cursor = firstPage.nextCursor as string;
		await service().reset();
		await withMatches('synthwave', 100);

		const run = await search({
			query: 'synthwave',
			returnAll: true,
			options: { startCursor: cursor },
		});

		expect(run.items).toHaveLength(50);
		const firstIds = new Set(firstPage.items.map((item) => item.soundId));
		expect(soundIds(run).some((id) => firstIds.has(id))).toBe(false);
		expect((await calls()).map((call) => call.cursor)).toEqual([cursor]);
	});
});

describe('cache window', () => {
	it('reports 0 credits on sounds the service answers from its cache', async () => {
		const rain = { platform: 'photosocial', query: 'rain', limit: 10 };
		const first = await search(rain);
		const again = await search(rain);

		expect(first.items.map(({ json }) => [json.creditsCharged, json.cached])).toEqual(
			Array(10).fill([2, false]),
		);
		expect(again.items.map(({ json }) => [json.creditsCharged, json.cached])).toEqual(
			Array(10).fill([0, true]),
		);
		expect(soundIds(again)).toEqual(soundIds(first));
		expect((await calls()).map((call) => call.creditsCharged)).toEqual([2, 0]);
	});
});

describe('pagination faults stop the search by themselves', () => {
	it.each([
		[
			'reported',
			1,
			/2 sounds were fetched in 2 calls \(2 credits\).*Start Cursor option set to loop-A/,
		],
		[
			'missing on a page',
			null,
			/2 sounds were fetched in 2 calls \(an unknown number of credits\)/,
		],
	])('a cursor that repeats (credits %s)', async (_case, secondCredits, description) => {
		await service().injectFaults([
			{
				match: { cursor: 'none' },
				response: { status: 200, creditsCharged: 1, body: servicePage(sounds(1, 'a'), 'loop-A') },
			},
			{
				match: { cursor: 'loop-A' },
				times: 'always',
				response: {
					status: 200,
					creditsCharged: secondCredits,
					body: servicePage(sounds(1, 'b'), 'loop-A'),
				},
			},
		]);
		const run = await search({ query: 'lofi', returnAll: true });

		expect(run.error?.message).toBe(
			'Search stopped: the service returned a cursor it had already returned',
		);
		expect(run.error?.description).toMatch(description);
		expect((await calls()).map((call) => call.creditsCharged)).toEqual([1, secondCredits ?? 0]);
	});

	it('an empty page that still has a cursor', async () => {
		await service().injectFaults([
			{
				times: 'always',
				response: { status: 200, creditsCharged: 1, body: servicePage([], 'more') },
			},
		]);
		const run = await search({ query: 'lofi', returnAll: true });

		expect(run.error?.message).toBe(
			'Search stopped: the service returned an empty page that still points to a next page',
		);
		expect((await calls()).map((call) => `${call.status}:${call.creditsCharged}`)).toEqual([
			'200:1',
		]);
	});

	it('Max Pages bounds a Return All over a huge result', async () => {
		const run = await search({ query: 'lofi', returnAll: true, options: { maxPages: 3 } });

		expect(run.error?.message).toBe('Search stopped: reached Max Pages (3) before the last page');
		expect(run.error?.description).toMatch(/150 sounds were fetched in 3 calls \(3 credits\)/);
		expect(await calls()).toHaveLength(3);
	});

	it('Max Pages defaults to 100: a never-ending Return All stops there', async () => {
		const run = await search({ query: 'lofi', returnAll: true, options: { pageSize: 10 } });

		expect(run.error?.message).toBe('Search stopped: reached Max Pages (100) before the last page');
		expect(await calls()).toHaveLength(100);
	});
});
