import type { SearchRun } from '../harness/engine/engine';
import {
	BY_KEYWORD,
	itemOf,
	keywordItems,
	numberedKeywords,
	useReferenceService,
} from '../harness/engine/searchFixture';

// Keyword lists against a quota per window (the reference service's quota mode), which the node
// reads from the service's refusals. The limiter's rules and how near a quota it gets are the unit
// model's (test/unit/limiterService.test.ts, headers and per-minute quotas too); here, what meets
// in n8n: every sound once at exact credits, refusals free, and what a run learnt carried to a
// later execution in the same process, and to no other credential.

jest.setTimeout(60_000);

const { service, search, searchKeywords, calls } = useReferenceService();

/** Every keyword's two sounds, each keyword paid for exactly once. */
async function expectEverySoundOnce(run: SearchRun, count: number) {
	expect(run.error).toBeUndefined();
	expect(run.items.map(itemOf)).toEqual(
		numberedKeywords(count).flatMap((_, index) => [index, index]),
	);
	const paid = (await calls()).filter((call) => call.status === 200).map((call) => call.q);
	expect(paid.sort()).toEqual(numberedKeywords(count).sort());
	expect((await service().ledger()).totals.creditsCharged).toBe(count);
}

it('a quota per second (20/s) the node does not know: every sound, exact credits; a later run refuses a few, not a burst', async () => {
	const refusals: number[] = [];
	for (let run = 0; run < 2; run += 1) {
		await service().reset();
		await service().setQuota({ limit: 20, windowMs: 1000 });
		await service().setCapacity({ latencyMs: 20 });
		await expectEverySoundOnce(await searchKeywords(100), 100);
		const { quota, capacity } = await service().ledger();
		refusals.push(quota.refused + capacity.rateLimited);
	}
	// The burst the list sent at once had 80 over the quota. The later run paces to what the
	// first read; a loaded machine sends some calls late, and one window's may be refused.
	expect(refusals[0]).toBeGreaterThanOrEqual(80);
	expect(refusals[1]).toBeLessThanOrEqual(20);
});

it('Max Wait on Rate Limits bounds time without progress: a list whose waits add up past it completes at the quota', async () => {
	await service().setQuota({ limit: 5, windowMs: 1000 });
	// 30 keywords at 5 a second: about 6 s, most of it waiting, against 2 s without progress.
	await expectEverySoundOnce(await searchKeywords(30, { rateLimitWait: 2 }), 30);
});

it('limits are kept per credential: a Retry-After that shuts the gate of one account holds no search of another', async () => {
	await service().injectFaults([
		{ match: { query: 'kw0' }, response: { status: 429, headers: { 'Retry-After': '10' } } },
	]);
	// Its gate shut for 10 s, past Max Wait on Rate Limits: the first account's run gives up.
	expect((await searchKeywords(1, { rateLimitWait: 2 })).error?.message).toMatch(/429/);

	const started = Date.now();
	const otherAccount = { soundSearchApi: { id: 'c2', name: 'Second account' } };
	const run = await search(
		{ ...BY_KEYWORD, limit: 2 },
		{ input: keywordItems('piano'), nodeSettings: { credentials: otherAccount } },
	);
	expect(run.items).toHaveLength(2);
	expect(Date.now() - started).toBeLessThan(5000);
});
