import { requestsSeen, search, useReferenceService } from '../harness/searchFixture';

const { service } = useReferenceService();

const fromColumns = { platform: '={{ $json.platform }}', query: '={{ $json.keyword }}', limit: 3 };

describe('one search per input item', () => {
	it('resolves expressions per item and pairs every sound with its input item', async () => {
		const input = [
			{ keyword: 'lofi', platform: 'shortvideo' },
			{ keyword: 'jazz', platform: 'photosocial' },
			{ keyword: 'rain', platform: 'shortvideo' },
		];
		const run = await search(service(), { parameters: fromColumns, input });

		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(9);
		expect(run.items.map(({ pairedItem }) => pairedItem)).toEqual(
			[0, 0, 0, 1, 1, 1, 2, 2, 2].map((item) => ({ item })),
		);
		expect(run.items.map(({ json }) => json.creditsCharged)).toEqual([1, 1, 1, 2, 2, 2, 1, 1, 1]);
		const calls = await requestsSeen(service());
		expect(calls.map((call) => `${call.platform} ${call.q}`).sort()).toEqual([
			'photosocial jazz',
			'shortvideo lofi',
			'shortvideo rain',
		]);
	});

	it('pairs all pages of a Return All search with the item that asked for it', async () => {
		await service().setCatalogue({ query: 'cello', total: 120 });
		const run = await search(service(), {
			parameters: { platform: 'shortvideo', query: '={{ $json.keyword }}', returnAll: true },
			input: [{ keyword: 'kazoo' }, { keyword: 'cello' }],
		});

		const forCello = run.items.filter(
			({ pairedItem }) => (pairedItem as { item: number }).item === 1,
		);
		expect(forCello).toHaveLength(120);
		expect(new Set(forCello.map(({ json }) => json.page))).toEqual(new Set([1, 2, 3]));
	});
});

describe('repeated keywords in one run', () => {
	it('searches an identical search once; the repeats reuse its sounds at 0 credits', async () => {
		await service().setCatalogue({ query: 'reggaeton', total: 70 });
		const run = await search(service(), {
			parameters: { platform: 'photosocial', query: '={{ $json.keyword }}', returnAll: true },
			input: [{ keyword: 'reggaeton' }, { keyword: 'techno' }, { keyword: 'reggaeton' }],
		});

		const forItem = (item: number) =>
			run.items.filter(({ pairedItem }) => (pairedItem as { item: number }).item === item);
		expect(forItem(0)).toHaveLength(70);
		expect(forItem(2).map(({ json }) => json.soundId)).toEqual(
			forItem(0).map(({ json }) => json.soundId),
		);
		expect(forItem(0).every(({ json }) => json.creditsCharged === 2)).toBe(true);
		expect(forItem(2).every(({ json }) => json.creditsCharged === 0)).toBe(true);
		const calls = await requestsSeen(service());
		expect(calls.filter((call) => call.q === 'reggaeton')).toHaveLength(2);
		expect(calls.reduce((sum, call) => sum + call.creditsCharged, 0)).toBe(2 * calls.length);
	});

	it('a failed shared search fails each repeat as its own item', async () => {
		const run = await search(service(), {
			parameters: { platform: 'shortvideo', query: '={{ $json.keyword }}', limit: 2 },
			input: [{ keyword: 'private sound' }, { keyword: 'private sound' }],
			nodeSettings: { onError: 'continueRegularOutput' },
		});

		expect(run.items.map(({ json, pairedItem }) => [json.error, pairedItem])).toEqual([
			['The service answered available: false with status "private"', { item: 0 }],
			['The service answered available: false with status "private"', { item: 1 }],
		]);
		expect(await requestsSeen(service())).toHaveLength(1);
	});
});

