import { sleep, type INodeParameters } from 'n8n-workflow';
import {
	requestsSeen,
	search,
	useReferenceService,
	type LedgerRequest,
	type ReferenceService,
} from '../harness/searchFixture';

// Keyword lists at the scale and limits of a real service: one scheduler per node run, shared
// by every input item and page, against the reference service's capacity mode.

jest.setTimeout(60_000);

const { service } = useReferenceService();

const keywords = (count: number) =>
	Array.from({ length: count }, (_, index) => ({ keyword: `kw${index}` }));

async function capacityReport(svc: ReferenceService) {
	return (await svc.ledger()).capacity;
}

async function searchKeywords(
	count: number,
	options: INodeParameters,
	extra: { limit?: number; nodeSettings?: object; cancelAfterMs?: number } = {},
) {
	return await search(service(), {
		parameters: {
			platform: 'shortvideo',
			query: '={{ $json.keyword }}',
			limit: extra.limit ?? 2,
			options,
		},
		input: keywords(count),
		nodeSettings: extra.nodeSettings,
		cancelAfterMs: extra.cancelAfterMs,
	});
}

const paid = (requests: LedgerRequest[]) => requests.filter((call) => call.status === 200);
const queriesOf = (requests: LedgerRequest[]) => requests.map((call) => call.q);

/** For each input item, in output order: its index, and the soundIds or error it yielded. */
function outputByItem(items: { json: Record<string, unknown>; pairedItem?: unknown }[]) {
	return items.map(({ json, pairedItem }) => [
		(pairedItem as { item: number }).item,
		json.error ? `error: ${String(json.error)}` : json.soundId,
	]);
}

describe('a service with a limit the node does not know', () => {
	it('300 keywords against 4 calls in flight: every sound, exact credits, no call twice', async () => {
		await service().setCapacity({ capacity: 4, latencyMs: 20 });
		const run = await searchKeywords(300, {});

		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(600);
		const itemOrder = run.items.map(({ pairedItem }) => (pairedItem as { item: number }).item);
		expect(itemOrder).toEqual(keywords(300).flatMap((_, index) => [index, index]));
		const requests = await requestsSeen(service());
		expect(queriesOf(paid(requests)).sort()).toEqual(
			keywords(300)
				.map((k) => k.keyword)
				.sort(),
		);
		expect(run.items.every(({ json }) => json.creditsCharged === 1)).toBe(true);
		const refused = requests.filter((call) => call.status === 429);
		expect(refused.every((call) => call.creditsCharged === 0)).toBe(true);
		expect((await service().ledger()).totals.creditsCharged).toBe(300);
		// The run lowered its calls in flight: one wave of refusals at the start (it starts at
		// 96), then only a few probes, not a refusal for most calls.
		const { rateLimited, mostInFlight } = await capacityReport(service());
		expect(rateLimited).toBe(refused.length);
		expect(rateLimited).toBeLessThan(120);
		expect(mostInFlight).toBeLessThanOrEqual(96);
	});

	it('never has more calls in flight than Max Calls in Flight', async () => {
		await service().setCapacity({ latencyMs: 50 });
		const run = await searchKeywords(200, { maxInFlight: 8 });

		expect(run.items).toHaveLength(400);
		expect((await capacityReport(service())).mostInFlight).toBe(8);
	});

	it('a Return All keyword list shares the same bound, pages included', async () => {
		await service().setCapacity({ latencyMs: 30 });
		const run = await search(service(), {
			parameters: {
				platform: 'photosocial',
				query: '={{ $json.keyword }}',
				returnAll: true,
				options: { maxInFlight: 3, pageSize: 10 },
			},
			input: ['lofi', 'jazz'].map((keyword) => ({ keyword })),
			// lofi has 10,000 matches: cap it with Max Pages, the guard, as an error.
			nodeSettings: { onError: 'continueRegularOutput' },
		});

		expect(run.items.length).toBeGreaterThan(0);
		expect((await capacityReport(service())).mostInFlight).toBeLessThanOrEqual(3);
	});

	it('stops after Max Wait on Rate Limits, saying how many searches finished', async () => {
		await service().injectFaults([
			{
				match: { query: 'kw1' },
				times: 'always',
				response: { status: 429, headers: { 'Retry-After': '1' } },
			},
		]);
		const run = await searchKeywords(
			3,
			{ rateLimitWait: 2 },
			{
				nodeSettings: { onError: 'continueRegularOutput' },
			},
		);

		expect(outputByItem(run.items)).toEqual([
			[0, expect.any(String)],
			[0, expect.any(String)],
			[1, 'error: The service is rate limiting this API key (429 Too Many Requests)'],
			[2, expect.any(String)],
			[2, expect.any(String)],
		]);
		expect(run.items[2].json.details).toMatch(
			/tried [23] times.*Max Wait on Rate Limits \(2 s\) with 2 of 3 searches finished/,
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
		expect(queriesOf(await requestsSeen(service())).sort()).toEqual([
			'kw0',
			'kw1',
			'kw2',
			'kw3',
			'kw4',
			'kw5',
		]);
	});

	it('a retry waiting on a rate limit is dropped, not sent', async () => {
		await service().injectFaults([
			{ match: { query: 'kw0' }, response: { status: 429, headers: { 'Retry-After': '2' } } },
			{ match: { query: 'kw1' }, response: { status: 402, delayMs: 300 } },
		]);
		const run = await searchKeywords(3, {});

		expect(run.error?.message).toMatch(/402/);
		await sleep(2500);
		expect(queriesOf(await requestsSeen(service())).sort()).toEqual(['kw0', 'kw1', 'kw2']);
	});

	it('a cancelled execution stops the scheduler at once', async () => {
		await service().setCapacity({ latencyMs: 200 });
		const run = await searchKeywords(100, { maxInFlight: 4 }, { cancelAfterMs: 500 });

		expect(run.run.status).toBe('canceled');
		await sleep(300);
		const atCancel = (await requestsSeen(service())).length;
		await sleep(1000);
		expect((await requestsSeen(service())).length).toBe(atCancel);
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
		const run = await searchKeywords(
			120,
			{ maxInFlight: 16 },
			{
				nodeSettings: { onError: 'continueRegularOutput' },
			},
		);

		const expected = keywords(120).flatMap((_, index) =>
			index === 7 || index === 50
				? [[index, expect.stringMatching(/^error: /)]]
				: [
						[index, expect.any(String)],
						[index, expect.any(String)],
					],
		);
		expect(outputByItem(run.items)).toEqual(expected);
		const requests = await requestsSeen(service());
		expect(paid(requests)).toHaveLength(119);
		expect((await service().ledger()).totals.creditsCharged).toBe(119);
	});
});
