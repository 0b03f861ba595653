import { sleep, type INodeParameters } from 'n8n-workflow';
import {
	BY_KEYWORD,
	itemOf,
	keywordItems,
	numberedKeywords,
	useReferenceService,
	type LedgerRequest,
	type SearchExtras,
} from '../harness/engine/searchFixture';

// Keyword lists at the scale and limits of a real service: every input item and page of a run
// through its service's limiter, against the reference service's capacity mode.

jest.setTimeout(60_000);

const { service, search, calls } = useReferenceService();

const capacityReport = async () => (await service().ledger()).capacity;
const keepGoing = { nodeSettings: { onError: 'continueRegularOutput' as const } };

async function searchKeywords(
	count: number,
	options: INodeParameters,
	extras: Omit<SearchExtras, 'input'> = {},
) {
	const parameters = { ...BY_KEYWORD, limit: 2, options };
	return await search(parameters, { ...extras, input: keywordItems(...numberedKeywords(count)) });
}

const paid = (requests: LedgerRequest[]) => requests.filter((call) => call.status === 200);
const queriesOf = (requests: LedgerRequest[]) => requests.map((call) => call.q);

/** For each input item, in output order: its index, and the soundIds or error it yielded. */
function outputByItem(items: { json: Record<string, unknown>; pairedItem?: unknown }[]) {
	return items.map((item) => [
		itemOf(item),
		item.json.error ? `error: ${String(item.json.error)}` : item.json.soundId,
	]);
}

describe('a service with a limit the node does not know', () => {
	it('100 keywords against 10 calls in flight: every sound, exact credits, no call twice', async () => {
		await service().setCapacity({ capacity: 10, latencyMs: 300 });
		const run = await searchKeywords(100, {});

		expect(run.error).toBeUndefined();
		expect(run.items.map(itemOf)).toEqual(
			numberedKeywords(100).flatMap((_, index) => [index, index]),
		);
		const requests = await calls();
		expect(queriesOf(paid(requests)).sort()).toEqual(numberedKeywords(100).sort());
		expect(run.items.every(({ json }) => json.creditsCharged === 1)).toBe(true);
		const refused = requests.filter((call) => call.status === 429);
		expect(refused.every((call) => call.creditsCharged === 0)).toBe(true);
		expect((await service().ledger()).totals.creditsCharged).toBe(100);
		// The start burst (it starts at Max Calls in Flight, 200) and AIMD's tries above the limit;
		// a run that never lowered its calls in flight would have about 90 refused a second.
		expect(refused.length).toBeGreaterThanOrEqual(90);
		expect(refused.length).toBeLessThan(300);
	});

	it('never has more calls in flight than Max Calls in Flight', async () => {
		await service().setCapacity({ latencyMs: 50 });
		const run = await searchKeywords(200, { maxInFlight: 8 });

		expect(run.items).toHaveLength(400);
		expect((await capacityReport()).mostInFlight).toBe(8);
	});

	it('a Return All keyword list shares the same bound, pages included', async () => {
		await service().setCapacity({ latencyMs: 30 });
		const run = await search(
			{
				platform: 'photosocial',
				...BY_KEYWORD,
				returnAll: true,
				options: { maxInFlight: 3, pageSize: 10 },
			},
			// lofi has 10,000 matches: Max Pages, the guard, ends it as an error item.
			{ ...keepGoing, input: keywordItems('lofi', 'jazz') },
		);

		expect(run.items.length).toBeGreaterThan(0);
		expect((await capacityReport()).mostInFlight).toBeLessThanOrEqual(3);
	});

	it('stops after Max Wait on Rate Limits, saying how many searches finished', async () => {
		await service().injectFaults([
			{
				match: { query: 'kw1' },
				times: 'always',
				response: { status: 429, headers: { 'Retry-After': '1' } },
			},
		]);
		const run = await searchKeywords(3, { rateLimitWait: 2 }, keepGoing);

		expect(outputByItem(run.items)).toEqual([
			[0, expect.any(String)],
			[0, expect.any(String)],
			[1, 'error: The service is rate limiting this API key (429 Too Many Requests)'],
			[2, expect.any(String)],
			[2, expect.any(String)],
		]);
		expect(run.items[2].json.details).toMatch(
			/tried [23] times.*Max Wait on Rate Limits \(2 s\); 2 of 3 searches finished/,
		);
	});
});

