import { RunStopped } from '../../nodes/shared/errors';
import {
	CallScheduler,
	type CallVerdict,
	type SchedulerSettings,
} from '../../nodes/shared/scheduler';

// Pacing on jest's fake clock (Date.now and timers): exact times, no waiting.

beforeEach(() => jest.useFakeTimers({ now: 0 }));
afterEach(() => jest.useRealTimers());

/** Lets the clock run `ms` (0: only what is due), settling promises on the way. */
const tick = async (ms = 0) => await jest.advanceTimersByTimeAsync(ms);

const ok: CallVerdict = { kind: 'ok' };
const neutral: CallVerdict = { kind: 'neutral' };
/** A refused or reset connection asking to hold off `waitMs`: no quota hint. */
const reset = (waitMs = 0): CallVerdict => ({ kind: 'congested', waitMs });
/** A 429 asking to come back in `seconds`, and what its headers state of a quota. */
const tooMany = (seconds: number, stated: { limit?: number; windowMs?: number } = {}) =>
	({
		kind: 'congested',
		waitMs: seconds * 1000,
		hint: { retryAfterMs: seconds * 1000, ...stated },
	}) as CallVerdict;

/** `count` calls queued at once; each stays out until the test settles it with a verdict. */
async function queued(count: number, settings: SchedulerSettings) {
	const scheduler = new CallScheduler(settings);
	const counts = { started: 0 };
	const finishers: Array<() => void> = [];
	const start = () => {
		const index = finishers.length;
		finishers.push(() => {});
		const sent = scheduler.send(async () => {
			counts.started += 1;
			await new Promise<void>((resolve) => (finishers[index] = resolve));
		});
		sent.catch(() => undefined);
		return sent;
	};
	const all = Array.from({ length: count }, start);
	await tick();
	/** Call `index` answers now and is released with `verdict`. */
	const settle = async (index: number, verdict: CallVerdict) => {
		finishers[index]();
		(await all[index]).release(verdict);
		await tick();
	};
	const more = async (extra: number) => {
		all.push(...Array.from({ length: extra }, start));
		await tick();
	};
	const end = () => {
		scheduler.stop(new RunStopped());
		for (const finish of finishers) finish();
	};
	return { scheduler, counts, settle, more, end };
}

const BUDGET = { rateLimitWaitMs: 10_000 };

describe('CallScheduler: Max Wait on Rate Limits', () => {
	it('allows a wait that ends exactly at the budget, not a millisecond more', async () => {
		const { scheduler, settle, end } = await queued(2, { maxInFlight: 2, rateLimitWaitMs: 1000 });
		await tick(400);
		expect(scheduler.mayWaitForRateLimit(600)).toBe(true);
		expect(scheduler.mayWaitForRateLimit(601)).toBe(false);
		await settle(0, ok); // progress at 400: the budget counts from here
		expect(scheduler.mayWaitForRateLimit(1000)).toBe(true);
		expect(scheduler.mayWaitForRateLimit(1001)).toBe(false);
		await settle(1, reset()); // a refusal is no progress
		await tick(100);
		expect(scheduler.mayWaitForRateLimit(1000)).toBe(false);
		end();
	});
});

describe('CallScheduler: holding the run off', () => {
	it('a refusal with nothing of the run in flight before it holds every call off for as long as asked', async () => {
		const { counts, settle, end } = await queued(6, { maxInFlight: 2, ...BUDGET });
		await settle(0, reset(300)); // call 1 started after call 0: nothing served
		await settle(1, ok);
		await tick(299);
		expect(counts.started).toBe(2);
		await tick(1);
		expect(counts.started).toBe(3); // a refused connection with none served: one at a time
		end();
	});

	it('a shorter hold-off asked later does not cut a longer one short', async () => {
		const { counts, settle, end } = await queued(6, { maxInFlight: 2, ...BUDGET });
		await settle(0, reset(500));
		await settle(1, reset(100));
		await tick(499);
		expect(counts.started).toBe(2);
		await tick(1);
		expect(counts.started).toBeGreaterThan(2);
		end();
	});

	it('a refusal with calls before it in flight holds nobody off: a freed slot is used at once', async () => {
		const { counts, settle, end } = await queued(8, { maxInFlight: 4, ...BUDGET });
		await settle(2, reset(5000)); // calls 0 and 1 served: the bound drops to 2
		await settle(0, ok);
		await settle(1, ok);
		await tick();
		expect(counts.started).toBe(5); // call 3 still out and one more: the bound of 2
		end();
	});
});

describe('CallScheduler: pacing to a quota', () => {
	/** Calls 0-3 went through at 0, then 4-7 started with nothing ahead and were refused. */
	async function quotaOfFour() {
		const run = await queued(4, { maxInFlight: 8, ...BUDGET });
		for (const index of [0, 1, 2, 3]) await run.settle(index, ok);
		await run.more(4);
		for (const index of [4, 5, 6, 7]) await run.settle(index, tooMany(1));
		await run.more(8);
		return run;
	}

	it('starts the next window once the oldest call leaves it, four at once', async () => {
		const { counts, end } = await quotaOfFour();
		await tick(1024);
		expect(counts.started).toBe(8);
		await tick(1);
		expect(counts.started).toBe(12);
		end();
	});

	it('a 5xx or a timeout may have reached the service: it counts against the quota', async () => {
		const { counts, settle, end } = await quotaOfFour();
		await tick(1100);
		for (const index of [8, 9, 10, 11]) await settle(index, neutral);
		// They left the window 1025 ms after they were answered, not when they started.
		await tick(1024);
		expect(counts.started).toBe(12);
		await tick(1);
		expect(counts.started).toBe(16);
		end();
	});
});

