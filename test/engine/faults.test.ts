import type { INodeParameters } from 'n8n-workflow';
import {
	fetchDirect,
	searchOn,
	servicePage,
	soundIds,
	sounds,
	useReferenceService,
} from '../harness/engine/searchFixture';

const { service, search, calls } = useReferenceService();

type Fault = {
	match?: Record<string, unknown>;
	times?: number | 'always';
	response: Record<string, unknown>;
};
const inject = async (...faults: Fault[]) => await service().injectFaults(faults);
const searchLofi = async (options: INodeParameters = {}) =>
	await search({ query: 'lofi', limit: 5, options });
/** Each call the service saw, as `status:credits`. */
const outcomes = async () => (await calls()).map((call) => `${call.status}:${call.creditsCharged}`);

describe('authentication and credits faults are never retried', () => {
	it.each([
		[403, 'The API key is not allowed to search (403 Forbidden)', /Sound Search API credential/],
		[402, 'The API key has no credits left (402 Payment Required)', /Add credits/],
	])('%i: a clear error saying what to fix, one request', async (status, message, fix) => {
		await inject({ times: 'always', response: { status, body: { success: false } } });
		const run = await searchLofi();

		expect(run.error?.message).toBe(message);
		expect(run.error?.description).toMatch(fix);
		expect(await outcomes()).toEqual([`${status}:0`]);
	});

	it('401: clear error, one request (n8n re-sends no 401: statuses come back as answers)', async () => {
		const run = await search({ query: 'lofi' }, { apiKey: 'dummy-unknown-key' });

		expect(run.error?.message).toBe('The service rejected the API key (401 Unauthorized)');
		expect(await outcomes()).toEqual(['401:0']);
	});
});

describe('rate limits', () => {
	it('429 with Retry-After: waits as asked (3 s, not the 1 s default backoff), then succeeds', async () => {
		await inject({ response: { status: 429, headers: { 'Retry-After': '3' } } });
		const started = Date.now();
		const run = await searchLofi();

		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(5);
		expect(Date.now() - started).toBeGreaterThanOrEqual(3000);
		expect(await outcomes()).toEqual(['429:0', '200:1']);
	});

	it('429 is retried beyond Retries per Page, within Max Wait on Rate Limits', async () => {
		await inject({ times: 3, response: { status: 429, headers: { 'Retry-After': '0' } } });
		const run = await searchLofi({ maxRetries: 0 });

		expect(run.items).toHaveLength(5);
		expect(await outcomes()).toEqual(['429:0', '429:0', '429:0', '200:1']);
	});

	it('429 without Retry-After: backs off until the run has waited its budget, then a clear error', async () => {
		await inject({ times: 'always', response: { status: 429 } });
		const run = await searchLofi({ rateLimitWait: 2 });

		expect(run.error?.message).toBe(
			'The service is rate limiting this API key (429 Too Many Requests)',
		);
		expect(run.error?.description).toMatch(
			/not charged.*tried 2 times.*Max Wait on Rate Limits \(2 s\); 0 of 1 searches finished/s,
		);
		// Each refusal closes the gate 1 s: a second wait would pass the 2 s budget, two calls in all.
		expect(await outcomes()).toEqual(['429:0', '429:0']);
	});

	it('429 asking for longer than the budget left: fails at once instead of stalling', async () => {
		await inject({ response: { status: 429, headers: { 'Retry-After': '3600' } } });
		const run = await searchLofi();

		expect(run.error?.message).toMatch(/429/);
		expect(await outcomes()).toEqual(['429:0']);
	});
});

