import {
	MAX_RETRY_AFTER_MS,
	failureVerdict,
	isCongestion,
	rateLimitDelayMs,
	retryDelayMs,
} from '../../nodes/shared/pages';

const NOW = Date.parse('2026-11-22T12:00:00Z');

describe('retry policy', () => {
	it.each([
		['a 503 backs off 1 s, 2 s, 4 s', { status: 503 }, [1000, 2000, 4000]],
		['a dropped connection is retried', { code: 'ECONNRESET' }, [1000, 2000, 4000]],
		['a timeout is retried', { code: 'ECONNABORTED' }, [1000, 2000, 4000]],
	])('%s', (_case, call, delays) => {
		expect([1, 2, 3].map((attempt) => retryDelayMs(call, attempt, 3, NOW))).toEqual(delays);
		expect(retryDelayMs(call, 4, 3, NOW)).toBeUndefined();
	});

	it.each([
		['429 (the rate-limit budget bounds those)', { status: 429 }],
		['401', { status: 401 }],
		['402', { status: 402 }],
		['403', { status: 403 }],
		['404', { status: 404 }],
		['a DNS failure', { code: 'ENOTFOUND' }],
		['an unknown failure', {}],
	])('never retries %s', (_case, call) => {
		expect(retryDelayMs(call, 1, 5, NOW)).toBeUndefined();
	});

	it('honours Retry-After in seconds and as an HTTP date', () => {
		expect(retryDelayMs({ status: 503, headers: { 'retry-after': '7' } }, 1, 2, NOW)).toBe(7000);
		const inTwelve = new Date(NOW + 12_000).toUTCString();
		expect(retryDelayMs({ status: 503, headers: { 'retry-after': inTwelve } }, 1, 2, NOW)).toBe(
			12_000,
		);
	});

	it('gives up rather than wait longer than it is willing to', () => {
		const tooLong = String(MAX_RETRY_AFTER_MS / 1000 + 1);
		expect(
			retryDelayMs({ status: 503, headers: { 'retry-after': tooLong } }, 1, 2, NOW),
		).toBeUndefined();
	});

	it('waits a Retry-After of exactly the longest it is willing to', () => {
		const longest = String(MAX_RETRY_AFTER_MS / 1000);
		expect(retryDelayMs({ status: 503, headers: { 'retry-after': longest } }, 1, 2, NOW)).toBe(
			MAX_RETRY_AFTER_MS,
		);
	});

	it('a 429 waits as its Retry-After asks, else 1 s, 2 s, 4 s… capped at 30 s', () => {
		expect(rateLimitDelayMs({ status: 429, headers: { 'retry-after': '7' } }, 1, NOW)).toBe(7000);
		expect([1, 2, 3, 6, 9].map((n) => rateLimitDelayMs({ status: 429 }, n, NOW))).toEqual([
			1000, 2000, 4000, 30_000, 30_000,
		]);
	});

	it.each([
		['a 429', { status: 429 }, true],
		['a refused connection', { code: 'ECONNREFUSED' }, true],
		['a reset connection', { code: 'ECONNRESET' }, true],
		['a 503', { status: 503 }, false],
		['a timeout', { code: 'ECONNABORTED' }, false],
	])('%s is a sign of congestion: %s', (_case, call, congested) => {
		expect(isCongestion(call)).toBe(congested);
	});

	it.each([
		['a 503', { status: 503 }],
		['a timeout', { code: 'ECONNABORTED' }],
		['a 402', { status: 402 }],
	])('%s says nothing of the service capacity (neutral, not a success)', (_case, call) => {
		expect(failureVerdict(call)).toEqual({ kind: 'neutral' });
	});

	it('a 429 is congestion carrying what it says of a quota; a reset connection carries none', () => {
		const headers = { 'retry-after': '2', 'ratelimit-policy': '10;w=1' };
		expect(failureVerdict({ status: 429, headers })).toEqual({
			kind: 'congested',
			waitMs: 2000,
			hint: { retryAfterMs: 2000, limit: 10, windowMs: 1000 },
		});
		expect(failureVerdict({ code: 'ECONNRESET' })).toEqual({ kind: 'congested', waitMs: 1000 });
	});
});
