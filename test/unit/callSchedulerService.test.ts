import {
	capped,
	cappedAtService,
	keywordList,
	quota,
	unlimited,
	type Busy,
	type Service,
} from './modelledService';

// The scheduler against a modelled service on jest's fake clock (modelledService.ts): a keyword
// list of one page per keyword, as the node sends it, at a quick service's latency and at a real
// one's (a search that reads public data takes seconds). What each case must show is issue 30's:
// a list starts at once, a service's limit costs one burst of (free) refusals at first contact,
// and a later run against it starts at the pace the earlier one found.

beforeEach(() => jest.useFakeTimers({ now: 0 }));
afterEach(() => jest.useRealTimers());

const MAX_IN_FLIGHT = 200;

describe.each([150, 2000])(
	'CallScheduler against a modelled service, %i ms an answer',
	(latencyMs) => {
		const options = { latencyMs, maxInFlight: MAX_IN_FLIGHT };
		/** Calls at 10 a second from the first window on: the last window opens 19 s after the first. */
		const quotaIdealMs = 19_000 + latencyMs;

		it('no limit: 200 searches all start at once, in one round trip', async () => {
			const run = await keywordList(200, unlimited(), options);
			expect(run).toMatchObject({ ms: latencyMs, refused: 0, mostInFlight: 200 });
		});

		it('1,000 searches: Max Calls in Flight at a time', async () => {
			const run = await keywordList(1000, unlimited(), options);
			expect(run).toMatchObject({ ms: 5 * latencyMs, mostInFlight: MAX_IN_FLIGHT });
		});

		it('at 10 a second: first contact near the quota, one burst refused; a later run refuses at most 1 %', async () => {
			const first = await keywordList(200, quota(10, 1000), options);
			expect(first.taken).toBe(200);
			expect(quotaIdealMs / first.ms).toBeGreaterThan(0.9);
			// The first burst, and one try above the quota.
			expect(first.refused).toBeLessThanOrEqual(MAX_IN_FLIGHT + 10);
			expect(first.learned.quota).toMatchObject({ limit: 10, windowMs: 1000 });

			const later = await keywordList(200, quota(10, 1000), { ...options, learned: first.learned });
			expect(quotaIdealMs / later.ms).toBeGreaterThan(0.9);
			expect(later.refused).toBeLessThanOrEqual(2);
		});

		it('a quota announced in headers: paced to from the first answers, none refused in a later run', async () => {
			const first = await keywordList(200, quota(10, 1000, { headers: true }), options);
			expect(quotaIdealMs / first.ms).toBeGreaterThan(0.95);
			expect(first.learned.quota).toMatchObject({ limit: 10, announced: true });

			const later = await keywordList(200, quota(10, 1000, { headers: true }), {
				...options,
				learned: first.learned,
			});
			expect(later.refused).toBe(0);
			expect(quotaIdealMs / later.ms).toBeGreaterThan(0.95);
		});

		it('a quota announced in headers, after a run the quota took whole: a later run near it', async () => {
			// No refusal yet, so the quickest answer is a page. Before: 85 % at 150 ms (the pump's
			// timer, set while the window's calls were out, was not brought forward by their answers)
			// and 52 % at 2 s (a call in flight placed a whole page late: a window per round trip).
			const service = () => quota(10, 1000, { headers: true });
			const first = await keywordList(10, service(), options);
			expect(first.refused).toBe(0);
			const later = await keywordList(200, service(), { ...options, learned: first.learned });
			expect(later.refused).toBe(0);
			expect(quotaIdealMs / later.ms).toBeGreaterThan(0.9);
		});

		it.each([
			['9 calls', Array(9).fill(0)],
			['5 calls', Array(5).fill(0)],
		])(
			'first contact right after another client of the key took %s of the quota: the run recovers',
			async (_case, flood) => {
				const run = await keywordList(200, quota(10, 1000, { flood }), options);
				// Before: the run kept the pace it read in its first window (9 calls taken by the other
				// client: 9 % of the quota at 150 ms, 42 % at 2 s). 79.6 % at 2 s since a refused try
				// goes back to the level it tried from (8, not the 10 it counted): a slower way up than
				// a count, which a busy n8n's readings made too high (callSchedulerService's out of order).
				expect(quotaIdealMs / run.ms).toBeGreaterThan(0.78);
				expect(run.learned.quota?.limit).toBe(10);
			},
		);

		it.each([
			['9 calls', Array(9).fill(0)],
			['5 calls', Array(5).fill(0)],
			['30 calls 200 ms before', Array(30).fill(-200)],
		])(
			'right after another client of the key took %s of the quota, a later run goes back up to it',
			async (_case, flood) => {
				const first = await keywordList(200, quota(10, 1000), options);
				const later = await keywordList(200, quota(10, 1000, { flood }), {
					...options,
					learned: first.learned,
				});
				expect(quotaIdealMs / later.ms).toBeGreaterThan(0.85);
				expect(later.learned.quota?.limit).toBe(10);
			},
		);

		it('at 60 a minute: the quota, and a later run refuses at most one call', async () => {
			const first = await keywordList(200, quota(60, 60_000), options);
			const ideal = 180_000 + latencyMs;
			expect(ideal / first.ms).toBeGreaterThan(0.95);
			const later = await keywordList(200, quota(60, 60_000), {
				...options,
				learned: first.learned,
			});
			expect(ideal / later.ms).toBeGreaterThan(0.95);
			expect(later.refused).toBeLessThanOrEqual(1);
		});
	},
);