describe('no paid call once the run is doomed', () => {
	it('a 402 on one item: calls in flight finish, no new call starts, the run fails with it', async () => {
		await service().setCapacity({ latencyMs: 200 });
		await service().injectFaults([
			{ match: { query: 'kw5' }, times: 'always', response: { status: 402 } },
		]);
		const run = await searchKeywords(40, { maxInFlight: 2 });

		expect(run.error?.message).toBe('The API key has no credits left (402 Payment Required)');
		expect(run.error?.context?.itemIndex).toBe(5);
		// Two at a time: kw4 was in flight when kw5 was refused; nothing after it started.
		expect(queriesOf(await calls()).sort()).toEqual(['kw0', 'kw1', 'kw2', 'kw3', 'kw4', 'kw5']);
	});

	it('a 402 in the start burst: at most 2 paid calls reach the service after it', async () => {
		await service().setCapacity({ capacity: 4, latencyMs: 100 });
		await service().injectFaults([
			{ match: { query: 'kw5' }, times: 'always', response: { status: 402 } },
		]);
		const run = await searchKeywords(46, {});

		expect(run.error?.message).toBe('The API key has no credits left (402 Payment Required)');
		const requests = await calls();
		const doomedAt = requests.findIndex((call) => call.status === 402);
		expect(paid(requests.slice(doomedAt + 1)).length).toBeLessThanOrEqual(2);
	});

	it('a retry waiting on a rate limit is dropped, not sent', async () => {
		await service().injectFaults([
			{ match: { query: 'kw0' }, response: { status: 429, headers: { 'Retry-After': '2' } } },
			{ match: { query: 'kw1' }, response: { status: 402, delayMs: 300 } },
		]);
		const run = await searchKeywords(3, {});

		expect(run.error?.message).toMatch(/402/);
		await sleep(2500);
		expect(queriesOf(await calls()).sort()).toEqual(['kw0', 'kw1', 'kw2']);
	});

	it('a call in flight that fails after the first failure does not replace its error', async () => {
		await service().injectFaults([
			{ match: { query: 'kw0' }, response: { status: 403, delayMs: 400 } },
			{ match: { query: 'kw1' }, response: { status: 402 } },
		]);
		const run = await searchKeywords(4, { maxInFlight: 2 });

		// kw0 was in flight when kw1 failed: it is stood down, and the run fails with kw1's 402.
		expect(run.error?.message).toBe('The API key has no credits left (402 Payment Required)');
		expect(run.error?.context?.itemIndex).toBe(1);
		expect(queriesOf(await calls()).sort()).toEqual(['kw0', 'kw1']);
	});

	it('a cancelled execution ends a retry waiting on its backoff at once, and it is not sent', async () => {
		await service().injectFaults([
			{ times: 'always', response: { status: 503, headers: { 'Retry-After': '10' } } },
		]);
		const started = Date.now();
		const run = await searchKeywords(1, { maxRetries: 3 }, { cancelAfterMs: 500 });

		expect(run.run.status).toBe('canceled');
		expect(Date.now() - started).toBeLessThan(5000);
		expect(await calls()).toHaveLength(1);
	});

	it('a cancelled execution stops its calls at once', async () => {
		await service().setCapacity({ latencyMs: 200 });
		const run = await searchKeywords(100, { maxInFlight: 4 }, { cancelAfterMs: 500 });

		expect(run.run.status).toBe('canceled');
		await sleep(300);
		const atCancel = (await calls()).length;
		await sleep(1000);
		expect((await calls()).length).toBe(atCancel);
		expect(atCancel).toBeLessThanOrEqual(16);
	});
});

describe('Continue On Fail with a keyword list', () => {
	it('every search that succeeded keeps its sounds; failures are error items, in input order', async () => {
		await service().setCapacity({ capacity: 4, latencyMs: 10 });
		await service().injectFaults([
			{ match: { query: 'kw7' }, times: 'always', response: { status: 402 } },
		]);
		await service().setCatalogue({ query: 'kw50', availabilityStatus: 'private' });
		const run = await searchKeywords(120, { maxInFlight: 16 }, keepGoing);

		const expected = numberedKeywords(120).flatMap((_, index) =>
			index === 7 || index === 50
				? [[index, expect.stringMatching(/^error: /)]]
				: [
						[index, expect.any(String)],
						[index, expect.any(String)],
					],
		);
		expect(outputByItem(run.items)).toEqual(expected);
		const requests = await calls();
		expect(paid(requests)).toHaveLength(119);
		expect((await service().ledger()).totals.creditsCharged).toBe(119);
	});
});
