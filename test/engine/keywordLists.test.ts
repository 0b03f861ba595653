import { sleep } from 'n8n-workflow';
import {
	BY_KEYWORD,
	itemOf,
	numberedKeywords,
	useReferenceService,
	type LedgerRequest,
} from '../harness/engine/searchFixture';

// Keyword lists at the scale and limits of a real service: every input item and page of a run
// through its service's limiter, against the reference service's capacity mode. The limiter's
// rules: test/unit/limiter.test.ts and limiterService.test.ts.

jest.setTimeout(60_000);

const { service, search, searchKeywords, calls } = useReferenceService();

const keepGoing = { nodeSettings: { onError: 'continueRegularOutput' as const } };
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
		const run = await searchKeywords(100);

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

	it('never has more calls in flight than Max Calls in Flight, pages included', async () => {
		await service().setCapacity({ latencyMs: 50 });
		const options = { maxInFlight: 8, pageSize: 10 };
		const run = await search(
			{ ...BY_KEYWORD, limit: 30, options },
			{ input: numberedKeywords(40).map((keyword) => ({ keyword })) },
		);

		expect(run.items).toHaveLength(40 * 30);
		expect(await calls()).toHaveLength(40 * 3);
		expect((await service().ledger()).capacity.mostInFlight).toBe(8);
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

	it('a 402 in the start burst: at most 2 paid calls reach the service after it is answered', async () => {
		// Capped at 8, the 402 call is among those the service takes from the burst. It is answered
		// 250 ms before the rest, so a burst call n8n sent before reading it that arrives late finds
		// at most the 402's place free; the retries of a run that went on would be taken and paid.
		await service().setCapacity({ capacity: 8, latencyMs: 300 });
		const answerMs = 50;
		await service().injectFaults([
			{ match: { query: 'kw5' }, times: 'always', response: { status: 402, delayMs: answerMs } },
		]);
		const run = await searchKeywords(46);

		expect(run.error?.message).toBe('The API key has no credits left (402 Payment Required)');
		// Past the burst's Retry-After (1 s): a refused call tried again would have arrived by now.
		await sleep(1500);
		const requests = await calls();
		const answeredAt = Date.parse(requests.filter((call) => call.status === 402)[0].at) + answerMs;
		const sentAfter = requests.filter((call) => Date.parse(call.at) > answeredAt);
		expect(paid(sentAfter).length).toBeLessThanOrEqual(2);
	});

	it('a retry waiting on a rate limit is dropped, not sent', async () => {
		await service().injectFaults([
			{ match: { query: 'kw0' }, response: { status: 429, headers: { 'Retry-After': '2' } } },
			{ match: { query: 'kw1' }, response: { status: 402, delayMs: 300 } },
		]);
		const run = await searchKeywords(3);

		expect(run.error?.message).toMatch(/402/);
		await sleep(2500);
		expect(queriesOf(await calls()).sort()).toEqual(['kw0', 'kw1', 'kw2']);
	});

	it('a call queued at the gate a 429 shut is dropped: the run fails with its 402 at once, not after the Retry-After', async () => {
		await service().injectFaults([
			{ match: { query: 'kw0' }, response: { status: 429, headers: { 'Retry-After': '10' } } },
			{ match: { query: 'kw1' }, response: { status: 402, delayMs: 300 } },
		]);
		const started = Date.now();
		// Two at a time: kw2 waits for the limiter's gate, which kw0's refusal shuts for 10 s.
		const run = await searchKeywords(3, { maxInFlight: 2, rateLimitWait: 30 });

		expect(run.error?.message).toMatch(/402/);
		expect(Date.now() - started).toBeLessThan(5000);
		expect(queriesOf(await calls()).sort()).toEqual(['kw0', 'kw1']);
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

	// The limiter's queue drops a cancelled run's calls: test/unit/limiter.test.ts.
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
});

it('"Continue (regular output)" with a keyword list: every search that succeeded keeps its sounds; each failure is one error item, paired, in input order', async () => {
	await service().setCapacity({ latencyMs: 50 });
	await service().injectFaults([
		{ match: { query: 'kw7' }, times: 'always', response: { status: 402 } },
	]);
	await service().setCatalogue({ query: 'kw30', availabilityStatus: 'private' });
	const run = await searchKeywords(40, { maxInFlight: 16 }, keepGoing);

	const expected = numberedKeywords(40).flatMap((_, index) =>
		index === 7 || index === 30
			? [[index, expect.stringMatching(/^error: /)]]
			: [
					[index, expect.any(String)],
					[index, expect.any(String)],
				],
	);
	expect(outputByItem(run.items)).toEqual(expected);
	expect(run.items.find((item) => itemOf(item) === 30)?.json).toEqual({
		error: 'The service answered available: false with status "private"',
		details: expect.stringMatching(/charged 1 credit/),
	});
	expect(paid(await calls())).toHaveLength(39);
	expect((await service().ledger()).totals.creditsCharged).toBe(39);
});