/** A first contact and a later run at 2 s an answer in a busy n8n, each on a service from `make`. */
async function firstAndLater(make: () => Service, busy: Busy, laterKeywords = 200) {
	const options = { latencyMs: 2000, maxInFlight: MAX_IN_FLIGHT, busy };
	const first = await keywordList(200, make(), options);
	const later = await keywordList(laterKeywords, make(), { ...options, learned: first.learned });
	return { first, later };
}

describe('CallScheduler at 10 a second in a busy n8n', () => {
	it('2 s an answer, 4 ms to send each call and to read each answer: first contact finds the quota, not 10 calls in flight', async () => {
		// The burst's 190 refusals are read one after another: the slowest 1.5 s after its start.
		// Counted as sent that late, the calls in flight always filled the candidate quota's window
		// while the run kept its bound of 10 full, so the call beyond the bound that tells the two
		// apart never went out: 10 calls in flight, 5 a second, in this run and every later one.
		const options = { latencyMs: 2000, maxInFlight: MAX_IN_FLIGHT };
		const busy = { startMs: 0, perCallMs: 4 };
		const first = await keywordList(200, quota(10, 1000), { ...options, busy });
		expect(first.learned.quota).toMatchObject({ limit: 10, windowMs: 1000 });
		expect(first.learned.bound).toBeUndefined();
		expect(21_000 / first.ms).toBeGreaterThan(0.85);
		const later = await keywordList(200, quota(10, 1000), {
			...options,
			busy,
			learned: first.learned,
		});
		expect(21_000 / later.ms).toBeGreaterThan(0.9);
		expect(later.refused).toBeLessThanOrEqual(2);
	});

	it('2 s an answer, right after another client used up the quota, refusals read out of order: near the quota', async () => {
		const flooded = () => quota(10, 1000, { flood: Array(10).fill(0) });
		const busy = { startMs: 0, perCallMs: 1, scrambleMs: 300 };
		const { first, later } = await firstAndLater(flooded, busy);
		// Before: 58 % and 85 %. A refusal read before those of the calls ahead of it lowered the
		// bound to calls the service had refused too (to 1 at worst), and set a quota of as many.
		expect(21_000 / first.ms).toBeGreaterThan(0.8);
		expect(21_000 / later.ms).toBeGreaterThan(0.88);
	});

	it('2 s an answer, 4 ms a call, refusals read out of order: a try above the quota is not read as more', async () => {
		// Before: 50 % and 49 %. The try's refusals, read late and out of order, made a quota of 10
		// read 12; every window's last calls were refused, read as a limit on calls in flight, and
		// the bound stayed at 10 calls (5 a second) in this run and the next.
		const busy = { startMs: 0, perCallMs: 4, scrambleMs: 200 };
		const { first, later } = await firstAndLater(() => quota(10, 1000), busy);
		expect(21_000 / first.ms).toBeGreaterThan(0.85);
		expect(21_000 / later.ms).toBeGreaterThan(0.9);
		expect(later.learned.quota?.limit).toBe(10);
	});

	it("2 s an answer, another client's window freeing during the first burst, read out of order: near the quota", async () => {
		// Before: 49 % and 52 %. The other client's calls leave the window while n8n sends the
		// burst, so some of it is taken, and a try's refusals read out of order made the quota read
		// high. 77 % and 72 % now: a bound lowered twice gets one step back when a call beyond it
		// is taken (given back whole, a quota with a limit of 3 calls in flight refused a wave more).
		// (The later run was 76 % before calls in flight were placed by the spread of round trips:
		// with 200 ms of scramble instead of 300 it went from 53 % to 72 %.)
		const flooded = () => quota(10, 1000, { flood: Array(10).fill(-700) });
		const busy = { startMs: 0, perCallMs: 3, scrambleMs: 300 };
		const { first, later } = await firstAndLater(flooded, busy, 1000);
		expect(21_000 / first.ms).toBeGreaterThan(0.75);
		// One burst refused, and tries. A candidate that took its reading from a later refusal
		// (more calls ahead) instead of keeping the one with the fewest, which the recount drops
		// once those calls' refusals are read, refused 382: a second wave.
		expect(first.refused).toBeLessThanOrEqual(MAX_IN_FLIGHT + 10);
		expect(101_000 / later.ms).toBeGreaterThan(0.7);
	});

	it('150 ms an answer, 4 ms a call, a quota in headers: first contact near it', async () => {
		// Before: 82.5 %. The pump's timer, set while a window's calls were out (placed late, as n8n
		// may have sent them late), was not brought forward when their answers placed them early.
		const options = {
			latencyMs: 150,
			maxInFlight: MAX_IN_FLIGHT,
			busy: { startMs: 0, perCallMs: 4 },
		};
		const first = await keywordList(200, quota(10, 1000, { headers: true }), options);
		expect(19_150 / first.ms).toBeGreaterThan(0.9);
	});

	it('150 ms an answer, n8n busy starting each run: a later run gets no window of refusals', async () => {
		// n8n builds the run's requests (300 ms) before it sends any, then takes 20 ms to send each
		// call and to read each answer. So the first answers are late by n8n, not by the service:
		// placed by the run's own quickest call, they seemed taken up to 300 ms early, and the next
		// second's calls went out while the service still counted them (8 refused). At 2 s an
		// answer this first contact reads the quota as a limit of 10 calls in flight, so there is
		// no quota to place (docs/rate-limits.md, "A per-second quota at a latency of seconds").
		const options = { latencyMs: 150, maxInFlight: MAX_IN_FLIGHT };
		const busy = { startMs: 300, perCallMs: 20 };
		const first = await keywordList(200, quota(10, 1000), { ...options, busy });
		expect(first.learned.quota).toMatchObject({ limit: 10, windowMs: 1000 });
		const later = await keywordList(200, quota(10, 1000), {
			...options,
			busy,
			learned: first.learned,
		});
		expect(later.refused).toBeLessThanOrEqual(2);
	});
});

