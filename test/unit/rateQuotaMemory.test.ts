import { RateQuota } from '../../nodes/shared/quota';
import { quotaOfFour, served, steadyQuotaOfFour, tooMany } from './quotaPlay';

describe('RateQuota: what it keeps for the next run', () => {
	it('nothing learnt: nothing kept (no key for the unknown)', () => {
		expect(new RateQuota().known()).toStrictEqual({});
	});

	it('the slowest refusal, the quickest answer and page, and the quota', () => {
		const { quota } = quotaOfFour(); // answers and the refusal back in 100 ms
		expect(quota.known()).toStrictEqual({
			refusalMs: 100,
			arrivalMs: 100,
			pageMs: 100,
			quota: { limit: 4, windowMs: 1000, announced: false, probeWindows: 1 },
		});
	});

	it('the quickest answer, from answers alone', () => {
		const quota = new RateQuota();
		served(quota, [0], 1000, 1100);
		expect(quota.known()).toStrictEqual({ arrivalMs: 100, pageMs: 100 });
	});

	it('the quickest answer, from a refusal alone', () => {
		const quota = new RateQuota();
		quota.started(0, 1000);
		quota.refused(0, tooMany(1000), 0, 1, 1050);
		expect(quota.known()).toStrictEqual({ refusalMs: 50, arrivalMs: 50 });
	});

	it('a quota found, then lowered by a refusal (another client): the lower one', () => {
		const { quota } = quotaOfFour();
		served(quota, [5, 6, 7], 2000, 2100);
		quota.started(8, 2000);
		quota.refused(8, tooMany(1000), 0, 9, 2100); // 3 went through
		expect(quota.known().quota?.limit).toBe(3);
	});

	it('a quota taken for long, lowered by a refusal (another client): the most it took', () => {
		const quota = steadyQuotaOfFour(); // 4 known from an earlier run
		served(quota, [5, 6, 7], 2000, 2100);
		quota.started(8, 2000);
		quota.refused(8, tooMany(1000), 0, 9, 2100);
		expect(quota.delayMs(2100)).toBe(2000 + 1025 - 2100); // paced at 3 for now
		expect(quota.known().quota?.limit).toBe(4);
	});

	it('a quota lowered by another client, back up to its ceiling, then refused: the ceiling goes down', () => {
		const quota = steadyQuotaOfFour(); // 4 known from an earlier run
		served(quota, [5, 6, 7], 2000, 2100);
		quota.started(8, 2000);
		quota.refused(8, tooMany(1000), 0, 9, 2100); // 3 went through: paced at 3
		for (const seq of [9, 10, 11]) quota.started(seq, 3100);
		expect(quota.delayMs(3100)).toBeGreaterThan(0); // held at 3
		for (const seq of [9, 10, 11]) quota.answered(seq, 3200); // a clean window: back to 4
		served(quota, [12, 13, 14], 4300, 4400);
		quota.started(15, 4300);
		quota.refused(15, tooMany(1000), 0, 16, 4400); // refused right after: 3 went through
		expect(quota.known().quota?.limit).toBe(3);
	});

	it('back up to its ceiling and refused there (ceiling kept): a later refusal no longer lowers it', () => {
		const quota = steadyQuotaOfFour();
		served(quota, [5, 6, 7], 2000, 2100);
		quota.started(8, 2000);
		quota.refused(8, tooMany(1000), 0, 9, 2100); // paced at 3
		for (const seq of [9, 10, 11]) quota.started(seq, 3100);
		quota.delayMs(3100); // held at 3
		for (const seq of [9, 10, 11]) quota.answered(seq, 3200); // back to 4
		served(quota, [12, 13, 14, 15], 4300, 4400);
		quota.started(16, 4300);
		quota.refused(16, tooMany(1000), 0, 17, 4400); // refused at 4: the ceiling stays 4
		served(quota, [17, 18, 19], 5500, 5600);
		quota.started(20, 5500);
		quota.refused(20, tooMany(1000), 0, 21, 5600); // another client again: paced at 3
		expect(quota.known().quota?.limit).toBe(4);
	});

	it("back up to its ceiling: a late refusal of the wave before does not spend the ceiling's test", () => {
		const quota = steadyQuotaOfFour();
		served(quota, [5, 6, 7], 2000, 2100);
		quota.started(8, 2000);
		quota.started(9, 2100);
		quota.refused(8, tooMany(1000), 0, 10, 2100); // paced at 3; 9 still out
		for (const seq of [10, 11]) quota.started(seq, 3100);
		quota.delayMs(3100); // 9, 10 and 11: held at 3
		for (const seq of [10, 11]) quota.answered(seq, 3200); // back to 4
		quota.refused(9, tooMany(1000), 4, 12, 3250); // of the wave of 8, read late
		served(quota, [12, 13, 14], 4300, 4400);
		quota.started(15, 4300);
		quota.refused(15, tooMany(1000), 0, 16, 4400); // refused right after going back: 3
		expect(quota.known().quota?.limit).toBe(3);
	});
});