describe('service failures and timeouts', () => {
	it.each([
		['a 503', { status: 503, body: '<html>Service Unavailable</html>' }, ['503:0', '200:1']],
		['a dropped connection', { destroy: true }, ['null:0', '200:1']],
	])('%s is retried after a backoff and the search completes', async (_case, response, seen) => {
		await inject({ response });
		const run = await searchLofi();

		expect(run.items).toHaveLength(5);
		expect(await outcomes()).toEqual(seen);
	});

	it('a 500 that persists: bounded retries, then a clear error', async () => {
		await inject({ times: 'always', response: { status: 500, body: { success: false } } });
		const run = await searchLofi({ maxRetries: 2 });

		expect(run.error?.message).toBe('The service failed to answer (500)');
		expect(run.error?.description).toMatch(/not charged.*tried 3 times/s);
		expect(await outcomes()).toEqual(['500:0', '500:0', '500:0']);
	});

	it('a call slower than Timeout is abandoned and retried: the sounds are those of the retry', async () => {
		const slow = servicePage(sounds(5, 'slow'));
		await inject({ response: { status: 200, delayMs: 2500, body: slow } });
		const run = await searchLofi({ timeoutMs: 1000 });

		expect(run.error).toBeUndefined();
		expect(await outcomes()).toEqual(['200:0', '200:1']);
		// The retry was answered by the service; a direct call now repeats that reading.
		const answered = await fetchDirect(service(), 'shortvideo', { q: 'lofi', limit: 5 });
		expect(soundIds(run)).toEqual(answered.items.map((sound) => sound.soundId));
		expect(run.items.every(({ json }) => json.creditsCharged === 1)).toBe(true);
	});

	it('a timeout with no retries left is a clear error', async () => {
		await inject({ response: { status: 200, delayMs: 2500, body: servicePage([]) } });
		const run = await searchLofi({ timeoutMs: 1000, maxRetries: 0 });

		expect(run.error?.message).toBe('The service did not answer in time');
		expect(await outcomes()).toEqual(['200:0']);
	});

	it('a refused connection is a clear error naming the Base URL', async () => {
		// Port 9 (discard) on loopback: nothing listens there on these machines.
		const run = await searchOn('http://127.0.0.1:9', { query: 'lofi', options: { maxRetries: 0 } });

		expect(run.error?.message).toBe('Could not reach the Sound Search service');
		expect(run.error?.description).toMatch(/ECONNREFUSED.*Base URL/);
	});
});

describe('answers that are not a page of sounds', () => {
	it.each([
		['an HTML page', '<html><body>Bad gateway</body></html>', /not JSON: <html><body>Bad gateway/],
		[
			'a truncated body',
			'{"success":true,"available":true,"data":{"items":[{"soundId":"1"',
			/not JSON: \{"success":true/,
		],
		[
			'JSON without data.items',
			{ success: true, available: true, data: {} },
			/without a list of sounds at data.items/,
		],
		['items that is not a list', servicePage('none' as never), /without a list of sounds/],
		[
			'success: false',
			{ success: false, error: { code: 'quota_exceeded', message: 'Daily quota used' } },
			/success: false \(quota_exceeded: Daily quota used\)/,
		],
		['an empty nextCursor', servicePage(sounds(2), ''), /a nextCursor that is not a string: $/],
		['a nextCursor that is a number', servicePage(sounds(2), 42 as never), /not a string: 42$/],
		[
			'sounds that are not objects',
			servicePage([{ soundId: 's0' }, 'x'] as never),
			/without a list of sounds at data.items/,
		],
		[
			'a long HTML page, cut in the message',
			`<html>${'x'.repeat(500)}</html>`,
			new RegExp(`not JSON: <html>x{194}…$`),
		],
		['success: false with a text error', { success: false, error: 'Slow down' }, /\(Slow down\)$/],
		['success: false without details', { success: false }, /\(no error details\)$/],
		[
			'available: false without a status',
			{ success: true, available: false },
			/available: false with status "unknown"$/,
		],
	])('%s: a clear error, never an empty success, not retried', async (_case, body, message) => {
		await inject({ response: { status: 200, body, creditsCharged: 1 } });
		const run = await searchLofi();

		expect(run.items).toHaveLength(0);
		expect(run.error?.message).toMatch(message);
		expect(run.error?.description).toMatch(/charged 1 credit/);
		expect(await outcomes()).toEqual(['200:1']);
	});
});

describe('X-Credits-Charged', () => {
	it.each([
		['missing', { creditsCharged: null }],
		['not a number', { headers: { 'X-Credits-Charged': 'two' } }],
		['negative', { headers: { 'X-Credits-Charged': '-2' } }],
	])(
		'%s: the sounds still come out, with creditsCharged null (unknown, not 0)',
		async (_case, response) => {
			await inject({ response: { status: 200, body: servicePage(sounds(2)), ...response } });
			const run = await searchLofi();

			expect(run.items.map(({ json }) => [json.soundId, json.creditsCharged])).toEqual([
				['s0', null],
				['s1', null],
			]);
		},
	);
});
