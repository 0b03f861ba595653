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

// Keyword lists against quotas per window (the reference service's quota mode), which the node is
// not told: it reads them from the service's refusals. Small quotas and windows keep runs short.
// A list starts at once: first contact costs one burst of refused (free) calls, and a later run
// against the same service starts at the pace the first one found.

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

	it('per second (20/s): every sound, exact credits; one burst refused at first contact, no burst later', async () => {
		const [first, later] = await firstAndLater(100, async () => {
			await service().setQuota({ limit: 20, windowMs: 1000 });
			await service().setCapacity({ latencyMs: 20 });
		});
		// The burst (80: what the list sent at once had over the quota), one try of twice the quota
		// (20), and what a loaded machine reads late. A wave as each of the five windows turned
		// would be 80 more.
		expect(first).toBeLessThanOrEqual(160);
		// It starts at the quota the first run found: no burst. On a quiet machine 1 or 2 (a try
		// above the quota); a loaded one may send some calls late, and the service refuses what it
		// counts late: fewer than a window's worth.
		expect(later).toBeLessThan(20);
	});

	it('per window of seconds (15 per 3 s, as a per-minute quota): the whole quota, no wave as the window turns', async () => {
		const [first, later] = await firstAndLater(45, async () => {
			await service().setQuota({ limit: 15, windowMs: 3000 });
		});
		expect(first).toBeLessThanOrEqual(45);
		expect(later).toBeLessThan(15);
	});

	it('a quota and a limit on calls in flight together', async () => {
		const [first, later] = await firstAndLater(50, async () => {
			await service().setQuota({ limit: 20, windowMs: 1000 });
			await service().setCapacity({ capacity: 3, latencyMs: 100 });
		});
		expect(first).toBeLessThanOrEqual(60);
		expect(later).toBeLessThanOrEqual(10);
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
