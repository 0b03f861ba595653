import { quotaHint } from '../../nodes/shared/scheduler';

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
			'a named policy (no leading count): the window only',
			{ 'ratelimit-policy': '"burst";q=100;w=60' },
			undefined,
			60_000,
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
