import { sleep } from 'n8n-workflow';
import { RunStopped } from '../../nodes/shared/errors';
import {
	CallScheduler,
	type CallVerdict,
	type SchedulerSettings,
} from '../../nodes/shared/scheduler';

type Call = ReturnType<ReturnType<typeof calls>['start']>;

/** A call the test finishes by hand; `started` counts the calls the scheduler let start. */
function calls(scheduler: CallScheduler) {
	const counts = { started: 0 };
	const start = () => {
		let finish: (value: string) => void = () => {};
		const sent = scheduler.send(async () => {
			counts.started += 1;
			return await new Promise<string>((resolve) => (finish = resolve));
		});
		return { sent, finish: (value: string) => finish(value) };
	};
	return { counts, start };
}

async function settle(call: Call) {
	call.finish('answered');
	return (await call.sent).release;
}

const ok: CallVerdict = { kind: 'ok' };
/** A refused or reset connection: congestion that says nothing of a quota. */
const reset: CallVerdict = { kind: 'congested', waitMs: 0 };
/** A 429 asking to come back in `seconds`, and what its headers state of a quota. */
const tooMany = (seconds: number, stated: { limit?: number; windowMs?: number } = {}) =>
	({
		kind: 'congested',
		waitMs: seconds * 1000,
		hint: { retryAfterMs: seconds * 1000, ...stated },
	}) as CallVerdict;

/** Ends a test: queued calls are dropped (their rejection expected), started ones finished. */
function stopAll(scheduler: CallScheduler, all: Call[]) {
	scheduler.stop(new RunStopped());
	for (const call of all) {
		call.sent.catch(() => undefined);
		call.finish('answered');
	}
}

/** A scheduler and `count` calls queued on it at once; `more` queues others later. */
async function queued(count: number, settings: SchedulerSettings) {
	const scheduler = new CallScheduler(settings);
	const { counts, start } = calls(scheduler);
	const all = Array.from({ length: count }, start);
	await sleep(0);
	const more = async (extra: number) => {
		all.push(...Array.from({ length: extra }, start));
		await sleep(0);
	};
	return { scheduler, counts, all, more };
}

const BUDGET = { rateLimitWaitMs: 10_000 };

