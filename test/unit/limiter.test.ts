import { RunStopped } from '../../nodes/shared/errors';
import {
	Limiter,
	announcedIn,
	forgetLimiters,
	limiterFor,
	retryAfterMs,
	type Permit,
} from '../../nodes/shared/limiter';

// The limiter's rules one at a time, on jest's fake clock. limiterService.test.ts holds it to
// the requirements against a modelled service.

beforeEach(() => jest.useFakeTimers({ now: 0 }));
afterEach(() => jest.useRealTimers());

const ok = { status: 200 };
const tooMany = (headers: Record<string, string> = {}) => ({ status: 429, headers });

/** Takes `count` permits at once (each must be granted now). */
async function take(limiter: Limiter, count: number, maxInFlight = 100): Promise<Permit[]> {
	return await Promise.all(
		Array.from({ length: count }, async () => await limiter.acquire(maxInFlight)),
	);
}

/** A call asked for now is held `heldMs`, and let through within `slackMs` after. */
async function expectGrantedAfter(limiter: Limiter, heldMs: number, slackMs: number) {
	let granted = false;
	void limiter.acquire(100).then(() => (granted = true));
	await jest.advanceTimersByTimeAsync(heldMs);
	expect(granted).toBe(false);
	await jest.advanceTimersByTimeAsync(slackMs);
	expect(granted).toBe(true);
}

/** Whether a call asked for now is let through within `ms`. */
async function grantedWithin(limiter: Limiter, ms: number, maxInFlight = 100) {
	let granted = false;
	void limiter.acquire(maxInFlight).then(() => (granted = true));
	await jest.advanceTimersByTimeAsync(ms);
	return granted;
}

describe('what the headers say of a quota', () => {
	it.each([
		[
			'draft-11',
			{ 'ratelimit-policy': '"default";q=10;w=1', ratelimit: '"default";r=3;t=2' },
			{ limit: 10, windowMs: 1000, remaining: 3, resetMs: 2000 },
		],
		[
			'draft-8',
			{ 'ratelimit-policy': '60;w=60', 'ratelimit-remaining': '0', 'ratelimit-reset': '5' },
			{ limit: 60, windowMs: 60_000, remaining: 0, resetMs: 5000 },
		],
		[
			'RateLimit-Limit with its window',
			{ 'ratelimit-limit': '10, 10;w=1' },
			{ limit: 10, windowMs: 1000 },
		],
		[
			'X-RateLimit-*, the reset a Unix time',
			{
				'x-ratelimit-limit': '100',
				'x-ratelimit-remaining': '7',
				'x-ratelimit-reset': '2000000005',
			},
			{ limit: 100, remaining: 7, resetMs: 5000 },
		],
		['nothing', {}, {}],
		['a quota of 0 (no window to pace to)', { 'ratelimit-policy': '0;w=1' }, { windowMs: 1000 }],
	])('%s', (_name, headers, announced) => {
		const read = announcedIn(headers, 2_000_000_000_000);
		expect(Object.fromEntries(Object.entries(read).filter(([, v]) => v !== undefined))).toEqual(
			announced,
		);
	});

	it('Retry-After in seconds or as an HTTP date; nothing when it is missing or unreadable', () => {
		const now = Date.parse('2026-12-03T12:00:00Z');
		expect(retryAfterMs({ 'retry-after': '7' }, now)).toBe(7000);
		expect(retryAfterMs({ 'retry-after': 'Thu, 03 Dec 2026 12:00:12 GMT' }, now)).toBe(12_000);
		expect(retryAfterMs({ 'retry-after': 'soon' }, now)).toBeUndefined();
		expect(retryAfterMs({ 'retry-after': ' ' }, now)).toBeUndefined();
		expect(retryAfterMs({}, now)).toBeUndefined();
	});
});