describe('CallScheduler at 60 a minute in a busy n8n', () => {
	it('20 ms to send each call and to read each answer: a later run refuses at most one call', async () => {
		// n8n sends the first burst over 4 s, so the service's first refusal asks for 59 s (the
		// oldest call had been in the window for over a second). Read as a window of 59 s, a later
		// run sent each window's calls a second early: 17 refused (18 of 138 in the benchmark).
		const options = {
			latencyMs: 150,
			maxInFlight: MAX_IN_FLIGHT,
			busy: { startMs: 0, perCallMs: 20 },
		};
		const first = await keywordList(200, quota(60, 60_000), options);
		expect(first.learned.quota).toMatchObject({ limit: 60, windowMs: 60_000 });
		const later = await keywordList(200, quota(60, 60_000), { ...options, learned: first.learned });
		expect(later.refused).toBeLessThanOrEqual(1);
		expect((180_000 + 150) / later.ms).toBeGreaterThan(0.95);
	});
});

describe('CallScheduler against a service capped at 20 calls in flight, 2 s an answer', () => {
	it('first contact: at least 90 % of its capacity, one burst refused; a later run few', async () => {
		const options = { latencyMs: 2000, maxInFlight: MAX_IN_FLIGHT };
		const first = await keywordList(200, capped(20), options);
		const ideal = (200 / 20) * 2000;
		expect(ideal / first.ms).toBeGreaterThan(0.9);
		expect(first.refused).toBeLessThanOrEqual(MAX_IN_FLIGHT);
		expect(first.learned.bound).toBe(20);

		const later = await keywordList(200, capped(20), { ...options, learned: first.learned });
		// Each try of one call more is refused, and its keyword waits a round: 23 s, not 20.
		expect(ideal / later.ms).toBeGreaterThan(0.85);
		expect(later.refused).toBeLessThanOrEqual(4);
		expect(later.learned.bound).toBe(20);
	});

	it('first contact in a busy n8n (4 ms a call): the call beyond the candidate quota is timed as sent alone', async () => {
		// Timed by the slowest refusal of the first burst (read 0.8 s after it), nothing started
		// for 1.6 s while that one call was out: 90.0 %.
		const options = { latencyMs: 2000, maxInFlight: MAX_IN_FLIGHT };
		const busy = { startMs: 0, perCallMs: 4 };
		const first = await keywordList(200, capped(20), { ...options, busy });
		expect(20_000 / first.ms).toBeGreaterThan(0.92);
	});

	it('capped at 4, 150 ms an answer: 400 searches near its capacity once the limit is known', async () => {
		const options = { latencyMs: 150, maxInFlight: MAX_IN_FLIGHT };
		const first = await keywordList(400, capped(4), options);
		const ideal = (400 * 150) / 4;
		expect(first.taken).toBe(400);
		const later = await keywordList(400, capped(4), { ...options, learned: first.learned });
		expect(ideal / later.ms).toBeGreaterThan(0.85);
		expect(later.refused).toBeLessThanOrEqual(8);
	});
});

