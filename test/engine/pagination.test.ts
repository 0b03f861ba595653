import {
	fetchDirect,
	servicePage,
	soundIds,
	sounds,
	useReferenceService,
	type LedgerRequest,
} from '../harness/engine/searchFixture';

const { service, search, calls } = useReferenceService();

const withMatches = async (query: string, total: number) =>
	await service().setCatalogue({ query, total });
const credits = (seen: LedgerRequest[]) => seen.reduce((sum, call) => sum + call.creditsCharged, 0);

it('Return All follows nextCursor across many pages until it is null, and makes no call after it', async () => {
	await withMatches('city pop', 1234);
	const run = await search({ query: 'city pop', returnAll: true });

	expect(run.error).toBeUndefined();
	expect(run.items).toHaveLength(1234);
	expect(new Set(soundIds(run)).size).toBe(1234);
	const seen = await calls();
	expect(seen).toHaveLength(Math.ceil(1234 / 50));
	expect(seen[0].cursor).toBeNull();
	expect(seen.slice(1).every((call) => typeof call.cursor === 'string')).toBe(true);
	expect(run.items[run.items.length - 1].json.page).toBe(seen.length);
	expect(credits(seen)).toBe(seen.length);
});

describe('Limit spends only the calls it needs', () => {
	it.each([
		['smaller than a page', 7, {}, ['7']],
		['equal to a page', 50, {}, ['50']],
		['one more than a page', 51, {}, ['50', '1']],
		['larger than a page', 120, {}, ['50', '50', '20']],
		['with a page size above the service maximum', 70, { pageSize: 100 }, ['70', '20']],
		['with a smaller page size, one call per page', 25, { pageSize: 10 }, ['10', '10', '5']],
		['filled on the last page Max Pages allows', 100, { maxPages: 2 }, ['50', '50']],
		['larger than all 45 matches: every one, in one call', 500, {}, ['50'], 45],
	])('limit %s (%i)', async (_case, limit, options, pageLimits, matches = 1000) => {
		await withMatches('piano', matches);
		const run = await search({ query: 'piano', limit, options });

		expect(run.items).toHaveLength(Math.min(limit, matches));
		const seen = await calls();
		expect(seen.map((call) => call.limit)).toEqual(pageLimits);
		expect(credits(seen)).toBe(pageLimits.length);
	});

	it('cuts the output at Limit when the service returns more than asked', async () => {
		const tooMany = servicePage(sounds(8), 'more');
		await service().injectFaults([{ response: { status: 200, creditsCharged: 1, body: tooMany } }]);
		const run = await search({ query: 'lofi', limit: 5 });

		expect(soundIds(run)).toEqual(['s0', 's1', 's2', 's3', 's4']);
		expect((await calls()).map((call) => call.limit)).toEqual(['5']);
	});
});

it('Start Cursor: continues from the given cursor (sent trimmed, as the service gave it) instead of the first page', async () => {
	await withMatches('synthwave', 100);
	const firstPage = await fetchDirect(service(), 'shortvideo', { q: 'synthwave', limit: 50 });
	const cursor = firstPage.nextCursor as string;
	await service().reset();
	await withMatches('synthwave', 100);

	const run = await search({
		query: 'synthwave',
		returnAll: true,
		options: { startCursor: ` ${cursor} ` },
	});

	expect(run.items).toHaveLength(50);
	const firstIds = new Set(firstPage.items.map((item) => item.soundId));
	expect(soundIds(run).some((id) => firstIds.has(id))).toBe(false);
	expect((await calls()).map((call) => call.cursor)).toEqual([cursor]);
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

	it.each([
		['Max Pages bounds a Return All over a huge result', { maxPages: 3 }, 3, '150 sounds', 3],
		['Max Pages defaults to 100', { pageSize: 10 }, 100, '1000 sounds', 100],
	])('%s', async (_case, options, maxPages, fetched, made) => {
		const run = await search({ query: 'lofi', returnAll: true, options });

		expect(run.error?.message).toBe(
			`Search stopped: reached Max Pages (${maxPages}) before the last page`,
		);
		expect(run.error?.description).toContain(
			`${fetched} were fetched in ${made} calls (${made} credits)`,
		);
		expect(await calls()).toHaveLength(made);
	});
});