describe('CallScheduler: the bound on calls in flight', () => {
	it('the first call started after a decrease, refused, is a new wave: the bound drops again', async () => {
		const { counts, settle, end } = await queued(12, { maxInFlight: 6, ...BUDGET });
		await settle(3, reset()); // 0-2 served: the bound is 3
		for (const index of [4, 5]) await settle(index, reset()); // the same wave
		await settle(0, ok);
		expect(counts.started).toBe(7); // call 6, the first after the decrease
		await settle(6, reset()); // 1 and 2 served: the bound is 2
		await settle(1, ok);
		expect(counts.started).toBe(8); // 2 and one more (a bound of 3 would start two)
		end();
	});

	it('a wave of refusals that could be a quota: the bound is what was served, and stays', async () => {
		const { counts, settle, end } = await queued(40, { maxInFlight: 8, ...BUDGET });
		// 0-3 in flight when 4-7 are refused: a bound of 4, or a quota of 4 a second.
		for (const index of [4, 5, 6, 7]) await settle(index, tooMany(1));
		for (const index of [0, 1, 2, 3]) await settle(index, ok);
		expect(counts.started).toBe(9); // call 8 tests the candidate quota alone
		await settle(8, ok); // it went through: no quota
		expect(counts.started).toBe(13); // 9-12: the bound is 4
		for (const index of [9, 10, 11, 12, 13, 14]) await settle(index, ok);
		// Six successes since the wave: still 4 at a time (it grows one call per 16 successes).
		expect(counts.started).toBe(19);
		end();
	});

	it('grows only while it is full: successes below it say nothing of a higher bound', async () => {
		const { counts, settle, more, end } = await queued(6, { maxInFlight: 6, ...BUDGET });
		await settle(3, reset()); // 0-2 served: the bound is 3
		for (const index of [4, 5]) await settle(index, reset());
		for (const index of [0, 1, 2]) await settle(index, ok); // only the first filled the bound
		// 40 calls one at a time (a short list, or a quota holding the calls back): the bound of 3
		// is never full. Counted, they would raise it to 4 (one call more per 16 successes).
		for (let index = 6; index < 46; index += 1) {
			await more(1);
			await settle(index, ok);
		}
		await more(10);
		expect(counts.started).toBe(46 + 3);
		end();
	});

	it('a bound a call beyond it gave back, then lowered again, stays: no second test in the run', async () => {
		// A busy n8n counts answers it has not read yet as calls in flight: a limit on calls in
		// flight takes a call beyond its bound now and then. Tested again each time, the bound went
		// back up each time, and a wave of calls was refused each time (47 in one run in queue mode).
		const quota = { limit: 100, windowMs: 1000, announced: false, probeWindows: 1 };
		const learned = { bound: 4, quota, refusalMs: 100 };
		const { counts, settle, end } = await queued(40, { maxInFlight: 16, ...BUDGET, learned });
		expect(counts.started).toBe(5); // the bound, and one call beyond it: the quota has room
		// Taken: the bound doubles (given back whole, 16 would start at once).
		await settle(4, ok);
		expect(counts.started).toBe(9);
		await settle(8, tooMany(1)); // 7 ahead of it, the quota far from full: the bound is 7
		await tick(5000); // the Retry-After, and the quota's window, long past
		expect(counts.started).toBe(9); // 7 in flight, none beyond
		end();
	});
});

describe('CallScheduler: refusals read late', () => {
	it('a 429 read after the answers of the calls ahead of it still reads as calls in flight', async () => {
		// A busy n8n reads a burst of ready answers in any order: the service (4 in flight) served
		// 0-3 and refused 4-7, but the run reads the four answers first.
		const { counts, settle, end } = await queued(200, { maxInFlight: 8, ...BUDGET });
		for (const index of [0, 1, 2, 3]) await settle(index, ok);
		for (const index of [4, 5, 6, 7]) await settle(index, tooMany(1));
		// The service answers each call in 150 ms from here: about 26 a second at 4 in flight,
		// where a quota of 4 a second read from the late 429 would let 4 through after a 1 s wait.
		let answered = 8;
		for (let ms = 0; ms < 2000; ms += 150) {
			await tick(150);
			const started = counts.started;
			for (; answered < started; answered += 1) await settle(answered, ok);
		}
		expect(answered).toBeGreaterThan(40);
		end();
	});
});

describe('CallScheduler: waiting calls', () => {
	it('set no timer while they wait for a slot, and one while the run holds off', async () => {
		const { counts, settle, more, end } = await queued(8, {
			maxInFlight: 2,
			...BUDGET,
		});
		expect(jest.getTimerCount()).toBe(0);
		await settle(0, reset(500)); // nothing served: the run holds off, one at a time
		await settle(1, reset(500));
		await more(1); // a call queued during the hold-off sets no second timer
		expect(jest.getTimerCount()).toBe(1);
		await tick(500);
		expect(counts.started).toBe(3);
		expect(jest.getTimerCount()).toBe(0); // the bound is full again: nothing to wake
		end();
	});

	it('a run with nothing queued keeps no timer', async () => {
		const { settle, end } = await queued(2, { maxInFlight: 2, ...BUDGET });
		await settle(0, ok);
		await settle(1, neutral);
		expect(jest.getTimerCount()).toBe(0);
		end();
	});
});
