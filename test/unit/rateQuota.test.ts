import { RateQuota, type QuotaHint } from '../../nodes/SoundSearch/shared/rateQuota';

// RateQuota takes the time as an argument: each test plays a run on a clock of its own (ms).

/** A 429 asking to come back in `retryAfterMs`, and what its headers state of a quota. */
const tooMany = (retryAfterMs: number, stated: Partial<QuotaHint> = {}): QuotaHint => ({
	retryAfterMs,
	...stated,
});

/** Calls `seqs` start at `startAt` and are answered at `answerAt` (one round trip each). */
function served(quota: RateQuota, seqs: number[], startAt: number, answerAt: number) {
	for (const seq of seqs) quota.started(seq, startAt);
	for (const seq of seqs) quota.answered(seq, answerAt);
}

/**
 * Calls 0-3 went through (started at 0, answered at 100: placed at 0), call 4 was refused at 100
 * with nothing in flight: a quota of 4 per second, confirmed.
 */
function quotaOfFour(stated: Partial<QuotaHint> = {}) {
	const quota = new RateQuota();
	served(quota, [0, 1, 2, 3], 0, 100);
	quota.started(4, 0);
	const reading = quota.refused(4, tooMany(1000, stated), 0, 5, 100);
	return { quota, reading };
}

describe('RateQuota: a quota found from refusals', () => {
	it('paces nothing before any refusal', () => {
		const quota = new RateQuota();
		served(quota, [0, 1, 2, 3, 4, 5, 6, 7], 0, 10);
		quota.started(8, 10);
		expect(quota.delayMs(10)).toBe(0);
	});

	it('takes the calls that went through in the window as the quota; the next waits for the oldest to leave it', () => {
		const { quota, reading } = quotaOfFour();
		expect(reading).toBe('quota found');
		// The oldest call was taken at 0: it leaves the 1 s window at 1000, plus a 25 ms margin.
		expect(quota.delayMs(100)).toBe(925);
		expect(quota.delayMs(1024)).toBe(1);
		expect(quota.delayMs(1025)).toBe(0);
	});

	it('counts calls in flight as in the window: with the quota in flight only an answer frees a slot', () => {
		const { quota } = quotaOfFour();
		for (const seq of [5, 6, 7]) quota.started(seq, 1025);
		expect(quota.delayMs(1025)).toBe(0); // three in flight, one more may start
		quota.started(8, 1025);
		expect(quota.delayMs(5000)).toBe(Infinity);
		quota.answered(5, 5100);
		expect(quota.delayMs(5100)).toBeGreaterThan(0); // its answer is in the window now
	});

	it('a further refusal of the known quota is a quota, not a new one', () => {
		const { quota } = quotaOfFour();
		quota.started(5, 0);
		expect(quota.refused(5, tooMany(1000), 0, 6, 110)).toBe('quota');
	});

	it('the window is the one the headers state, else the Retry-After, and at least a second', () => {
		expect(quotaOfFour({ windowMs: 60_000 }).quota.delayMs(100)).toBe(60_025 - 100);
		const short = new RateQuota();
		served(short, [0, 1], 0, 100);
		short.started(2, 0);
		short.refused(2, tooMany(200), 0, 3, 100);
		expect(short.delayMs(100)).toBe(925);
	});

	it('a quota the headers state rules over the count', () => {
		const { quota } = quotaOfFour({ limit: 6 });
		quota.started(5, 100);
		expect(quota.delayMs(100)).toBe(0); // 5 of 6
		quota.started(6, 100);
		expect(quota.delayMs(100)).toBeGreaterThan(0);
	});

	it('only goes down: a later refusal counting more calls leaves it, one counting fewer lowers it', () => {
		const { quota } = quotaOfFour();
		// Next window: six calls went through (say, the service was lenient), the seventh refused.
		served(quota, [5, 6, 7, 8, 9, 10], 1100, 1200);
		quota.started(11, 1100);
		quota.refused(11, tooMany(1000), 0, 12, 1200);
		quota.started(12, 3000);
		quota.started(13, 3000);
		quota.started(14, 3000);
		quota.started(15, 3000);
		expect(quota.delayMs(3000)).toBe(Infinity); // still 4 at once
		for (const seq of [12, 13, 14, 15]) quota.answered(seq, 3100);
		// Another client now shares the quota: two went through, the third refused.
		served(quota, [16, 17], 5000, 5100);
		quota.started(18, 5000);
		quota.refused(18, tooMany(1000), 0, 19, 5100);
		expect(quota.delayMs(5100)).toBeGreaterThan(0);
	});

	it('a refusal that none of the run calls explains (an outage, another client) sets no quota', () => {
		const quota = new RateQuota();
		quota.started(0, 0);
		expect(quota.refused(0, tooMany(1000), 0, 1, 50)).toBe('quota');
		quota.started(1, 50);
		quota.started(2, 50);
		expect(quota.delayMs(50)).toBe(0);
	});
});

