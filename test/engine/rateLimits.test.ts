import type { INodeParameters } from 'n8n-workflow';
import {
	BY_KEYWORD,
	itemOf,
	keywordItems,
	numberedKeywords,
	useReferenceService,
	type LedgerRequest,
	type SearchExtras,
} from '../harness/engine/searchFixture';

// Keyword lists against quotas per window (the reference service's quota mode), which the node
// reads from the service's refusals or headers. Small quotas and windows keep runs short. A list
// starts at once: first contact costs one burst of refused (free) calls, and a later run against
// the same service starts at the pace the first one found.

jest.setTimeout(60_000);

const { service, search, calls } = useReferenceService();

async function searchKeywords(
	keywords: Array<{ keyword: string }>,
	options: INodeParameters = {},
	extras: Omit<SearchExtras, 'input'> & { requestOptions?: INodeParameters } = {},
) {
	const { requestOptions, ...rest } = extras;
	const parameters = {
		...BY_KEYWORD,
		limit: 2,
		options,
		...(requestOptions && { requestOptions }),
	};
	return await search(parameters, { ...rest, input: keywords });
}

const paidQueries = (requests: LedgerRequest[]) =>
	requests.filter((call) => call.status === 200).map((call) => call.q);

/** Every keyword's two sounds, each keyword paid for exactly once. */
async function expectEverySoundOnce(
	run: Awaited<ReturnType<typeof searchKeywords>>,
	count: number,
) {
	expect(run.error).toBeUndefined();
	expect(run.items.map(itemOf)).toEqual(
		numberedKeywords(count).flatMap((_, index) => [index, index]),
	);
	expect(paidQueries(await calls()).sort()).toEqual(numberedKeywords(count).sort());
	expect((await service().ledger()).totals.creditsCharged).toBe(count);
}

describe('a quota per window the node does not know', () => {
	/** Runs the list twice on a fresh service set by `set`: first contact, then a later run. */
	async function firstAndLater(count: number, set: () => Promise<unknown>) {
		const refusals: number[] = [];
		for (let run = 0; run < 2; run += 1) {
			await service().reset();
			await set();
			await expectEverySoundOnce(
				await searchKeywords(keywordItems(...numberedKeywords(count))),
				count,
			);
			const { quota, capacity } = await service().ledger();
			refusals.push(quota.refused + capacity.rateLimited);
		}
		return refusals;
	}

	// The limiter's rules and how near a quota it gets are the unit model's (limiterService.test.ts);
	// here, that in n8n a list gets every sound once at exact credits, and that what the first run
	// learnt carries over to a later execution in the same process.
	it('per second (20/s): every sound, exact credits; a later run refuses a few, not a burst', async () => {
		const [first, later] = await firstAndLater(100, async () => {
			await service().setQuota({ limit: 20, windowMs: 1000 });
			await service().setCapacity({ latencyMs: 20 });
		});
		// The burst the list sent at once had 80 over the quota. The later run paces to what the
		// first read; a loaded machine sends some calls late, and one window's may be refused.
		expect(first).toBeGreaterThanOrEqual(80);
		expect(later).toBeLessThanOrEqual(20);
	});

	it('per window of seconds (15 per 3 s, as a per-minute quota): the later run paces to it', async () => {
		const [first, later] = await firstAndLater(45, async () => {
			await service().setQuota({ limit: 15, windowMs: 3000 });
		});
		expect(first).toBeGreaterThanOrEqual(30);
		expect(later).toBeLessThanOrEqual(15);
	});

	it('a quota in headers: the later run paces to it', async () => {
		const [first, later] = await firstAndLater(60, async () => {
			await service().setQuota({ limit: 20, windowMs: 1000, headers: true });
		});
		expect(first).toBeGreaterThanOrEqual(40);
		expect(later).toBeLessThanOrEqual(20);
	});
});

describe('Max Wait on Rate Limits bounds time without progress', () => {
	it('a list whose waits add up past it completes while it moves at the quota', async () => {
		await service().setQuota({ limit: 5, windowMs: 1000 });
		// 30 keywords at 5 a second: about 6 s, most of it waiting, against 2 s without progress.
		const run = await searchKeywords(keywordItems(...numberedKeywords(30)), { rateLimitWait: 2 });

		await expectEverySoundOnce(run, 30);
	});

	it('a service refusing everything ends the run within it, with the rate-limit error', async () => {
		await service().injectFaults([
			{ times: 'always', response: { status: 429, headers: { 'Retry-After': '1' } } },
		]);
		const started = Date.now();
		const run = await searchKeywords(keywordItems(...numberedKeywords(5)), { rateLimitWait: 3 });

		expect(run.error?.message).toBe(
			'The service is rate limiting this API key (429 Too Many Requests)',
		);
		expect(run.error?.description).toMatch(
			/No call of this run went through for its Max Wait on Rate Limits \(3 s\); 0 of 5/,
		);
		expect(Date.now() - started).toBeLessThan(3000 + 1500);
		expect((await service().ledger()).totals.creditsCharged).toBe(0);
	});
});

describe("n8n's Request Options → Batching", () => {
	const batching = { batching: { batch: { batchSize: 50, batchInterval: 1000 } } };
	const withEmptyAt = (index: number, count: number) =>
		keywordItems(...numberedKeywords(count)).map((item, at) =>
			at === index ? { keyword: '' } : item,
		);

	it('a bad item late in the list fails the run before any call, whatever the batches', async () => {
		const run = await searchKeywords(withEmptyAt(60, 80), {}, { requestOptions: batching });

		// The first item reads them all, so n8n reports the error on it; the message names item 60.
		expect(run.error?.message).toBe('The "Query" parameter is empty [item 60]');
		expect(run.error?.description).toMatch(/No request was sent and no credits were spent/);
		expect(await calls()).toEqual([]);
	});

	it('a good list still runs in its batches, every sound paid once', async () => {
		const run = await searchKeywords(
			keywordItems(...numberedKeywords(6)),
			{},
			{ requestOptions: { batching: { batch: { batchSize: 4, batchInterval: 300 } } } },
		);

		await expectEverySoundOnce(run, 6);
	});
});
