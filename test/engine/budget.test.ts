import { sleep } from 'n8n-workflow';
import { triggersOn } from '../harness/engine/trigger';
import {
	BY_KEYWORD,
	fetchDirect,
	itemOf,
	keywordItems,
	numberedKeywords,
	useReferenceService,
} from '../harness/engine/searchFixture';

const { service, search, calls } = useReferenceService();

/** Credits the service charged, by its own ledger. */
const charged = async () => (await calls()).reduce((sum, call) => sum + call.creditsCharged, 0);
const KEYWORDS = ['rain', 'piano', 'jazz', 'birds', 'waves'];

describe('Max Credits: a run never spends past it', () => {
	it.each([
		['shortvideo', 1, 5, 5],
		['photosocial', 2, 5, 4],
	])(
		'%s (%i credit(s) a call), Max Credits %i: a Return All search stops after %i credits',
		async (platform, price, maxCredits, spent) => {
			const run = await search({
				platform,
				query: 'lofi',
				returnAll: true,
				options: { maxCredits, pageSize: 10 },
			});

			expect(run.items).toHaveLength(0);
			expect(run.error?.message).toBe(
				`This run reached its Max Credits (${maxCredits}) with 0 of 1 searches finished and ${spent} credits spent [item 0]`,
			);
			expect(run.error?.description).toMatch(
				new RegExp(`^The run made ${spent / price} calls, and started none .* Raise Max Credits`),
			);
			expect(await calls()).toHaveLength(spent / price);
			expect(await charged()).toBe(spent);
		},
	);

	it('counts every call in flight at its price: many items at once never start more than the budget', async () => {
		await service().setCapacity({ latencyMs: 300 });
		const run = await search(
			{ ...BY_KEYWORD, limit: 1, options: { maxCredits: 3 } },
			{ input: keywordItems(...KEYWORDS, 'cello', 'drums', 'flute') },
		);

		expect(run.error?.message).toMatch(/^This run reached its Max Credits \(3\)/);
		expect(await calls()).toHaveLength(3);
		expect(await charged()).toBe(3);
		// All three were in flight together: the others were held back, not run one by one.
		expect((await service().ledger()).capacity.mostInFlight).toBe(3);
	});

	it('a free answer from the service cache gives its reserved credits back; the error counts the free calls', async () => {
		// Three of the five searches were made moments ago: the service answers them for 0 credits.
		for (const q of KEYWORDS.slice(0, 3))
			await fetchDirect(service(), 'shortvideo', { q, limit: 1 });
		const before = (await calls()).length;

		const run = await search(
			{ ...BY_KEYWORD, limit: 1, options: { maxCredits: 1 } },
			{ input: keywordItems(...KEYWORDS), nodeSettings: { onError: 'continueRegularOutput' } },
		);

		expect(run.error).toBeUndefined();
		expect(run.items.map(({ json }) => json.creditsCharged ?? json.error)).toEqual([
			...[0, 0, 0, 1],
			'This run reached its Max Credits (1) with 4 of 5 searches finished and 1 credits spent [item 4]',
		]);
		expect(run.items.map(itemOf)).toEqual([0, 1, 2, 3, 4]);
		// With Continue (regular output), the error item carries its query, to feed back into a search.
		expect(run.items[4].json).toMatchObject({ query: 'waves', platform: 'shortvideo' });
		expect(run.items[4].json.details).toMatch(
			/^The run made 4 calls, 3 of them free \(cached or refused\)/,
		);
		expect((await calls()).slice(before).map((call) => call.creditsCharged)).toEqual([0, 0, 0, 1]);
	});

	it('an answer that is not a page counts at what it was charged: a free one gives its credits back', async () => {
		const notAvailable = { success: true, available: false, availabilityStatus: 'private' };
		await service().injectFaults([
			{
				match: { query: 'rain' },
				response: { status: 200, creditsCharged: 0, body: notAvailable },
			},
		]);
		const run = await search(
			{ ...BY_KEYWORD, limit: 1, options: { maxCredits: 1 } },
			{ input: keywordItems('rain', 'piano'), nodeSettings: { onError: 'continueRegularOutput' } },
		);

		expect(run.error).toBeUndefined();
		expect(run.items.map(({ json }) => json.error ?? json.soundId !== undefined)).toEqual([
			'The service answered available: false with status "private"',
			true,
		]);
		expect(await charged()).toBe(1);
	});

	// A repeat of a keyword makes no call, so reserves nothing: input.test.ts.
	it('with Continue (using error output), the others go to the error output with their input fields', async () => {
		const run = await search(
			{ ...BY_KEYWORD, limit: 1, options: { maxCredits: 3 } },
			{ input: keywordItems(...KEYWORDS), nodeSettings: { onError: 'continueErrorOutput' } },
		);

		expect(run.error).toBeUndefined();
		expect(run.items.map(itemOf)).toEqual([0, 1, 2]);
		// Paired, with only error and details: n8n adds the input item's fields to them.
		expect(run.errorItems.map(itemOf)).toEqual([3, 4]);
		expect(run.errorItems.map(({ json }) => Object.keys(json))).toEqual([
			['error', 'details'],
			['error', 'details'],
		]);
		expect(run.errorItems[0].json.error).toMatch(/^This run reached its Max Credits \(3\)/);
		expect(await charged()).toBe(3);
	});

	it('rate-limited calls (429, 0 credits) give their reservation back and are retried within it', async () => {
		await service().setCapacity({ capacity: 1, latencyMs: 50 });
		const run = await search(
			{ ...BY_KEYWORD, limit: 1, options: { maxCredits: 3 } },
			{ input: keywordItems('rain', 'piano', 'jazz') },
		);

		expect(run.error).toBeUndefined();
		expect(run.items.map(itemOf)).toEqual([0, 1, 2]);
		expect((await service().ledger()).capacity.rateLimited).toBeGreaterThan(0);
		expect(await charged()).toBe(3);
	});

	it('a call waiting for the budget is not sent once the execution is cancelled', async () => {
		// "rain" is cached: its free answer would let "piano" start, but the run is cancelled before.
		await fetchDirect(service(), 'shortvideo', { q: 'rain', limit: 1 });
		await service().setCapacity({ latencyMs: 600 });
		const before = (await calls()).length;
		const run = await search(
			{ ...BY_KEYWORD, limit: 1, options: { maxCredits: 1 } },
			{ input: keywordItems('rain', 'piano'), cancelAfterMs: 200 },
		);

		expect(run.run.status).toBe('canceled');
		await sleep(1000);
		// n8n aborts the call in flight too; "piano" never reaches the service.
		expect((await calls()).slice(before).filter((call) => call.q === 'piano')).toEqual([]);
	});

	// More than 100: the option's value once added, which a run without it must not take.
	it('left out, a run has no cap', async () => {
		await service().setCatalogue({ query: 'cello', total: 60 });
		const run = await search(
			{ ...BY_KEYWORD, platform: 'photosocial', returnAll: true, options: { pageSize: 1 } },
			{ input: keywordItems('cello') },
		);

		expect(run.error).toBeUndefined();
		expect(await charged()).toBe(120);
	});
});

describe('Max Credits of the trigger, per poll', () => {
	it('left out, a poll has no cap', async () => {
		const keywords = numberedKeywords(3);
		for (const query of keywords) await service().setCatalogue({ query, total: 1000 });
		const trigger = triggersOn(service)({
			...{ platform: 'photosocial', keywords: keywords.join(', '), limit: 1000 },
			options: { maxPages: 20 },
		});

		expect((await trigger.poll()).error).toBeUndefined();
		expect(await charged()).toBe(120);
	});

	it('a poll stops before its calls could pass it, and the next poll has its own budget', async () => {
		const trigger = triggersOn(service)({
			...{ keywords: KEYWORDS.join(', '), limit: 5 },
			options: { maxCredits: 3 },
		});

		const first = await trigger.poll();
		expect(first.error?.message).toMatch(
			/^This poll reached its Max Credits \(3\) with \d of 5 searches finished and 3 credits spent/,
		);
		expect(await charged()).toBe(3);
		await service().reset();

		const second = await trigger.poll();
		expect(second.error?.message).toMatch(/^This poll reached its Max Credits \(3\)/);
		expect(await charged()).toBe(3);
	});
});
