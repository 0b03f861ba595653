import {
	CallScheduler,
	RunStopped,
	type CallVerdict,
	type SchedulerSettings,
} from '../../nodes/SoundSearch/shared/callScheduler';

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
		const { counts, settle, end } = await queued(6, { maxInFlight: 2, firstWave: 2, ...BUDGET });
		await settle(0, reset(300)); // call 1 started after call 0: nothing served
		await settle(1, ok);
		await tick(299);
		expect(counts.started).toBe(2);
		await tick(1);
		expect(counts.started).toBe(3); // a refused connection with none served: one at a time
		end();
	});

	it('a shorter hold-off asked later does not cut a longer one short', async () => {
		const { counts, settle, end } = await queued(6, { maxInFlight: 2, firstWave: 2, ...BUDGET });
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
	/** Calls 0-3 went through at 0, 4-7 were refused with nothing in flight: 4 per second. */
	async function quotaOfFour() {
		const run = await queued(8, { maxInFlight: 8, firstWave: 8, ...BUDGET });
		for (const index of [0, 1, 2, 3]) await run.settle(index, ok);
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
