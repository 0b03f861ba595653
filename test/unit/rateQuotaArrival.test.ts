import { RateQuota } from '../../nodes/shared/quota';
import { quotaOfFour, served, steadyQuotaOfFour, tooMany } from './quotaPlay';

// When the service took each call, as the run reckons it: the window and the margin.

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

	it("places a later run's first calls by an earlier run's quickest page, later ones by its own", () => {
		// n8n busy starting a run sends its first calls late: the quickest of them took 300 ms, of
		// which the service had it for 5 ms (an earlier run's quickest page). Placed by the answers
		// less 300 ms, the next second's calls would go out while the service still counts them.
		const quota = new RateQuota();
		quota.recall({
			quota: { limit: 2, windowMs: 1000, announced: false, probeWindows: 64 },
			pageMs: 5,
		});
		for (const seq of [0, 1]) quota.started(seq, 0);
		quota.answered(0, 300);
		quota.answered(1, 305);
		expect(quota.delayMs(1000)).toBe(295 + 1025 - 1000);
		// A call started after the first answer is placed by this run's own quickest page (100):
		// an earlier run's may come from another latency, or from a cached answer.
		served(quota, [2], 1320, 1420);
		quota.started(3, 1420);
		expect(quota.delayMs(1420)).toBe(1320 + 1025 - 1420);
		expect(quota.known().pageMs).toBe(100); // this run's own, for the next one
	});

	it('a call started as the first answer is read is no longer of the start burst', () => {
		const quota = new RateQuota();
		quota.recall({
			quota: { limit: 1, windowMs: 1000, announced: false, probeWindows: 64 },
			pageMs: 5,
		});
		quota.started(0, 0);
		quota.answered(0, 300); // of the start burst: taken at 300 - 5
		quota.started(1, 300); // n8n free again: placed by this run's quickest page (300)
		quota.answered(1, 700);
		expect(quota.delayMs(700)).toBe(400 + 1025 - 700);
	});

	it('the quickest page is a page, not a quicker error; a run that saw none keeps the earlier one', () => {
		const quota = new RateQuota();
		quota.recall({ pageMs: 80 });
		quota.started(0, 0);
		quota.answered(0, 5, false); // a 503 in 5 ms: it says nothing of how long a page takes
		expect(quota.known().pageMs).toBe(80);
		quota.started(1, 10);
		quota.answered(1, 130);
		expect(quota.known().pageMs).toBe(120);
	});

	it('before any answer, a call in flight counts as in the window', () => {
		const quota = new RateQuota();
		quota.announce(2, 1000);
		for (const seq of [0, 1]) quota.started(seq, 0);
		expect(quota.delayMs(60_000)).toBe(Infinity);
		quota.answered(0, 60_100); // a minute out: taken by its answer less that round trip, at 0
		expect(quota.delayMs(60_100)).toBe(0);
	});

	it('counts what the service had when the refused call reached it, however late the refusal is read', () => {
		const quota = new RateQuota();
		served(quota, [0], 0, 100); // taken at 0: a window before the refused call arrived
		served(quota, [1, 2], 500, 600);
		for (const seq of [3, 4, 5]) quota.started(seq, 1100); // 3 refused; 4 and 5 after it
		quota.answered(5, 1200);
		// Call 3 reached the service by 1200 (its start plus the quickest answer); a busy n8n read
		// its refusal at 1600, when calls 1 and 2 had left the window.
		quota.refused(3, tooMany(1000), 0, 6, 1600);
		// A quota of 2 (calls 1 and 2): 5 (taken at 1100) and 4 (in flight, by 1200) fill it.
		expect(quota.delayMs(1600)).toBe(1100 + 1025 - 1600);
	});

	it('reads the calls surely in the window: one placed within the margin of its far end may have left it', () => {
		// An engine run at 2 s per call after another client's burst: n8n, busy, sent a try 9 ms
		// late, 991 ms after the call before it started, so the service counted 10, the run 11. A
		// quota read at 11 had every window's last call refused, and the bound they lowered stayed.
		const quota = new RateQuota();
		quota.recall({ arrivalMs: 2 });
		quota.started(0, 0); // in flight: taken by 2, as the run reckons
		for (const seq of [1, 2, 3]) quota.started(seq, 500);
		for (const seq of [4, 5]) quota.started(seq, 991);
		quota.refused(5, tooMany(1000), 5, 6, 1000);
		quota.confirmCandidate();
		expect(quota.known().quota?.limit).toBe(4); // 1-4; call 0 within 25 ms of the window's end
	});

	it('a refusal with the quota filled just before the window is the quota late, not a limit on calls in flight', () => {
		const quota = new RateQuota();
		quota.recall({
			quota: { limit: 4, windowMs: 1000, announced: false, probeWindows: 64 },
			refusalMs: 100,
			arrivalMs: 5,
		});
		for (const seq of [0, 1, 2, 3]) quota.started(seq, 0); // in flight, taken by 5
		expect(quota.delayMs(1029)).toBe(1);
		quota.started(4, 1030);
		// The service still had calls 0-3 when call 4 arrived: it took them a little later than the
		// run reckons. Within a tenth of the window, that is the quota's margin, not four in flight.
		expect(quota.refused(4, tooMany(1000), 4, 5, 1040)).toBe('quota');
		expect(quota.delayMs(1040)).toBe(5 + 1050 - 1040); // the margin widened to 50
	});

	it('a try above the quota refused leaves the margin as it was: the try explains it', () => {
		const quota = new RateQuota();
		quota.recall({
			quota: { limit: 4, windowMs: 1000, announced: false, probeWindows: 1 },
			refusalMs: 100,
		});
		served(quota, [0, 1, 2, 3], 0, 10);
		for (const seq of [4, 5, 6, 7]) quota.started(seq, 1025);
		quota.delayMs(1025); // held at 4
		for (const seq of [4, 5, 6, 7]) quota.answered(seq, 1035); // a clean window: tries 5
		quota.started(8, 1035);
		quota.refused(8, tooMany(1000), 0, 9, 1040); // calls 0-3 within a tenth of the window
		expect(quota.delayMs(1040)).toBe(1025 + 1025 - 1040); // 4 again, the margin still 25
	});

	it('a known quota refused anew at its size widens the margin, up to a tenth of the window', () => {
		const quota = steadyQuotaOfFour();
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
		// Found by a refusal (read with call 5 next): a recalled quota has read no wave yet.
		const { quota } = quotaOfFour();
		quota.started(5, 1025);
		// Back in 2 s: the window grows to 2 s, calls 0-3 fill it: the quota refused at its size.
		quota.refused(5, tooMany(2000), 0, 6, 1125);
		expect(quota.delayMs(1125)).toBe(2000 + 50 - 1125);
	});

	it('a refusal of an old wave read late does not move the wave on', () => {
		const quota = steadyQuotaOfFour();
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
		const quota = steadyQuotaOfFour();
		served(quota, [5, 6, 7, 8], 1025, 1125);
		quota.started(9, 1025);
		quota.started(10, 1025);
		quota.refused(9, tooMany(1000, { limit: 4 }), 0, 11, 1125); // stated
		quota.refused(10, tooMany(1000), 0, 11, 1125); // same wave
		expect(quota.delayMs(1125)).toBe(925);
		served(quota, [11, 12, 13], 3000, 3100);
		quota.started(14, 3000);
		// 3 of 4 went through (another client took one): the pace goes down to 3, the margin stays
		// (else 975).
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

	it('a call in flight longer than a window after it was taken no longer counts', () => {
		const quota = steadyQuotaOfFour();
		quota.started(5, 1100); // a slow call, still out: taken by 1100 (no answer was sent late)
		served(quota, [6, 7, 8], 1300, 1400);
		expect(quota.delayMs(1400)).toBe(1100 + 1025 - 1400); // 5, 6, 7 and 8: full
		expect(quota.delayMs(2125)).toBe(0); // 5 left the window, though it is still out
	});
});