describe('RateQuota: trying above a quota learnt from refusals', () => {
	it('held at it for a window without a refusal: it tries twice as much', () => {
		const { quota } = quotaOfFour(); // refused at 100
		for (const seq of [5, 6, 7, 8]) quota.started(seq, 1025);
		expect(quota.delayMs(1025)).toBeGreaterThan(0); // held at 4
		// Answered exactly a window after the refusal: one more call may start (of 8).
		for (const seq of [5, 6, 7, 8]) quota.answered(seq, 1100);
		quota.started(9, 1100);
		expect(quota.delayMs(1100)).toBe(0);
		// The next run starts from the level tried from.
		expect(quota.known().quota?.limit).toBe(4);
	});

	it('a try refused: the quota goes back to the level tried from, and the next try waits twice as long', () => {
		const { quota } = quotaOfFour();
		for (const seq of [5, 6, 7, 8]) quota.started(seq, 1025);
		quota.delayMs(1025); // held at 4
		for (const seq of [5, 6, 7, 8]) quota.answered(seq, 1100); // tries 8
		served(quota, [9], 1100, 1200);
		quota.started(10, 1100);
		// 5-9 went through, as it reads: read late or out of order, a window's count is too high.
		quota.refused(10, tooMany(1000), 0, 11, 1200);
		expect(quota.known().quota).toEqual({
			limit: 4,
			windowMs: 1000,
			announced: false,
			probeWindows: 2,
		});
	});

	it('a try never reached is not tried above again a window later', () => {
		const { quota } = quotaOfFour();
		for (const seq of [5, 6, 7, 8]) quota.started(seq, 1025);
		quota.delayMs(1025); // held at 4
		for (const seq of [5, 6, 7, 8]) quota.answered(seq, 1100); // tries 8
		served(quota, [9], 2100, 2200); // a window on, never held at 8
		expect(quota.known().quota?.limit).toBe(4); // still trying 8 from 4
	});

	it('a quota not reached since its refusal is not tried above', () => {
		const { quota } = quotaOfFour(); // refused at 100
		expect(quota.delayMs(1100)).toBe(0); // asked before each start: room, not held back
		served(quota, [5, 6], 1100, 1200); // a window on
		quota.started(7, 1200);
		quota.started(8, 1200);
		expect(quota.delayMs(1200)).toBe(1100 + 1025 - 1200); // still 4: 5-8 fill it
	});

	it('a quota recalled (settled) tries one call more, held at it for a window', () => {
		const quota = new RateQuota();
		quota.recall({
			quota: { limit: 4, windowMs: 1000, announced: false, probeWindows: 1 },
			refusalMs: 100,
		});
		served(quota, [0, 1, 2, 3], 0, 100);
		expect(quota.delayMs(100)).toBe(925); // held at 4
		served(quota, [4, 5, 6, 7], 1025, 1125);
		expect(quota.delayMs(1125)).toBe(0); // 4 in the window, of 5
		quota.started(8, 1125);
		expect(quota.delayMs(1125)).toBeGreaterThan(0); // 5 of 5
	});

	it("a quota recalled counts the clean window from the run's first call, not from before the run", () => {
		const quota = new RateQuota();
		quota.recall({
			quota: { limit: 4, windowMs: 1000, announced: false, probeWindows: 1 },
			refusalMs: 100,
		});
		for (const seq of [0, 1, 2, 3]) quota.started(seq, 5000);
		expect(quota.delayMs(5000)).toBeGreaterThan(0); // held at 4 from the start
		for (const seq of [0, 1, 2, 3]) quota.answered(seq, 5100);
		// No try at the first answers (at 60/min, a call refused here would push the run's last
		// window a whole window later).
		expect(quota.delayMs(5100)).toBe(925);
		served(quota, [4, 5, 6, 7], 6025, 6125);
		expect(quota.delayMs(6125)).toBe(0); // a window on: 4 in the window, of 5
	});

	it('a recalled quota the run never reached is not tried above', () => {
		const quota = new RateQuota();
		quota.recall({
			quota: { limit: 4, windowMs: 1000, announced: false, probeWindows: 1 },
			refusalMs: 100,
		});
		served(quota, [0, 1], 0, 100);
		served(quota, [2, 3], 1100, 1200); // more than a window on, never held back
		quota.started(4, 1300);
		quota.started(5, 1300);
		// Still 4: calls 2-5 fill it until 2 (taken at 1100) leaves the window.
		expect(quota.delayMs(1300)).toBe(1100 + 1025 - 1300);
	});
});
