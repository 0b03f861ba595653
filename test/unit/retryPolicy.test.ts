import { MAX_RETRY_AFTER_MS, retryDelayMs } from '../../nodes/shared/pages';

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
});
