import { runSoundSearch } from '../harness/engine';
import {
	requestsSeen,
	search,
	useReferenceService,
	type ReferenceService,
} from '../harness/searchFixture';

const { service } = useReferenceService();

type Fault = {
	match?: Record<string, unknown>;
	times?: number | 'always';
	response: Record<string, unknown>;
};
const inject = async (...faults: Fault[]) => await service().injectFaults(faults);
const page = (items: object[], nextCursor: string | null) => ({
	success: true,
	available: true,
	data: { items, nextCursor },
});
const sound = (soundId: string) => ({ soundId, title: `Sound ${soundId}` });
const noRetries = { options: { maxRetries: 0 } };

async function searchLofi(parameters: Record<string, unknown> = {}) {
	return await search(service(), {
		parameters: { platform: 'shortvideo', query: 'lofi', limit: 5, ...parameters },
	});
}

async function outcomes(svc: ReferenceService) {
	return (await requestsSeen(svc)).map((call) => `${call.status}:${call.creditsCharged}`);
}

describe('authentication and credits faults are never retried', () => {
	it('403: clear error pointing at the credential, one request', async () => {
		await inject({
			response: { status: 403, body: { success: false, error: { code: 'forbidden' } } },
		});
		const run = await searchLofi();

		expect(run.error?.message).toBe('The API key is not allowed to search (403 Forbidden)');
		expect(run.error?.description).toMatch(/Sound Search API credential/);
		expect(await outcomes(service())).toEqual(['403:0']);
	});

	it('401: clear error, one request (n8n re-sends no 401: statuses come back as answers)', async () => {
		const run = await search(service(), {
			parameters: { platform: 'shortvideo', query: 'lofi' },
			apiKey: 'dummy-unknown-key',
		});

		expect(run.error?.message).toBe('The service rejected the API key (401 Unauthorized)');
		expect(await outcomes(service())).toEqual(['401:0']);
	});

	it('402: says the credits are exhausted, one request', async () => {
		await inject({
			times: 'always',
			response: { status: 402, body: { success: false, error: { code: 'payment_required' } } },
		});
		const run = await searchLofi();

		expect(run.error?.message).toBe('The API key has no credits left (402 Payment Required)');
		expect(await outcomes(service())).toEqual(['402:0']);
	});
});

describe('rate limits', () => {
	it('429 with Retry-After: waits as asked (longer than any backoff), then succeeds', async () => {
		await inject({ response: { status: 429, headers: { 'Retry-After': '2' } } });
		const started = Date.now();
		const run = await searchLofi();

		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(5);
		expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
		expect(await outcomes(service())).toEqual(['429:0', '200:1']);
	});

	it('429 is retried beyond Retries per Page, within Max Wait on Rate Limits', async () => {
		await inject({ times: 3, response: { status: 429, headers: { 'Retry-After': '0' } } });
		const run = await searchLofi({ options: { maxRetries: 0 } });

		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(5);
		expect(await outcomes(service())).toEqual(['429:0', '429:0', '429:0', '200:1']);
	});

	it('429 without Retry-After: backs off until the run has waited its budget, then a clear error', async () => {
		await inject({ times: 'always', response: { status: 429 } });
		const run = await searchLofi({ options: { rateLimitWait: 2 } });

		expect(run.error?.message).toBe(
			'The service is rate limiting this API key (429 Too Many Requests)',
		);
		expect(run.error?.description).toMatch(
			/not charged.*tried 2 times.*Max Wait on Rate Limits \(2 s\) with 0 of 1 searches finished/s,
		);
		// Waits 1 s, then a 2 s wait would pass the 2 s budget: two calls in all.
		expect(await outcomes(service())).toEqual(['429:0', '429:0']);
	});

	it('429 asking for longer than the budget left: fails at once instead of stalling', async () => {
		await inject({ response: { status: 429, headers: { 'Retry-After': '3600' } } });
		const run = await searchLofi();

		expect(run.error?.message).toMatch(/429/);
		expect(await outcomes(service())).toEqual(['429:0']);
	});
});