describe('RateQuota: a refusal with calls in flight, a candidate quota', () => {
	/** Calls 0-3 in flight when call 4 is refused: a limit of 4 in flight or a quota of 4. */
	function candidateOfFour() {
		const quota = new RateQuota();
		for (const seq of [0, 1, 2, 3, 4]) quota.started(seq, 0);
		const reading = quota.refused(4, tooMany(1000), 4, 5, 100);
		for (const seq of [0, 1, 2, 3]) quota.answered(seq, 150);
		return { quota, reading };
	}

	it('lets one call beyond it start, then paces the others while that call is out', () => {
		const { quota, reading } = candidateOfFour();
		expect(reading).toBe('calls in flight');
		expect(quota.delayMs(150)).toBe(0);
		quota.started(5, 150);
		// Placed at 0 (answered at 150, the quickest round trip 150): they leave at 1025.
		expect(quota.delayMs(150)).toBe(875);
	});

	it('the call beyond it answered: there was no quota', () => {
		const { quota } = candidateOfFour();
		quota.started(5, 150);
		quota.answered(5, 200);
		quota.started(6, 200);
		expect(quota.delayMs(200)).toBe(0);
	});

	it('the call beyond it refused, even with calls in flight: the quota is confirmed', () => {
		const { quota } = candidateOfFour();
		quota.started(5, 150);
		quota.started(6, 150);
		expect(quota.refused(5, tooMany(1000), 1, 7, 200)).toBe('quota found');
		expect(quota.delayMs(200)).toBeGreaterThan(0);
	});

	it('a call within the candidate answered disproves nothing', () => {
		const { quota } = candidateOfFour();
		for (const seq of [5, 6, 7, 8]) quota.started(seq, 1100);
		quota.answered(8, 1150);
		// The next call is the one beyond the candidate: it alone may start, the rest wait.
		quota.started(9, 1150);
		expect(quota.delayMs(1150)).toBeGreaterThan(0);
	});

	it('a known quota stays known when a later refusal could be a limit on calls in flight', () => {
		const { quota } = quotaOfFour();
		for (const seq of [5, 6, 7, 8, 9]) quota.started(seq, 1025);
		expect(quota.refused(9, tooMany(1000), 4, 10, 1125)).toBe('calls in flight');
		for (const seq of [5, 6, 7, 8]) quota.answered(seq, 1125);
		// A candidate would let a call beyond it start; the known quota does not.
		expect(quota.delayMs(1125)).toBeGreaterThan(0);
	});

	it('a quota the headers state is one at once, even with calls in flight', () => {
		const quota = new RateQuota();
		for (const seq of [0, 1, 2]) quota.started(seq, 0);
		expect(quota.refused(2, tooMany(1000, { limit: 2 }), 2, 3, 100)).toBe('quota found');
	});

	it('the call beyond it, answered after the candidate was confirmed another way, leaves the quota', () => {
		const { quota } = candidateOfFour();
		quota.started(5, 150);
		quota.started(6, 150);
		quota.refused(6, tooMany(1000, { limit: 4 }), 1, 7, 200);
		quota.answered(5, 250);
		quota.started(7, 250);
		expect(quota.delayMs(250)).toBeGreaterThan(0);
	});

	it('another call of the wave refused while the call beyond it is out: that call still tells', () => {
		const quota = new RateQuota();
		for (const seq of [0, 1, 2, 3, 4, 5]) quota.started(seq, 0);
		quota.refused(4, tooMany(1000), 4, 6, 100); // a candidate of 4
		for (const seq of [0, 1, 2]) quota.answered(seq, 150);
		quota.started(6, 150); // beyond the candidate
		quota.refused(5, tooMany(1000), 1, 7, 200); // 3 still in flight: no news
		quota.answered(6, 250); // it went through: no quota
		quota.answered(3, 250);
		for (const seq of [7, 8, 9, 10, 11]) quota.started(seq, 250);
		expect(quota.delayMs(250)).toBe(0);
	});

	it('the call beyond it refused when nothing of the run is left in the window: a later one tests again', () => {
		const { quota } = candidateOfFour();
		quota.started(5, 150);
		// Refused after the window moved on: it explains nothing; the candidate stays untested.
		expect(quota.refused(5, tooMany(1000), 0, 6, 1200)).toBe('quota');
		for (const seq of [6, 7, 8, 9]) quota.started(seq, 1200);
		expect(quota.delayMs(1200)).toBe(0);
	});
});