describe('CallScheduler: calls in flight', () => {
	it('a wave of refusals read late does not push the limit below what the service served', async () => {
		const { scheduler, counts, all, more } = await queued(8, {
			maxInFlight: 8,
			...BUDGET,
		});
		expect(counts.started).toBe(8);

		// The service served calls 0-3 and refused 4-7. The first refusal read says 4.
		(await settle(all[4]))(reset);
		// Calls 0 and 1 end before the other refusals of the same wave are read.
		(await settle(all[0]))(ok);
		(await settle(all[1]))(ok);
		for (const refused of all.slice(5)) (await settle(refused))(reset);

		// Calls 2 and 3 are still out: a limit of 4 lets two more start (2 would let none).
		await more(3);
		expect(counts.started).toBe(10);
		stopAll(scheduler, all);
	});

	it('a refusal from a new wave lowers the limit to what was served before it', async () => {
		const { scheduler, counts, all } = await queued(8, { maxInFlight: 6, ...BUDGET });
		(await settle(all[3]))(reset);
		await sleep(0);
		// 5 still out, limit 3: nothing more starts.
		expect(counts.started).toBe(6);
		stopAll(scheduler, all);
	});

	it('a refusal read before those of calls ahead of it lowers the bound to what was served', async () => {
		const { scheduler, counts, all } = await queued(12, { maxInFlight: 8, ...BUDGET });
		// The service served calls 0-2 and refused 3-7; n8n reads 5's refusal first (3, 4 ahead).
		for (const index of [5, 3, 6, 4, 7]) (await settle(all[index]))(reset);
		await sleep(0);
		expect(counts.started).toBe(8); // 0-2 still out: a bound of 3 (5 would start two more)
		(await settle(all[0]))(ok);
		await sleep(0);
		expect(counts.started).toBe(9);
		stopAll(scheduler, all);
	});

	it('a wave refused whole, read out of order, leaves the bound where it was', async () => {
		const { scheduler, counts, all } = await queued(16, { maxInFlight: 8, ...BUDGET });
		// Another client used up the quota: all 8 refused; 1 read first, with 0 ahead of it.
		for (const index of [1, 0, 3, 2, 4, 5, 6, 7]) (await settle(all[index]))(tooMany(0.2));
		await sleep(300);
		expect(counts.started).toBe(16); // a bound of 1 would start one, a quota of 1 one a second
		stopAll(scheduler, all);
	});

	it('starts every call it has at once, up to Max Calls in Flight', async () => {
		const { scheduler, counts, all } = await queued(12, { maxInFlight: 5, ...BUDGET });
		expect(counts.started).toBe(5);
		(await settle(all[0]))(ok);
		await sleep(0);
		expect(counts.started).toBe(6); // the freed slot only
		stopAll(scheduler, all);
	});

	it('after a decrease, steps up one call per 16 successes, counting afresh after each step', async () => {
		const { scheduler, counts, all } = await queued(80, { maxInFlight: 10, ...BUDGET });
		// 3 served, 3-9 refused: the limit is 3, the next step after 16 successes.
		for (const refused of all.slice(3, 10)) (await settle(refused))(reset);
		const inFlight: number[] = [];
		for (let finished = 1; finished <= 40; finished += 1) {
			(await settle(all[finished - 1 + (finished > 3 ? 7 : 0)]))(ok);
			await sleep(0);
			inFlight.push(counts.started - finished - 7);
		}
		// Before: 3 at a time; after 16 successes 4; 32 (16 more, probeAfter doubled once) 5.
		expect(inFlight.indexOf(4) + 1).toBe(16);
		expect(inFlight.indexOf(5) + 1).toBe(32);
		stopAll(scheduler, all);
	});

	it('a 5xx or a timeout (neutral) neither steps the limit up nor counts as progress', async () => {
		const settings = { maxInFlight: 10, rateLimitWaitMs: 300 };
		const { scheduler, counts, all } = await queued(40, settings);
		(await settle(all[3]))(reset);
		for (const call of all.slice(0, 3)) (await settle(call))({ kind: 'neutral' });
		for (let index = 4; index < 30; index += 1) (await settle(all[index]))({ kind: 'neutral' });
		await sleep(0);
		expect(counts.started - 30).toBe(3);
		await sleep(100);
		expect(scheduler.mayWaitForRateLimit(250)).toBe(false);
		stopAll(scheduler, all);
	});

	it('a refusal with only later calls in flight holds the whole run off as asked', async () => {
		const { scheduler, counts, all } = await queued(6, { maxInFlight: 2, ...BUDGET });
		// Call 1 (started after call 0) is still in flight when call 0 is refused.
		(await settle(all[0]))({ kind: 'congested', waitMs: 300 });
		(await settle(all[1]))(ok);
		await sleep(50);
		expect(counts.started).toBe(2);
		await sleep(400);
		expect(counts.started).toBe(3);
		stopAll(scheduler, all);
	});
});

describe('CallScheduler: Max Wait on Rate Limits bounds time without progress', () => {
	it('counts from the last call that went through, not from the start of the run', async () => {
		const { scheduler, all } = await queued(4, { maxInFlight: 4, rateLimitWaitMs: 300 });
		expect(scheduler.mayWaitForRateLimit(250)).toBe(true);
		expect(scheduler.mayWaitForRateLimit(350)).toBe(false);
		await sleep(200);
		(await settle(all[0]))(ok);
		expect(scheduler.mayWaitForRateLimit(250)).toBe(true);
		await sleep(150);
		expect(scheduler.mayWaitForRateLimit(250)).toBe(false);
		stopAll(scheduler, all);
	});
});