describe('service failures and timeouts', () => {
	it('a 503 is retried after a backoff and the search completes', async () => {
		await inject({ response: { status: 503, body: '<html>Service Unavailable</html>' } });
		const run = await searchLofi();

		expect(run.items).toHaveLength(5);
		expect(await outcomes(service())).toEqual(['503:0', '200:1']);
	});

	it('a 500 that persists: bounded retries, then a clear error', async () => {
		await inject({ times: 'always', response: { status: 500, body: { success: false } } });
		const run = await searchLofi({ options: { maxRetries: 2 } });

		expect(run.error?.message).toBe('The service failed to answer (500)');
		expect(run.error?.description).toMatch(/not charged.*tried 3 times/s);
		expect(await outcomes(service())).toEqual(['500:0', '500:0', '500:0']);
	});

	it('a call slower than Timeout is abandoned and retried', async () => {
		await inject({ response: { status: 200, delayMs: 2500, body: page([sound('slow')], null) } });
		const run = await searchLofi({ options: { timeoutMs: 1000 } });

		expect(run.error).toBeUndefined();
		expect(run.items.map(({ json }) => json.soundId)).not.toContain('slow');
		expect((await requestsSeen(service())).length).toBe(2);
	});

	it('a timeout with no retries left is a clear error', async () => {
		await inject({ response: { status: 200, delayMs: 2500, body: page([], null) } });
		const run = await searchLofi({ options: { timeoutMs: 1000, maxRetries: 0 } });

		expect(run.error?.message).toBe('The service did not answer in time');
	});

	it('a dropped connection is retried', async () => {
		await inject({ response: { destroy: true } });
		const run = await searchLofi();

		expect(run.items).toHaveLength(5);
		expect((await requestsSeen(service())).length).toBe(2);
	});

	it('a refused connection is a clear error naming the Base URL', async () => {
		const run = await searchClosedPort();

		expect(run.error?.message).toBe('Could not reach the Sound Search service');
		expect(run.error?.description).toMatch(/ECONNREFUSED.*Base URL/);
	});
});

async function searchClosedPort() {
	// Port 9 (discard) on loopback: nothing listens there on these machines.
	return await runSoundSearch({
		parameters: { platform: 'shortvideo', query: 'lofi', ...noRetries },
		credentials: { apiKey: 'dummy-key-for-closed-port', baseUrl: 'http://127.0.0.1:9' },
	});
}

describe('answers that are not a page of sounds', () => {
	it.each([
		[
			'an HTML page',
			'<html><body>Bad gateway</body></html>',
			/body that is not JSON: <html><body>Bad gateway/,
		],
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
		[
			'items that is not a list',
			{ success: true, available: true, data: { items: 'none', nextCursor: null } },
			/without a list of sounds/,
		],
		[
			'success: false',
			{ success: false, error: { code: 'quota_exceeded', message: 'Daily quota used' } },
			/success: false \(quota_exceeded: Daily quota used\)/,
		],
	])('%s: a clear error, never an empty success, not retried', async (_case, body, message) => {
		await inject({ response: { status: 200, body, creditsCharged: 1 } });
		const run = await searchLofi();

		expect(run.items).toHaveLength(0);
		expect(run.error?.message).toMatch(message);
		expect(run.error?.description).toMatch(/charged 1 credit/);
		expect(await outcomes(service())).toEqual(['200:1']);
	});
});

describe('X-Credits-Charged', () => {
	it.each([
		['missing', { creditsCharged: null }],
		['not a number', { headers: { 'X-Credits-Charged': 'two' } }],
	])(
		'%s: the sounds still come out, with creditsCharged null (unknown, not 0)',
		async (_case, response) => {
			await inject({
				response: { status: 200, body: page([sound('1'), sound('2')], null), ...response },
			});
			const run = await searchLofi();

			expect(run.items.map(({ json }) => [json.soundId, json.creditsCharged])).toEqual([
				['1', null],
				['2', null],
			]);
		},
	);
});

describe('pagination faults stop the search by themselves', () => {
	it('a cursor that repeats', async () => {
		await inject(
			{
				match: { cursor: 'none' },
				response: { status: 200, creditsCharged: 1, body: page([sound('a')], 'loop-A') },
			},
			{
				match: { cursor: 'loop-A' },
				times: 'always',
				response: { status: 200, creditsCharged: 1, body: page([sound('b')], 'loop-A') },
			},
		);
		const run = await searchLofi({ returnAll: true });

		expect(run.error?.message).toBe(
			'Search stopped: the service returned a cursor it had already returned',
		);
		expect(run.error?.description).toMatch(
			/2 sounds were fetched in 2 calls \(2 credits\).*Start Cursor option set to loop-A/,
		);
		expect(await outcomes(service())).toEqual(['200:1', '200:1']);
	});

	it('an empty page that still has a cursor', async () => {
		await inject({
			times: 'always',
			response: { status: 200, creditsCharged: 1, body: page([], 'more') },
		});
		const run = await searchLofi({ returnAll: true });

		expect(run.error?.message).toBe(
			'Search stopped: the service returned an empty page that still points to a next page',
		);
		expect(await outcomes(service())).toEqual(['200:1']);
	});

	it('Max Pages bounds a Return All over a huge result', async () => {
		const run = await searchLofi({ returnAll: true, options: { maxPages: 3 } });

		expect(run.error?.message).toBe('Search stopped: reached Max Pages (3) before the last page');
		expect(run.error?.description).toMatch(/150 sounds were fetched in 3 calls \(3 credits\)/);
		expect(await requestsSeen(service())).toHaveLength(3);
	});

	it('Max Pages defaults to 100: a never-ending Return All stops there', async () => {
		const run = await searchLofi({ returnAll: true, options: { pageSize: 10 } });

		expect(run.error?.message).toBe('Search stopped: reached Max Pages (100) before the last page');
		expect(await requestsSeen(service())).toHaveLength(100);
	});
});
