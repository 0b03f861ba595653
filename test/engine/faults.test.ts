import type { INodeParameters } from 'n8n-workflow';
import {
	fetchDirect,
	servicePage,
	soundIds,
	sounds,
	useReferenceService,
	type ReferenceService,
} from '../harness/engine/searchFixture';
import { startReferenceService } from '../harness/referenceService';

const { service, search, calls } = useReferenceService();

/** Faults as reference-service/faults.js reads them: { match?, times?, response }. */
const inject = async (...faults: object[]) => await service().injectFaults(faults);
const searchLofi = async (options: INodeParameters = {}) =>
	await search({ query: 'lofi', limit: 5, options });
/** Each call the service saw, as `status:credits`. */
const outcomes = async () => (await calls()).map((call) => `${call.status}:${call.creditsCharged}`);

// A 401 from a real unknown key (n8n re-sends no 401: statuses come back as answers). The key is
// in no text of any run (every run's key-leak check: test/harness/engine/keyLeak.ts).
it.each([
	[401, 'The service rejected the API key (401 Unauthorized)', /Sound Search API credential/],
	[403, 'The API key is not allowed to search (403 Forbidden)', /Sound Search API credential/],
	[402, 'The API key has no credits left (402 Payment Required)', /Add credits/],
])(
	'%i: a clear error saying what to fix, one request, never retried',
	async (status, message, fix) => {
		if (status !== 401)
			await inject({ times: 'always', response: { status, body: { success: false } } });
		const run = await search(
			{ query: 'lofi' },
			{ apiKey: status === 401 ? 'dummy-unknown-key' : undefined },
		);

		expect(run.error?.message).toBe(message);
		expect(run.error?.description).toMatch(fix);
		expect(await outcomes()).toEqual([`${status}:0`]);
	},
);

// The Base URL itself is checked before any request: inputChecks.test.ts.
describe('the key only ever goes to the Base URL host', () => {
	let decoy: ReferenceService;
	beforeAll(async () => {
		decoy = await startReferenceService({ keys: ['dummy-decoy-key'] });
	});
	afterAll(async () => {
		await decoy.stop();
	});
	const lofi = (options: object) => ({ query: 'lofi', options: { maxRetries: 0, ...options } });

	it('a cursor holding another address is sent as a query value to the same host', async () => {
		const trap = encodeURI(`${decoy.url}/v1/shortvideo/sound/search?q=lofi`);
		const run = await search(lofi({ startCursor: trap }));

		expect(run.error?.message).toMatch(/success: false \(invalid_cursor/);
		expect((await calls()).map((call) => call.cursor)).toEqual([trap]);
		expect((await decoy.ledger()).requests).toHaveLength(0);
	});

	it('a nextCursor the service returns is followed on the same host only', async () => {
		const trap = `${decoy.url}/v1/shortvideo/sound/search`;
		await service().injectFaults([
			{
				match: { cursor: 'none' },
				response: { status: 200, creditsCharged: 1, body: servicePage([{ soundId: '1' }], trap) },
			},
		]);
		await search({ ...lofi({}), returnAll: true });

		expect((await calls()).map((call) => call.cursor)).toEqual([null, trap]);
		expect((await decoy.ledger()).requests).toHaveLength(0);
	});
});

// Longer than the wait left: fails at once (trigger.test.ts, "a budget of 4 s fails at once").
describe('rate limits', () => {
	it('429 with Retry-After: waits as asked (2 s, not the 1 s default backoff), then succeeds', async () => {
		await inject({ response: { status: 429, headers: { 'Retry-After': '2' } } });
		const started = Date.now();
		const run = await searchLofi();

		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(5);
		expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
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
		const run = await searchLofi({ maxRetries: 1 });

		expect(run.error?.message).toBe('The service failed to answer (500)');
		expect(run.error?.description).toMatch(/not charged.*tried 2 times/s);
		expect(await outcomes()).toEqual(['500:0', '500:0']);
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
});

describe('answers that carry no sounds', () => {
	it('an empty result gives no items, and its call is still charged', async () => {
		const run = await search({ platform: 'photosocial', query: 'no such sound', returnAll: true });

		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(0);
		expect(await calls()).toEqual([
			expect.objectContaining({ q: 'no such sound', outcome: 'empty', creditsCharged: 2 }),
		]);
	});

	it.each([
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
			'a web page (a long one, cut in the message)',
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

it.each([
	['missing', { creditsCharged: null }],
	['not a number', { headers: { 'X-Credits-Charged': 'two' } }],
	['negative', { headers: { 'X-Credits-Charged': '-2' } }],
])(
	'X-Credits-Charged %s: the sounds still come out, with creditsCharged null (unknown, not 0)',
	async (_case, response) => {
		await inject({ response: { status: 200, body: servicePage(sounds(2)), ...response } });
		const run = await searchLofi();

		expect(run.items.map(({ json }) => [json.soundId, json.creditsCharged])).toEqual([
			['s0', null],
			['s1', null],
		]);
	},
);

it("n8n's Retry On Fail re-runs the node after its own retries; pages fetched moments before come back free from the cache", async () => {
	await service().setCatalogue({ query: 'cumbia', total: 120 });
	// The third page fails once with a 500 and the node itself is told not to retry.
	await service().injectFaults([{ match: { query: 'cumbia', nth: 3 }, response: { status: 500 } }]);
	const run = await search(
		{ query: 'cumbia', returnAll: true, options: { maxRetries: 0 } },
		{ nodeSettings: { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 } },
	);

	expect(run.error).toBeUndefined();
	expect(run.items).toHaveLength(120);
	expect((await calls()).map((call) => `${call.outcome}:${call.creditsCharged}`)).toEqual([
		'ok:1',
		'ok:1',
		'fault:0',
		'cached:0',
		'cached:0',
		'ok:1',
	]);
	expect(
		run.items.reduce(
			(pages, { json }) => pages.add(`${json.page}:${json.creditsCharged}`),
			new Set(),
		),
	).toEqual(new Set(['1:0', '2:0', '3:1']));
});
