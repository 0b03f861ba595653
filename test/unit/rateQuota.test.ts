import { RateQuota } from '../../nodes/shared/quota';
import { quotaOfFour, served, steadyQuotaOfFour, tooMany } from './quotaPlay';

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

	it('counts calls in flight as in the window, taken by their start when every answer took as long', () => {
		const { quota } = quotaOfFour(); // answers and the refusal came back in 100 ms
		for (const seq of [5, 6, 7]) quota.started(seq, 1025);
		expect(quota.delayMs(1025)).toBe(0); // three in flight, one more may start
		quota.started(8, 1025);
		expect(quota.delayMs(1025)).toBe(1025); // taken by 1025: n8n sent none late so far
		expect(quota.delayMs(2050)).toBe(0); // out of the window, answered or not
	});

	it('a call in flight is taken as late as n8n sent one (the spread of answers), at most the quickest answer later', () => {
		const stated = { limit: 2, windowMs: 1000 };
		const refusedOnly = new RateQuota();
		refusedOnly.started(0, 0);
		refusedOnly.refused(0, tooMany(1000, stated), 0, 1, 100);
		for (const seq of [1, 2]) refusedOnly.started(seq, 1100);
		expect(refusedOnly.delayMs(1100)).toBe(1100 + 100 + 1025 - 1100); // no answer: by the refusal's 100 ms

		const quota = new RateQuota();
		served(quota, [0], 0, 60);
		served(quota, [1], 0, 100); // sent 40 ms later than call 0, or slower to answer
		quota.started(2, 0);
		quota.refused(2, tooMany(1000, stated), 0, 3, 100);
		for (const seq of [3, 4]) quota.started(seq, 1100);
		expect(quota.delayMs(1100)).toBe(1100 + 40 + 1025 - 1100);
	});

	it('a further refusal of the known quota is a quota, not a new one', () => {
		const { quota } = quotaOfFour();
		quota.started(5, 0);
		expect(quota.refused(5, tooMany(1000), 0, 6, 110)).toBe('quota');
	});

	it('a further refusal with no try above it out leaves the pace of tries', () => {
		const { quota } = quotaOfFour();
		quota.started(5, 0);
		quota.refused(5, tooMany(1000), 0, 6, 110);
		expect(quota.known().quota?.probeWindows).toBe(1);
	});

	it('a refusal stating the limit and its window: announced, and the ceiling', () => {
		const quota = steadyQuotaOfFour(); // 4 learnt by an earlier run
		quota.started(5, 1025);
		quota.refused(5, tooMany(1000, { limit: 2, windowMs: 1000 }), 0, 6, 1125);
		expect(quota.known().quota).toEqual({
			limit: 2,
			windowMs: 1000,
			announced: true,
			probeWindows: 64,
		});
	});

	it('a refusal stating the limit without its window: learnt, not announced', () => {
		const { quota } = quotaOfFour({ limit: 6 });
		expect(quota.known().quota).toEqual({
			limit: 6,
			windowMs: 1000,
			announced: false,
			probeWindows: 1,
		});
	});

	it('a refusal stating the window without the limit: the count learnt, not announced', () => {
		const { quota } = quotaOfFour({ windowMs: 60_000 });
		expect(quota.known().quota).toEqual({
			limit: 4,
			windowMs: 60_000,
			announced: false,
			probeWindows: 1,
		});
	});

	it('the window is the one the headers state, else the Retry-After, and at least a second', () => {
		expect(quotaOfFour({ windowMs: 60_000 }).quota.delayMs(100)).toBe(60_025 - 100);
		const short = new RateQuota();
		served(short, [0, 1], 0, 100);
		short.started(2, 0);
		short.refused(2, tooMany(200), 0, 3, 100);
		expect(short.delayMs(100)).toBe(925);
	});

	it('a Retry-After close under a whole minute reads a minute; under 50 s it reads as it says', () => {
		// n8n sent the burst over 1.5 s: when the service refused, the oldest call had been in the
		// window that long, so it asked for 59 s (58.5, rounded up).
		const window = (retryAfterMs: number) => {
			const quota = new RateQuota();
			served(quota, [0, 1], 0, 100);
			quota.started(2, 0);
			quota.refused(2, tooMany(retryAfterMs), 0, 3, 100);
			return quota.known().quota?.windowMs;
		};
		expect(window(59_000)).toBe(60_000);
		expect(window(50_001)).toBe(60_000);
		expect(window(119_000)).toBe(120_000);
		expect(window(70_000)).toBe(120_000); // more than a minute: the next whole one
		expect(window(50_000)).toBe(50_000);
		expect(window(3000)).toBe(3000);
	});

	it('a quota the headers state rules over the count', () => {
		const { quota } = quotaOfFour({ limit: 6 });
		quota.started(5, 100);
		expect(quota.delayMs(100)).toBe(0); // 5 of 6
		quota.started(6, 100);
		expect(quota.delayMs(100)).toBeGreaterThan(0);
	});

	it('refusals only lower it: one counting more calls leaves it, one counting fewer lowers it', () => {
		const quota = steadyQuotaOfFour(); // no try above it in this test's windows
		// Next window: six calls went through (say, the service was lenient), the seventh refused.
		served(quota, [5, 6, 7, 8, 9, 10], 1100, 1200);
		quota.started(11, 1100);
		quota.refused(11, tooMany(1000), 0, 12, 1200);
		quota.started(12, 3000);
		quota.started(13, 3000);
		quota.started(14, 3000);
		quota.started(15, 3000);
		// Still 4 at once (the refusal at 6 widened the margin to 50 ms).
		expect(quota.delayMs(3000)).toBe(1050);
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

	it('lets one call beyond it start, and nothing else while that call is out', () => {
		const { quota, reading } = candidateOfFour();
		expect(reading).toBe('calls in flight');
		expect(quota.delayMs(150)).toBe(0);
		quota.started(5, 150);
		// A later call could reach the service first and be what it refuses: nothing starts until
		// its refusal would have come back (twice the slowest refusal, 100 ms, and a margin).
		expect(quota.delayMs(150)).toBe(225);
		expect(quota.delayMs(374)).toBe(1);
		// Not refused by then: taken, so there was no quota.
		expect(quota.delayMs(375)).toBe(0);
	});

	it('the call beyond it refused with as many calls ahead as the first refusal: it tells nothing', () => {
		const quota = new RateQuota();
		for (const seq of [0, 1, 2, 3, 4]) quota.started(seq, 0);
		quota.refused(4, tooMany(1000), 4, 5, 100); // 0-3 ahead: a candidate of 4
		quota.started(5, 100); // beyond it, with 0-3 still ahead
		// A limit of 4 in flight explains its refusal as well.
		expect(quota.refused(5, tooMany(1000), 4, 6, 110)).toBe('calls in flight');
		for (const seq of [0, 1, 2, 3]) quota.answered(seq, 150);
		expect(quota.delayMs(150)).toBe(0); // still a candidate: another call beyond may test it
		quota.started(6, 150);
		expect(quota.refused(6, tooMany(1000), 3, 7, 160)).toBe('quota found');
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

	it('a known quota explains a later refusal with calls in flight: it stays known', () => {
		const { quota } = quotaOfFour();
		for (const seq of [5, 6, 7, 8, 9]) quota.started(seq, 1025);
		expect(quota.refused(9, tooMany(1000), 4, 10, 1125)).toBe('quota');
		for (const seq of [5, 6, 7, 8]) quota.answered(seq, 1125);
		// A candidate would let a call beyond it start; the known quota does not.
		expect(quota.delayMs(1125)).toBeGreaterThan(0);
	});

	it('a known quota not full when a call in flight is refused: a limit on calls in flight, the quota stays', () => {
		const { quota } = quotaOfFour();
		for (const seq of [5, 6, 7]) quota.started(seq, 2000);
		// 5 and 6 ahead of 7, the only calls in the window: fewer than the quota.
		expect(quota.refused(7, tooMany(1000), 2, 8, 2050)).toBe('calls in flight');
		expect(quota.known().quota?.limit).toBe(4);
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

	it('confirmed another way (a call beyond the bound went through): a quota from then on', () => {
		const { quota } = candidateOfFour();
		expect(quota.roomInMs(150)).toBe(Infinity); // a candidate: no room to wait for yet
		expect(quota.confirmCandidate()).toBe(true);
		expect(quota.isConfirmed()).toBe(true);
		expect(quota.roomInMs(150)).toBe(1025 - 150); // calls 0-3 fill it until 0 leaves the window
		expect(quota.confirmCandidate()).toBe(false); // nothing left to confirm
	});

	it('dropped (a call beyond the bound refused while it had room): no candidate left', () => {
		const { quota } = candidateOfFour();
		expect(quota.candidateRoomInMs(150)).toBe(1025 - 150);
		quota.dropCandidate();
		expect(quota.candidateRoomInMs(150)).toBe(Infinity);
		expect(quota.isConfirmed()).toBe(false);
	});

	it('dropping a candidate leaves a confirmed quota alone', () => {
		const { quota } = quotaOfFour();
		quota.dropCandidate();
		expect(quota.isConfirmed()).toBe(true);
		expect(quota.delayMs(100)).toBe(925);
	});

	it('has room by the quickest answer, however late its refusals were read', () => {
		const quota = new RateQuota();
		for (const seq of [0, 1, 2, 3, 4, 5]) quota.started(seq, 0);
		quota.refused(4, tooMany(1000), 4, 6, 10); // a candidate of 4; calls 0-3 out
		quota.refused(5, tooMany(1000), 4, 6, 400); // read late: a busy n8n sends late as well
		// Calls 0-3 reached the service by 10 if n8n sent them at once: a call beyond the bound
		// tests the candidate from 10 + 1025 on. (Counted as sent as late as the slowest refusal,
		// they would fill the window for as long as the run keeps its bound full at a latency
		// longer than the window, and the test would never go out.)
		expect(quota.candidateRoomInMs(500)).toBe(10 + 1025 - 500);
	});

	it('a call is beyond it only if the calls before it started within the window', () => {
		const quota = new RateQuota();
		served(quota, [0], 0, 100); // the quickest answer: 100
		for (const seq of [1, 2, 3, 4, 5]) quota.started(seq, 1000);
		quota.refused(5, tooMany(1000), 4, 6, 1010); // a candidate of 4
		for (const seq of [1, 2, 3, 4]) quota.answered(seq, 2900); // read late: placed at 2800
		quota.started(6, 3000);
		// Calls 1-4 started 2 s ago: call 6 is no test of the candidate, and the run goes on.
		expect(quota.delayMs(3000)).toBe(0);
	});

	it('while the call beyond it is out, the candidate has no room to wait for', () => {
		const { quota } = candidateOfFour();
		quota.started(5, 150); // beyond the candidate: its refusal, or none, decides
		expect(quota.candidateRoomInMs(150)).toBe(Infinity);
	});

	it('the call beyond it refused, read a window late, counts from its arrival: the candidate is a quota', () => {
		const { quota } = candidateOfFour();
		quota.started(5, 150);
		// The service refused it on arrival (150 plus the quickest answer, 100), calls 0-3 in its
		// window: that a busy n8n read the refusal after the window moved on changes nothing.
		expect(quota.refused(5, tooMany(1000), 0, 6, 1200)).toBe('quota found');
		for (const seq of [6, 7, 8, 9]) quota.started(seq, 1200);
		expect(quota.delayMs(1200)).toBe(1025);
	});

	it('read before the refusals of the calls it counted: each of those lowers it, and with none left it goes', () => {
		// Another client used up the window; n8n reads the burst's refusals out of order, call 4's
		// first. Its reading counts calls 0-3 as taken, but the service refused them as well.
		const quota = new RateQuota();
		for (const seq of [0, 1, 2, 3, 4]) quota.started(seq, 0);
		expect(quota.refused(4, tooMany(1000), 4, 5, 100)).toBe('calls in flight');
		expect(quota.candidateRoomInMs(100)).toBeGreaterThan(0); // 0-3 fill a candidate of 4
		for (const seq of [0, 1]) quota.refused(seq, tooMany(1000), 0, 5, 110);
		expect(quota.candidateRoomInMs(110)).toBeGreaterThan(0); // 2 and 3 fill a candidate of 2
		for (const seq of [2, 3]) quota.refused(seq, tooMany(1000), 0, 5, 120);
		expect(quota.candidateRoomInMs(120)).toBe(Infinity); // none served: no candidate
	});
});