describe('the gate on calls in flight (inflight_hi)', () => {
	it('starts at Max Calls in Flight and lets no more out', async () => {
		const limiter = new Limiter(3);
		await take(limiter, 3, 3);
		expect(await grantedWithin(limiter, 1000, 3)).toBe(false);
	});

	it("a refusal above every count answered is the cap: inflight_hi under the fewest in flight of a wave's refusals, read in any order", async () => {
		const limiter = new Limiter(40);
		const wave = await take(limiter, 6);
		for (const permit of wave.slice(0, 3)) permit.done(ok);
		// Sent with 5, 4 and 6 in flight, above the 3 answered, and read out of order: the cap.
		wave[4].done(tooMany({ 'retry-after': '0' }));
		wave[3].done(tooMany({ 'retry-after': '0' }));
		wave[5].done({ code: 'ECONNRESET' });
		expect(limiter.state()).toMatchObject({ inflightHi: 3, rate: undefined });
	});

	it("a first burst's answers show nothing, read before its refusals or after: a call counted 6th may have gone out first", async () => {
		const limiter = new Limiter(40);
		const burst = await take(limiter, 6);
		// n8n sent the 6th before the 5th: taken, yet 6 were never in flight at the service.
		burst[5].done(ok);
		burst[4].done(tooMany({ 'retry-after': '0' }));
		for (const permit of burst.slice(0, 4)) permit.done(ok);
		expect(limiter.state().inflightHi).toBe(4);
		// So a probe refused with 5 in flight is the cap again, not the rate.
		const wave = await take(limiter, 5);
		wave[4].done(tooMany({ 'retry-after': '0' }));
		expect(limiter.state()).toMatchObject({ inflightHi: 4, rate: undefined });
		for (const permit of wave.slice(0, 4)) permit.done(ok);
		await jest.advanceTimersByTimeAsync(0);
		expect(limiter.state().rate).toBeUndefined();
	});

	it('cruises at inflight_hi; a refused probe above it waits 20 Retry-Afters for the next', async () => {
		const limiter = new Limiter(40);
		const wave = await take(limiter, 3);
		wave[0].done(ok);
		wave[2].done(tooMany({ 'retry-after': '1' }));
		wave[1].done(ok);
		// Found, not yet probed: one above it goes once the Retry-After has passed.
		await jest.advanceTimersByTimeAsync(1000);
		const [first, second, probe] = await take(limiter, 3);
		probe.done(tooMany({ 'retry-after': '1' }));
		first.done(ok);
		second.done(ok);
		expect(limiter.state().inflightHi).toBe(2);
		await jest.advanceTimersByTimeAsync(1000);
		await take(limiter, 2);
		await expectGrantedAfter(limiter, 18_900, 200);
	});

	it('grows while probing by one an answer while half of it is in use and calls wait, up to Max Calls in Flight', async () => {
		const limiter = new Limiter(6);
		const wave = await take(limiter, 4, 6);
		wave[0].done(ok);
		wave[3].done(tooMany({ 'retry-after': '0' }));
		expect(limiter.state().inflightHi).toBe(3);
		const more = await take(limiter, 2, 6);
		// No call waits: the answer shows no need of more (BBR's application-limited sample).
		more[0].done(ok);
		expect(limiter.state().inflightHi).toBe(3);
		const waiting = Array.from({ length: 8 }, async () => await limiter.acquire(6));
		// Calls wait: the probe, sent with 4 in flight, answered: one above it; the first burst's: none.
		for (const permit of [more[1], wave[1], wave[2]]) permit.done(ok);
		expect(limiter.state().inflightHi).toBe(5);
		for (const permit of await Promise.all(waiting.slice(0, 6))) permit.done(ok);
		expect(limiter.state().inflightHi).toBe(6);
	});

	it('a server error (500) shows no count safe', async () => {
		const limiter = new Limiter(40);
		const burst = await take(limiter, 3);
		burst[2].done(tooMany({ 'retry-after': '0' }));
		for (const permit of burst.slice(0, 2)) permit.done(ok);
		// Under inflight_hi 2: a 500 with 2 in flight, an answer with 1.
		const [one, two] = await take(limiter, 2);
		two.done({ status: 500 });
		one.done(ok);
		// So a refusal with 2 in flight is above the count shown safe: the cap's.
		const [, refused] = await take(limiter, 2);
		refused.done(tooMany({ 'retry-after': '0' }));
		expect(limiter.state()).toMatchObject({ inflightHi: 1, rate: undefined });
	});

	it('a dropped connection is read as a refusal of the cap, without closing the gates', async () => {
		const limiter = new Limiter(40);
		const [, dropped] = await take(limiter, 2);
		dropped.done({ code: 'ECONNRESET' });
		expect(limiter.state()).toMatchObject({ inflightHi: 1, closedForMs: 0 });
	});

	it("a run with a larger Max Calls in Flight raises the ceiling; a permit's answer counts once", async () => {
		const limiter = new Limiter(2);
		const [permit] = await take(limiter, 4, 4);
		permit.done(ok);
		permit.done(ok);
		await take(limiter, 1, 4);
		expect(await grantedWithin(limiter, 0, 4)).toBe(false);
	});
});

