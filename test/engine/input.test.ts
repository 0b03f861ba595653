import {
	BY_KEYWORD,
	itemOf,
	keywordItems,
	searchOn,
	useReferenceService,
} from '../harness/engine/searchFixture';
import { startPathPrefixProxy } from '../harness/pathPrefixProxy';

const { service, search, calls } = useReferenceService();

const fromColumns = { ...BY_KEYWORD, platform: '={{ $json.platform }}', limit: 3 };
const columns = [
	{ keyword: 'lofi', platform: 'shortvideo' },
	{ keyword: 'jazz', platform: 'photosocial' },
	{ keyword: 'rain', platform: 'shortvideo' },
];
/** How many output items each input item got. */
const countsByItem = (items: { pairedItem?: unknown }[], inputs: number) =>
	Array.from({ length: inputs }, (_, index) => items.filter((i) => itemOf(i) === index).length);
/** What each call asked for (a first page or one at a cursor), in a stable order. */
const asked = async () =>
	(await calls())
		.map(
			({ platform, q, limit, cursor }) =>
				`${platform} ${q} ${limit} ${cursor ? 'cursor' : 'first'}`,
		)
		.sort();

describe('one search per input item', () => {
	it('resolves expressions per item and pairs every sound with its input item', async () => {
		const run = await search(fromColumns, { input: columns });

		expect(run.error).toBeUndefined();
		expect(run.items.map((item) => [itemOf(item), item.json.creditsCharged])).toEqual(
			[0, 0, 0, 1, 1, 1, 2, 2, 2].map((item) => [item, item === 1 ? 2 : 1]),
		);
		expect(await asked()).toEqual([
			'photosocial jazz 3 first',
			'shortvideo lofi 3 first',
			'shortvideo rain 3 first',
		]);
	});

	it("pairs every page of a Return All search with its item: pages numbered from 1, each sound at its call's price", async () => {
		await service().setCatalogue({ query: 'cello', total: 120 });
		const run = await search(
			{ ...BY_KEYWORD, platform: 'photosocial', returnAll: true },
			{ input: keywordItems('kazoo', 'cello') },
		);

		const pages = run.items.filter((item) => itemOf(item) === 1).map(({ json }) => json.page);
		expect([1, 2, 3].map((page) => pages.filter((p) => p === page).length)).toEqual([50, 50, 20]);
		expect(pages).toHaveLength(120);
		expect(run.items.every(({ json }) => json.creditsCharged === 2)).toBe(true);
	});
});

describe('repeated keywords in one run', () => {
	it('searches an identical search once; the repeats reuse its sounds at 0 credits', async () => {
		await service().setCatalogue({ query: 'reggaeton', total: 70 });
		const run = await search(
			{ ...BY_KEYWORD, platform: 'photosocial', returnAll: true },
			{ input: keywordItems('reggaeton', 'techno', 'reggaeton') },
		);

		const forItem = (item: number) => run.items.filter((sound) => itemOf(sound) === item);
		expect(forItem(0)).toHaveLength(70);
		expect(forItem(2).map(({ json }) => json.soundId)).toEqual(
			forItem(0).map(({ json }) => json.soundId),
		);
		expect(forItem(0).every(({ json }) => json.creditsCharged === 2)).toBe(true);
		expect(forItem(2).every(({ json }) => json.creditsCharged === 0)).toBe(true);
		const seen = await calls();
		expect(seen.filter((call) => call.q === 'reggaeton')).toHaveLength(2);
		expect(seen.reduce((sum, call) => sum + call.creditsCharged, 0)).toBe(2 * seen.length);
	});

	it('sends the keyword trimmed: " lofi " and "lofi" are one search', async () => {
		const run = await search(
			{ ...BY_KEYWORD, limit: 2 },
			{ input: keywordItems(' lofi ', 'lofi') },
		);

		expect(countsByItem(run.items, 2)).toEqual([2, 2]);
		expect(await asked()).toEqual(['shortvideo lofi 2 first']);
	});

	it('a failed shared search fails each repeat as its own item', async () => {
		const run = await search(
			{ ...BY_KEYWORD, limit: 2 },
			{
				input: keywordItems('private sound', 'private sound'),
				nodeSettings: { onError: 'continueRegularOutput' },
			},
		);

		expect(run.items.map((item) => [item.json.error, itemOf(item)])).toEqual([
			['The service answered available: false with status "private"', 0],
			['The service answered available: false with status "private"', 1],
		]);
		expect(await calls()).toHaveLength(1);
	});
});

// The run shares a search only when all it asks for is identical (nodes/shared/run.ts, searchKey).
it('two searches that differ only in Page Size are each made', async () => {
	const input = [{ pageSize: 3 }, { pageSize: 2 }];
	const options = { pageSize: '={{ $json.pageSize }}' };
	const run = await search({ query: 'lofi', limit: 3, options }, { input });

	expect(run.error).toBeUndefined();
	expect(countsByItem(run.items, 2)).toEqual([3, 3]);
	expect(await asked()).toEqual([
		'shortvideo lofi 1 cursor',
		'shortvideo lofi 2 first',
		'shortvideo lofi 3 first',
	]);
});

// What each refusal says, to the letter: inputChecks.test.ts.
describe('bad input is refused before any request', () => {
	it('leaves a literally empty query to n8n, which refuses the workflow before it runs', async () => {
		const run = await search({ query: '' });

		expect(run.error?.message).toMatch(/Parameter "Query" is required/);
		expect(await calls()).toHaveLength(0);
	});

	it('names the item whose query is empty and searches none of the others', async () => {
		const input = [...columns.slice(0, 2), { keyword: ' ', platform: 'shortvideo' }];
		const run = await search(fromColumns, { input });

		expect(run.error?.message).toBe('The "Query" parameter is empty [item 2]');
		expect(run.error?.context?.itemIndex).toBe(2);
		expect(await calls()).toHaveLength(0);
	});

	it('with "Continue (regular output)", searches the good items and reports the bad one', async () => {
		const run = await search(
			{ ...BY_KEYWORD, limit: 3 },
			{ input: keywordItems('lofi', ''), nodeSettings: { onError: 'continueRegularOutput' } },
		);

		expect(run.error).toBeUndefined();
		expect(run.items.filter(({ json }) => json.soundId)).toHaveLength(3);
		const failed = run.items.filter(({ json }) => json.error);
		expect(failed).toHaveLength(1);
		expect(failed[0].json.error).toMatch(/"Query" parameter is empty \[item 1\]/);
		expect((await calls()).map((call) => call.q)).toEqual(['lofi']);
	});
});

it('a Base URL with a path (a gateway in front of the service): every page goes to <Base URL>/v1/...', async () => {
	const gateway = await startPathPrefixProxy(service().url, '/sound-search');
	try {
		const run = await searchOn(`${gateway.url}/`, { query: 'lofi', limit: 120 });

		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(120);
		expect(gateway.seen).toHaveLength(3);
		for (const request of gateway.seen) {
			expect(request.path).toMatch(/^\/sound-search\/v1\/shortvideo\/sound\/search\?/);
			expect(request).toMatchObject({ authorized: true, status: 200 });
		}
		expect(await calls()).toHaveLength(3);
	} finally {
		await gateway.close();
	}
});
