import { announcedIn, quotaHint } from '../../nodes/shared/quota';

describe('quotaHint: what the headers of a 429 state', () => {
	it.each([
		['RateLimit-Policy', { 'ratelimit-policy': '60;w=60' }, 60, 60_000],
		['RateLimit-Limit with a window', { 'ratelimit-limit': '10, 10;w=1' }, 10, 1000],
		['X-RateLimit-Limit', { 'x-ratelimit-limit': '100' }, 100, undefined],
		['no header', {}, undefined, undefined],
		['a value that is no count', { 'x-ratelimit-limit': 'many' }, undefined, undefined],
		[
			'RateLimit-Policy over RateLimit-Limit',
			{ 'ratelimit-policy': '5;w=2', 'ratelimit-limit': '10' },
			5,
			2000,
		],
		[
			'RateLimit-Limit over X-RateLimit-Limit',
			{ 'ratelimit-limit': '10', 'x-ratelimit-limit': '20' },
			10,
			undefined,
		],
		['a space before the count and the window', { 'ratelimit-limit': ' 10; w=30' }, 10, 30_000],
		[
			'a named policy (IETF draft 8 and later): its q= and w=',
			{ 'ratelimit-policy': '"burst";q=100;w=60' },
			100,
			60_000,
		],
		[
			'a named policy whose name has a digit: the count is its q=, not the digit',
			{ 'ratelimit-policy': '"tier2";q=50;w=10' },
			50,
			10_000,
		],
		['a count or a window of 0: none', { 'ratelimit-limit': '0;w=0' }, undefined, undefined],
		[
			'a count past what a number holds: none',
			{ 'x-ratelimit-limit': '99999999999999999999' },
			undefined,
			undefined,
		],
		['a value that is not text', { 'ratelimit-limit': 10 }, undefined, undefined],
	])('reads %s', (_case, headers, limit, windowMs) => {
		expect(quotaHint(headers, 1000)).toEqual({ retryAfterMs: 1000, limit, windowMs });
	});
});

describe('announcedIn: what the rate-limit headers of any answer state', () => {
	const NOW = 1_800_000_000_000;
	it.each([
		[
			'RateLimit-* (IETF draft 6, the reference service)',
			{
				'ratelimit-limit': '10',
				'ratelimit-remaining': '0',
				'ratelimit-reset': '1',
				'ratelimit-policy': '10;w=1',
			},
			{ limit: 10, windowMs: 1000, remaining: 0, resetMs: 1000 },
		],
		[
			'RateLimit and RateLimit-Policy (IETF draft 8 and later)',
			{ ratelimit: '"default";r=3;t=30', 'ratelimit-policy': '"default";q=100;w=60' },
			{ limit: 100, windowMs: 60_000, remaining: 3, resetMs: 30_000 },
		],
		[
			'X-RateLimit-* with the reset as a Unix time',
			{
				'x-ratelimit-limit': '60',
				'x-ratelimit-remaining': '59',
				'x-ratelimit-reset': String(NOW / 1000 + 20),
			},
			{ limit: 60, remaining: 59, resetMs: 20_000 },
		],
		['nothing', {}, {}],
	])('reads %s', (_case, headers, announced) => {
		// Strict: no key for what the headers do not state (transport.ts sends a page's
		// `announced` only when it has a key).
		expect(announcedIn(headers, NOW)).toStrictEqual(announced);
	});
});