describe('RateQuota: when the service took a call', () => {
	it('places a slow answer at the answer less the quickest round trip seen', () => {
		const quota = new RateQuota();
		for (const seq of [0, 1, 2]) quota.started(seq, 10_000);
		quota.answered(1, 10_100); // round trip 100: taken at 10 000
		quota.answered(0, 10_600); // taken at 10 500 at the latest
		quota.refused(2, tooMany(1000), 0, 3, 10_600);
		expect(quota.delayMs(10_600)).toBe(10_000 + 1025 - 10_600); // the oldest first
		quota.started(3, 11_100); // call 1 left the window; call 0 is still in it
		expect(quota.delayMs(11_100)).toBe(10_500 + 1025 - 11_100);
	});

	it('counts what the service took before the refused call: not later calls, nor a call a whole window old', () => {
		const quota = new RateQuota();
		served(quota, [0], 0, 100); // taken at 0: a window before the refusal
		served(quota, [1, 2], 500, 600);
		for (const seq of [3, 4, 5]) quota.started(seq, 600); // 3 refused; 4 and 5 after it
		quota.answered(5, 700);
		quota.refused(3, tooMany(1000), 0, 6, 1000);
		quota.started(6, 1000);
		// A quota of 2 (calls 1 and 2): call 4 in flight and 6 fill it.
		expect(quota.delayMs(1000)).toBe(Infinity);
	});

	it('a known quota refused anew at its size widens the margin, up to a tenth of the window', () => {
		const { quota } = quotaOfFour();
		let start = 1025;
		const margins: number[] = [];
		for (let wave = 1; wave <= 3; wave += 1) {
			const seqs = [0, 1, 2, 3].map((index) => wave * 5 + index);
			served(quota, seqs, start, start + 100);
			quota.started(wave * 5 + 4, start);
			quota.refused(wave * 5 + 4, tooMany(1000), 0, wave * 5 + 5, start + 100);
			margins.push(quota.delayMs(start + 100) - (1000 - 100));
			start += 2000;
		}
		expect(margins).toEqual([50, 100, 100]);
	});

	it('the first call started after a wave was read opens a new wave', () => {
		const { quota } = quotaOfFour(); // calls up to 4 belong to the wave read
		quota.started(5, 1025);
		// Back in 2 s: the window grows to 2 s, calls 0-3 fill it: the quota refused at its size.
		quota.refused(5, tooMany(2000), 0, 6, 1125);
		expect(quota.delayMs(1125)).toBe(2000 + 50 - 1125);
	});

	it('a refusal of an old wave read late does not move the wave on', () => {
		const { quota } = quotaOfFour();
		served(quota, [5, 6, 7, 8], 1025, 1125);
		for (const seq of [9, 10]) quota.started(seq, 1025);
		quota.refused(9, tooMany(1000), 0, 11, 1125); // a new wave: margin 50
		served(quota, [11, 12, 13, 14], 2075, 2175);
		quota.started(15, 2075);
		quota.refused(10, tooMany(1000), 0, 16, 2175); // the wave of 9, read late
		quota.refused(15, tooMany(1000), 0, 16, 2175); // a new wave: margin 100
		expect(quota.delayMs(2175)).toBe(2075 + 1100 - 2175);
	});

	it('keeps its margin for a refusal of the same wave, one with fewer calls, or one stating the limit', () => {
		const { quota } = quotaOfFour();
		served(quota, [5, 6, 7, 8], 1025, 1125);
		quota.started(9, 1025);
		quota.started(10, 1025);
		quota.refused(9, tooMany(1000, { limit: 4 }), 0, 11, 1125); // stated
		quota.refused(10, tooMany(1000), 0, 11, 1125); // same wave
		expect(quota.delayMs(1125)).toBe(925);
		served(quota, [11, 12, 13], 3000, 3100);
		quota.started(14, 3000);
		// 3 of 4 went through: the quota goes down to 3, the margin stays (else 975).
		quota.refused(14, tooMany(1000), 0, 15, 3100);
		expect(quota.delayMs(3100)).toBe(925);
	});

	it('remembers the calls of a long window (five minutes)', () => {
		const quota = new RateQuota();
		served(quota, [0, 1], 0, 100);
		quota.started(2, 0);
		quota.refused(2, tooMany(300_000), 0, 3, 100);
		quota.started(3, 200_000);
		expect(quota.delayMs(200_000)).toBe(300_025 - 200_000);
	});

	it('a call in flight for minutes still counts', () => {
		const { quota } = quotaOfFour();
		quota.started(5, 1100); // a slow call, still out
		served(quota, [6, 7], 200_000, 200_100);
		quota.started(8, 200_100);
		// 5, 6, 7 and 8: the quota is full (forgetting call 5 would let a fifth start).
		expect(quota.delayMs(200_100)).toBe(925);
	});
});