describe('the learnt rate (CUBIC, as the AWS SDKs)', () => {
	/** W_max 5/s, K = ∛(W_max × (1 − β) / C) seconds. */
	const K = Math.cbrt((5 * 0.3) / 0.4);

	/** When throttled() has the rate's refusal. */
	const REFUSED_AT = 1100;

	/**
	 * A cap read from a first burst (its 6th refused); five calls under it answered a second later
	 * (shown safe); 100 ms on, one refused with fewer in flight (the rate's) and one of its wave; a
	 * call once the Retry-After has passed reads the rate.
	 */
	async function throttled() {
		const limiter = new Limiter(100);
		const burst = await take(limiter, 6);
		burst[5].done(tooMany({ 'retry-after': '1' }));
		for (const permit of burst.slice(0, 5)) permit.done(ok);
		await jest.advanceTimersByTimeAsync(1000);
		for (const permit of await take(limiter, 5)) permit.done(ok);
		await jest.advanceTimersByTimeAsync(100);
		const [refused, late] = await take(limiter, 2);
		refused.done(tooMany({ 'retry-after': '1' }));
		late.done(tooMany({ 'retry-after': '1' }));
		expect(limiter.state().rate).toBeUndefined();
		await jest.advanceTimersByTimeAsync(1000);
		(await take(limiter, 1))[0].done(ok);
		return limiter;
	}

	it('a refusal at a count already answered is the rate: W_max the calls taken in the Retry-After before it, then β of it, back in K', async () => {
		const limiter = await throttled();
		// A second after the refusal: C·(1 − K)³ + W_max.
		expect(limiter.state().rate).toBeCloseTo(5 + 0.4 * (1 - K) ** 3, 5);
		expect(limiter.state(REFUSED_AT).rate).toBeCloseTo(0.7 * 5, 5);
		await jest.advanceTimersByTimeAsync(1000);
		expect(limiter.state().rate).toBe(5);
	});

	it('holds W_max for 20 Retry-Afters, then grows above it: a limit not confirmed is tried again', async () => {
		const limiter = await throttled();
		await jest.advanceTimersByTimeAsync(20_000);
		expect(limiter.state().rate).toBe(5);
		await jest.advanceTimersByTimeAsync(3000);
		const t = (Date.now() - REFUSED_AT) / 1000;
		expect(limiter.state().rate).toBeCloseTo(5 + 0.4 * (t - K - 20) ** 3, 5);
	});

	it('a refusal of a call let out the moment it asked (app-limited, BBR) keeps W_max at the rate in force', async () => {
		const limiter = await throttled();
		await jest.advanceTimersByTimeAsync(3000);
		(await take(limiter, 1))[0].done(ok);
		await jest.advanceTimersByTimeAsync(300);
		const refusedAt = Date.now();
		(await take(limiter, 1))[0].done(tooMany({ 'retry-after': '1' }));
		await jest.advanceTimersByTimeAsync(1000);
		(await take(limiter, 1))[0].done(ok);
		// One call taken in the second before it: read from that, W_max would be 1 a second.
		expect(limiter.state(refusedAt).rate).toBeCloseTo(0.7 * 5, 5);
	});

	it('a refusal at W_max is no probe: the spacing of 20 Retry-Afters of the last one stays', async () => {
		const limiter = await throttled();
		await jest.advanceTimersByTimeAsync(3000);
		const first = await limiter.acquire(100);
		const waiting = limiter.acquire(100);
		await jest.advanceTimersByTimeAsync(200);
		const paced = await waiting;
		first.done(ok);
		const refusedAt = Date.now();
		paced.done(tooMany({ 'retry-after': '0.5' }));
		await jest.advanceTimersByTimeAsync(500);
		(await take(limiter, 1))[0].done(ok);
		// W_max 2 a second (one call in the half second before); flat for 20 s, not 20 × 0.5 s.
		const k = Math.cbrt((2 * 0.3) / 0.4);
		expect(limiter.state(refusedAt + (k + 15) * 1000).rate).toBe(2);
		expect(limiter.state(refusedAt + (k + 21) * 1000).rate).toBeGreaterThan(2);
	});

	it('paces the calls one by one at the rate', async () => {
		const limiter = await throttled();
		await jest.advanceTimersByTimeAsync(3000);
		(await take(limiter, 1))[0].done(ok);
		// W_max 5/s: the next a fifth of a second on.
		await expectGrantedAfter(limiter, 199, 2);
	});

	it('a quota the headers state replaces the learnt rate: not learnt', async () => {
		const limiter = await throttled();
		await jest.advanceTimersByTimeAsync(1000);
		(await take(limiter, 1))[0].done({ status: 200, headers: { 'ratelimit-policy': '3;w=1' } });
		expect(limiter.state()).toMatchObject({ quota: { limit: 3, windowMs: 1000 }, rate: undefined });
	});
});

