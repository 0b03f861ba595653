import type { IDataObject, INodeParameters } from 'n8n-workflow';
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

// A cursor of the reference service: base64url JSON {v, p: platform, q: query, o: offset}.
const LOFI_FROM_3 = Buffer.from(
	JSON.stringify({ v: 1, p: 'shortvideo', q: 'lofi', o: 3 }),
).toString('base64url');

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

	it('pairs all pages of a Return All search with the item that asked for it', async () => {
		await service().setCatalogue({ query: 'cello', total: 120 });
		const run = await search(
			{ ...BY_KEYWORD, returnAll: true },
			{ input: keywordItems('kazoo', 'cello') },
		);

		const forCello = run.items.filter((item) => itemOf(item) === 1);
		expect(forCello).toHaveLength(120);
		expect(new Set(forCello.map(({ json }) => json.page))).toEqual(new Set([1, 2, 3]));
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

describe('only identical searches are shared', () => {
	it.each([
		[
			'platform',
			{ platform: '={{ $json.platform }}' },
			[{ platform: 'shortvideo' }, { platform: 'photosocial' }],
			[3, 3],
			['photosocial lofi 3 first', 'shortvideo lofi 3 first'],
		],
		[
			'Limit',
			{ limit: '={{ $json.limit }}' },
			[{ limit: 2 }, { limit: 5 }],
			[2, 5],
			['shortvideo lofi 2 first', 'shortvideo lofi 5 first'],
		],
		[
			'Start Cursor',
			{ options: { startCursor: '={{ $json.cursor }}' } },
			[{ cursor: '' }, { cursor: LOFI_FROM_3 }],
			[3, 3],
			['shortvideo lofi 3 cursor', 'shortvideo lofi 3 first'],
		],
		[
			'Page Size',
			{ options: { pageSize: '={{ $json.pageSize }}' } },
			[{ pageSize: 3 }, { pageSize: 2 }],
			[3, 3],
			['shortvideo lofi 1 cursor', 'shortvideo lofi 2 first', 'shortvideo lofi 3 first'],
		],
	])(
		'two searches that differ only in %s are each made',
		async (_case, parameters: INodeParameters, input: IDataObject[], counts, seen) => {
			const run = await search({ query: 'lofi', limit: 3, ...parameters }, { input });

			expect(run.error).toBeUndefined();
			expect(countsByItem(run.items, 2)).toEqual(counts);
			expect(await asked()).toEqual(seen);
		},
	);
});

const range = (name: string, bounds: string) =>
	new RegExp(`"${name}" parameter must be a whole number from ${bounds}`);
/** Input the node refuses before any request, and what it says. */
const REFUSED: Array<[string, INodeParameters, RegExp]> = [
	['a whitespace query', { query: '   ' }, /"Query" parameter is empty \[item 0\]/],
	[
		'a limit of 0',
		{ limit: 0 },
		/"Limit" parameter must be a whole number.*but it is number 0 \[item 0\]/,
	],
	['a negative limit', { limit: -5 }, /"Limit".*number -5 \[item 0\]/],
	['a fractional limit', { limit: 2.5 }, /"Limit".*number 2.5 \[item 0\]/],
	['an absurd limit', { limit: 1e9 }, /"Limit".*from 1 to 100000/],
	[
		'a query that is not text',
		{ query: '={{ 42 }}' },
		/"Query" parameter must be text.*number 42 \[item 0\]/,
	],
	[
		'a start cursor with spaces',
		{ options: { startCursor: 'not a cursor' } },
		/"Start Cursor" option is not a valid cursor/,
	],
	[
		'a start cursor too long to be one',
		{ options: { startCursor: 'c'.repeat(2049) } },
		/"Start Cursor" option is not a valid cursor/,
	],
	['a page size of 0', { options: { pageSize: 0 } }, range('Page Size', '1 to 100')],
	['max pages of 0', { options: { maxPages: 0 } }, range('Max Pages', '1 to 10000')],
	['too many retries', { options: { maxRetries: 9 } }, range('Retries per Page', '0 to 5')],
	['a timeout below a second', { options: { timeoutMs: 10 } }, range('Timeout', '1000 to 300000')],
	[
		'an unknown platform',
		{ platform: '={{ "radio" }}' },
		/"Platform" parameter is not a known platform: "radio"/,
	],
];

describe('bad input is refused before any request', () => {
	it.each(REFUSED)('%s', async (_case, parameters: INodeParameters, message) => {
		const run = await search({ query: 'lofi', limit: 5, ...parameters });

		expect(run.items).toHaveLength(0);
		expect(run.error?.message).toMatch(message);
		expect(run.error?.description).toMatch(/No request was sent and no credits were spent/);
		expect(await calls()).toHaveLength(0);
	});

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

describe('a Base URL with a path (a gateway in front of the service)', () => {
	let gateway: Awaited<ReturnType<typeof startPathPrefixProxy>>;
	beforeAll(async () => {
		gateway = await startPathPrefixProxy(service().url, '/sound-search');
	});
	afterAll(async () => {
		await gateway.close();
	});
	beforeEach(() => {
		gateway.seen.length = 0;
	});

	it.each([
		['without a trailing slash', ''],
		['with a trailing slash', '/'],
	])('calls <Base URL>/v1/..., %s, every page', async (_case, slash) => {
		const run = await searchOn(`${gateway.url}${slash}`, { query: 'lofi', limit: 30 }, {});
		const pages = await searchOn(`${gateway.url}${slash}`, {
			query: 'lofi',
			returnAll: true,
			options: { pageSize: 50, maxPages: 3 },
		});

		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(30);
		expect(pages.error?.message ?? '').not.toMatch(/Base URL/);
		expect(gateway.seen.length).toBeGreaterThan(1);
		for (const request of gateway.seen) {
			expect(request.path).toMatch(/^\/sound-search\/v1\/shortvideo\/sound\/search\?/);
			expect(request).toMatchObject({ authorized: true, status: 200 });
		}
		expect((await calls()).length).toBe(gateway.seen.length);
	});
});