describe('CallScheduler against a service capped at 4 calls in flight, 30 ms each, in a busy n8n', () => {
	it('n8n reads each answer 100 ms after the service: every later run refuses few, its bound does not drift', async () => {
		// n8n counts more calls in flight than the service has, so the pace reads like a quota as
		// well (the queue layer's workers learn one), and calls are taken beyond the bound. Before:
		// the bound grew while the quota held the calls back, 19 at a later run's start, and every
		// later run refused 19 or 20 calls (47 in one queue-mode run).
		const options = {
			latencyMs: 130,
			maxInFlight: MAX_IN_FLIGHT,
			busy: { startMs: 200, perCallMs: 1 },
		};
		let run = await keywordList(500, cappedAtService(4, 30), options);
		for (let later = 1; later <= 3; later += 1) {
			run = await keywordList(500, cappedAtService(4, 30), { ...options, learned: run.learned });
			expect(run.taken).toBe(500);
			expect(run.refused).toBeLessThanOrEqual(10);
			expect(run.learned.bound).toBeLessThanOrEqual(10);
		}
	});
});

describe('CallScheduler against a quota of 10 a second, 2 s an answer, with a bound remembered beside it', () => {
	it('a later run tests the bound once the quota has room: near the quota, not the bound', async () => {
		// What a loaded n8n learned at first contact (engine layer, issue 30): a refusal it read
		// late, with 12 calls ahead, left a bound of 12 calls in flight: 6 a second at 2 s a call.
		const quotaLearned = { limit: 10, windowMs: 1000, announced: false, probeWindows: 2 };
		const learned = { bound: 12, quota: quotaLearned, refusalMs: 600, arrivalMs: 3 };
		const run = await keywordList(200, quota(10, 1000), {
			latencyMs: 2000,
			maxInFlight: 200,
			learned,
		});
		expect(21_000 / run.ms).toBeGreaterThan(0.85);
		// Doubled once the quota had room: 10 a second at 2 s a call needs 20 calls in flight.
		expect(run.learned.bound).toBe(24);
	});
});