describe('the window gate', () => {
	it('a Retry-After holds every call back until it has passed', async () => {
		const limiter = new Limiter(10);
		const [permit] = await take(limiter, 1);
		permit.done(tooMany({ 'retry-after': '2' }));
		expect(await grantedWithin(limiter, 1990)).toBe(false);
		await jest.advanceTimersByTimeAsync(20);
		expect(limiter.state().closedForMs).toBe(0);
	});

	it('a quota in headers paces the calls: no more than it in a window (and its margin)', async () => {
		const limiter = new Limiter(100);
		const [first, ...rest] = await take(limiter, 3);
		first.done({ status: 200, headers: { 'ratelimit-policy': '3;w=1' } });
		for (const permit of rest) permit.done(ok);
		expect(limiter.state().quota).toEqual({ limit: 3, windowMs: 1000 });
		expect(await grantedWithin(limiter, 1000)).toBe(false);
		expect(await grantedWithin(limiter, 60)).toBe(true);
	});

	it('the window rolls: each call waits for the one a quota before it to leave the window', async () => {
		const limiter = new Limiter(100);
		const [first] = await take(limiter, 1);
		first.done({ status: 200, headers: { 'ratelimit-policy': '2;w=1' } });
		await jest.advanceTimersByTimeAsync(600);
		(await take(limiter, 1))[0].done(ok);
		// The window taken 5 % longer: the call of 0 leaves it at 1,050, the one of 600 at 1,650.
		expect(limiter.state().closedForMs).toBe(450);
		await jest.advanceTimersByTimeAsync(450);
		(await take(limiter, 1))[0].done(ok);
		expect(limiter.state().closedForMs).toBe(600);
	});

	it('Remaining 0 without a window holds off until the reset', async () => {
		const limiter = new Limiter(10);
		const [first, last] = await take(limiter, 2);
		first.done({
			status: 200,
			headers: { 'x-ratelimit-remaining': '1', 'x-ratelimit-reset': '3' },
		});
		expect(limiter.state().closedForMs).toBe(0);
		last.done({ status: 200, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '3' } });
		expect(limiter.state().closedForMs).toBe(3000);
	});
});

describe('runs and services', () => {
	it("a stopped run's waiting call leaves the queue; a stopped run gets no permit", async () => {
		const limiter = new Limiter(1);
		const [permit] = await take(limiter, 1, 1);
		const stop = new AbortController();
		const waiting = limiter.acquire(1, stop.signal);
		stop.abort(new RunStopped('Another search failed'));
		await expect(waiting).rejects.toThrow('Another search failed');
		await expect(limiter.acquire(1, stop.signal)).rejects.toBeInstanceOf(RunStopped);
		permit.done(ok);
		expect(await grantedWithin(limiter, 0, 1)).toBe(true);
	});

	it('one limiter per service in the process, the least recently used of 100 forgotten', () => {
		forgetLimiters();
		const first = limiterFor('service 0', 10);
		const used = limiterFor('service 1', 10);
		for (let n = 2; n < 100; n++) limiterFor(`service ${n}`, 10);
		expect(limiterFor('service 1', 50)).toBe(used);
		limiterFor('service 100', 10);
		expect(limiterFor('service 1', 10)).toBe(used);
		expect(limiterFor('service 0', 10)).not.toBe(first);
		forgetLimiters();
		expect(limiterFor('service 1', 10)).not.toBe(used);
		forgetLimiters();
	});
});