describe('CallScheduler: quotas per window', () => {
	/** Calls 0-3 went through, then 4-7 started with nothing ahead and were refused: 4 per 1 s. */
	async function quotaOfFour() {
		const run = await queued(4, { maxInFlight: 8, ...BUDGET });
		for (const call of run.all.slice(0, 4)) (await settle(call))(ok);
		await run.more(4);
		for (const call of run.all.slice(4, 8)) (await settle(call))(tooMany(1));
		await run.more(8);
		return run;
	}

	it('a refusal with nothing in flight paces the run to the quota, not one call at a time', async () => {
		const { scheduler, counts, all } = await quotaOfFour();
		await sleep(500);
		expect(counts.started).toBe(8); // the window of 1 s is full
		await sleep(700);
		expect(counts.started).toBe(12); // a new window: four start at once, no more
		stopAll(scheduler, all);
	});

	it('the refusals of one wave read late do not lower the quota below what went through', async () => {
		const { scheduler, counts, all, more } = await queued(4, { maxInFlight: 8, ...BUDGET });
		for (const call of all.slice(0, 4)) (await settle(call))(ok);
		await more(4);
		// 4-7 started together with nothing ahead; read out of order: call 7 first (4-6 ahead of
		// it, refused but not yet known), then 4-6. The quota is what went through: 4.
		(await settle(all[7]))(tooMany(1));
		for (const call of all.slice(4, 7)) (await settle(call))(tooMany(1));
		await more(8);
		await sleep(1200);
		expect(counts.started).toBe(12);
		stopAll(scheduler, all);
	});

	it('a quota the headers state is a quota even with calls in flight', async () => {
		const { scheduler, counts, all } = await queued(16, {
			maxInFlight: 8,
			...BUDGET,
		});
		(await settle(all[5]))(tooMany(1, { limit: 5, windowMs: 1000 }));
		for (const call of all.slice(0, 5)) (await settle(call))(ok);
		await sleep(0);
		// Five in the window: nothing starts, though the bound on calls in flight has room.
		expect(counts.started).toBe(8);
		for (const call of all.slice(6, 8)) (await settle(call))(ok);
		await sleep(1200);
		expect(counts.started).toBe(8 + 5);
		stopAll(scheduler, all);
	});

	it('a refusal that is either kind: one call beyond the candidate quota tells which', async () => {
		// Calls 0-3 in flight when call 4 is refused: a limit of 4 in flight or a quota of 4.
		const { scheduler, counts, all } = await queued(20, {
			maxInFlight: 8,
			...BUDGET,
		});
		(await settle(all[4]))(tooMany(1));
		for (const call of all.slice(5, 8)) (await settle(call))(tooMany(1));
		(await settle(all[0]))(ok);
		await sleep(0);
		expect(counts.started).toBe(9); // one probe, not a wave
		(await settle(all[8]))(ok); // it went through: no quota, calls in flight bound only
		await sleep(0);
		// No quota: the bound of 4 the refusal set stays (it grows one call per 16 successes).
		expect(counts.started).toBe(10);
		for (const call of all.slice(1, 3)) (await settle(call))(ok);
		await sleep(0);
		expect(counts.started).toBe(12);
		stopAll(scheduler, all);
	});

	it('a probe refused confirms the quota and gives back the bound the first refusal took', async () => {
		const { scheduler, counts, all } = await queued(24, {
			maxInFlight: 8,
			...BUDGET,
		});
		(await settle(all[4]))(tooMany(1));
		for (const call of all.slice(5, 8)) (await settle(call))(tooMany(1));
		for (const call of all.slice(0, 4)) (await settle(call))(ok);
		await sleep(0);
		(await settle(all[8]))(tooMany(1)); // the probe, refused with nothing else in flight
		await sleep(1300);
		expect(counts.started).toBe(9 + 4);
		stopAll(scheduler, all);
	});
});