describe('bad input is refused before any request', () => {
	it.each([
		['a whitespace query', { query: '   ' }, /"Query" parameter is empty \[item 0\]/],
		[
			'a limit of 0',
			{ query: 'lofi', limit: 0 },
			/"Limit" parameter must be a whole number.*but it is number 0 \[item 0\]/,
		],
		['a negative limit', { query: 'lofi', limit: -5 }, /"Limit".*number -5 \[item 0\]/],
		['a fractional limit', { query: 'lofi', limit: 2.5 }, /"Limit".*number 2.5 \[item 0\]/],
		['an absurd limit', { query: 'lofi', limit: 1e9 }, /"Limit".*from 1 to 100000/],
		[
			'a query that is not text',
			{ query: '={{ 42 }}' },
			/"Query" parameter must be text.*number 42 \[item 0\]/,
		],
		[
			'a start cursor with spaces',
			{ query: 'lofi', options: { startCursor: 'not a cursor' } },
			/"Start Cursor" option is not a valid cursor/,
		],
		[
			'a start cursor too long to be one',
			{ query: 'lofi', options: { startCursor: 'c'.repeat(2049) } },
			/"Start Cursor" option is not a valid cursor/,
		],
		[
			'a page size of 0',
			{ query: 'lofi', options: { pageSize: 0 } },
			/"Page Size" parameter must be a whole number from 1 to 100/,
		],
		[
			'max pages of 0',
			{ query: 'lofi', options: { maxPages: 0 } },
			/"Max Pages" parameter must be a whole number from 1 to 10000/,
		],
		[
			'too many retries',
			{ query: 'lofi', options: { maxRetries: 9 } },
			/"Retries per Page" parameter must be a whole number from 0 to 5/,
		],
		[
			'a timeout below a second',
			{ query: 'lofi', options: { timeoutMs: 10 } },
			/"Timeout" parameter must be a whole number from 1000 to 300000/,
		],
		[
			'an unknown platform',
			{ query: 'lofi', platform: '={{ "radio" }}' },
			/"Platform" parameter is not a known platform: "radio"/,
		],
	])('%s', async (_case, parameters, message) => {
		const run = await search(service(), {
			parameters: { platform: 'shortvideo', limit: 5, ...parameters },
		});

		expect(run.items).toHaveLength(0);
		expect(run.error?.message).toMatch(message);
		expect(run.error?.description).toMatch(/No request was sent and no credits were spent/);
		expect(await requestsSeen(service())).toHaveLength(0);
	});

	it('leaves a literally empty query to n8n, which refuses the workflow before it runs', async () => {
		const run = await search(service(), { parameters: { platform: 'shortvideo', query: '' } });

		expect(run.error?.message).toMatch(/Parameter "Query" is required/);
		expect(await requestsSeen(service())).toHaveLength(0);
	});

	it('names the item whose query is empty and searches none of the others', async () => {
		const run = await search(service(), {
			parameters: fromColumns,
			input: [
				{ keyword: 'lofi', platform: 'shortvideo' },
				{ keyword: 'jazz', platform: 'photosocial' },
				{ keyword: ' ', platform: 'shortvideo' },
			],
		});

		expect(run.error?.message).toBe('The "Query" parameter is empty [item 2]');
		expect(run.error?.context?.itemIndex).toBe(2);
		expect(await requestsSeen(service())).toHaveLength(0);
	});

	it('with "Continue (regular output)", searches the good items and reports the bad one', async () => {
		const run = await search(service(), {
			parameters: fromColumns,
			input: [
				{ keyword: 'lofi', platform: 'shortvideo' },
				{ keyword: '', platform: 'shortvideo' },
			],
			nodeSettings: { onError: 'continueRegularOutput' },
		});

		expect(run.error).toBeUndefined();
		expect(run.items.filter(({ json }) => json.soundId)).toHaveLength(3);
		const failed = run.items.filter(({ json }) => json.error);
		expect(failed).toHaveLength(1);
		expect(failed[0].json.error).toMatch(/"Query" parameter is empty \[item 1\]/);
		expect((await requestsSeen(service())).map((call) => call.q)).toEqual(['lofi']);
	});
});
