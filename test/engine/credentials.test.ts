import { withReferenceService } from '../harness/referenceService';
import {
	credentialHasOwnTest,
	credentialTestOf,
	NODES_WITH_THE_CREDENTIAL,
	runCredentialTest,
} from '../harness/engine/credentialTester';
import { API_KEY, REVOKED_KEY, useReferenceService } from '../harness/engine/searchFixture';
import { startPathPrefixProxy } from '../harness/pathPrefixProxy';
import { closedPort, startWebPage } from '../harness/webPage';

// The credential's test as n8n runs it on save and open (../harness/engine/credentialTester.ts) against the
// reference service: one free call, and for each usual mistake the package's own message.

const { service, calls } = useReferenceService();
const ENDPOINT = '/v1/shortvideo/sound/search';
const OK = { status: 'OK', message: expect.stringMatching(/accepted the API key/) };

/** The one call a Test of a good or bad key must make: the refused (free) empty query. */
const emptyQuery = (status: number, outcome: string) =>
	expect.objectContaining({ path: ENDPOINT, q: '', status, outcome, creditsCharged: 0 });

describe('a good key', () => {
	it("n8n runs the nodes' test function: the credential has no declarative test, which n8n would run instead", () => {
		expect(credentialHasOwnTest()).toBe(false);
		const tests = Object.values(NODES_WITH_THE_CREDENTIAL).map((Node) =>
			credentialTestOf(new Node()),
		);
		// The lint and n8n's tester both look at every node that uses the credential.
		expect(tests[0]).toEqual(expect.any(Function));
		expect(new Set(tests).size).toBe(1);
	});

	it('passes with one free call, the refused empty query (answered 200), sent to <Base URL>/v1/... (a Base URL with a path)', async () => {
		const gateway = await startPathPrefixProxy(service().url, '/sound-search');
		try {
			const result = await runCredentialTest({ apiKey: API_KEY, baseUrl: `${gateway.url}/` });

			expect(result).toEqual(OK);
			expect(gateway.seen.map((r) => r.path)).toEqual([`/sound-search${ENDPOINT}?q=`]);
			const seen = await calls();
			expect(seen).toEqual([emptyQuery(200, 'refused')]);
			expect(seen[0].authorization).toBe(`Bearer ${API_KEY}`);
		} finally {
			await gateway.close();
		}
	});

	it.each([400, 422])(
		'passes against a service that refuses the empty query with %i',
		async (status) => {
			const strict = { keys: [API_KEY], args: ['--refusal-status', String(status)] };
			await withReferenceService(strict, async (other) => {
				const result = await runCredentialTest({ apiKey: API_KEY, baseUrl: other.url });

				expect(result).toEqual(OK);
				expect((await other.ledger()).requests).toEqual([emptyQuery(status, 'refused')]);
			});
		},
	);
});

describe('each usual mistake gets the message a node run gives, in at most one call', () => {
	it.each([
		['an unknown key', 'dummy-unknown-key-5d1e', 401, 'unauthorized', /rejected the API key \(401/],
		['a revoked key', REVOKED_KEY, 403, 'forbidden', /not allowed to search \(403.*revoked/],
	])('%s', async (_case, apiKey, status, outcome, message) => {
		const result = await runCredentialTest({ apiKey, baseUrl: service().url });

		expect(result).toEqual({ status: 'Error', message: expect.stringMatching(message) });
		expect(result.message).not.toContain(apiKey);
		// Not two: n8n's authenticated helper would send a 401's call again.
		expect(await calls()).toEqual([emptyQuery(status, outcome)]);
	});

	it.each([
		[402, 'The API key has no credits left (402 Payment Required). The key is valid: add credits'],
		[
			429,
			'is rate limiting this API key (429 Too Many Requests). Rate-limited calls are not charged. Test again',
		],
		[
			503,
			'The service failed to answer (503). A failure on the service side is not charged. Try again later.',
		],
		[418, 'The service refused the request (418). Check the Base URL: it should be the address'],
	])('an answer %i says what it means for this credential', async (status, message) => {
		await service().injectFaults([{ match: {}, response: { status, body: { success: false } } }]);

		const result = await runCredentialTest({ apiKey: API_KEY, baseUrl: service().url });

		expect(result).toEqual({ status: 'Error', message: expect.stringContaining(message) });
		expect(await calls()).toHaveLength(1);
	});

	it('a port where nothing listens', async () => {
		const baseUrl = `http://127.0.0.1:${await closedPort()}`;

		const result = await runCredentialTest({ apiKey: API_KEY, baseUrl });

		expect(result.status).toBe('Error');
		expect(result.message).toBe(
			`Could not reach the Sound Search service at ${baseUrl}${ENDPOINT}. The connection failed (ECONNREFUSED). Check the Base URL of the Sound Search API credential and that the service is up.`,
		);
	});

	// Read as a search reads it: every wrong form is in inputChecks.test.ts.
	it('an invalid Base URL (a port with a typo, like ":4010x"), and no call', async () => {
		const result = await runCredentialTest({ apiKey: API_KEY, baseUrl: `${service().url}x` });

		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/^The "Base URL" of the Sound Search API credential is not an http\(s\) address/,
		);
		expect(result.message).toContain('Set it to the service address, like');
		expect(await calls()).toEqual([]);
	});

	it('a wrong path (the full search address)', async () => {
		const gateway = await startPathPrefixProxy(service().url, '/sound-search');
		try {
			const result = await runCredentialTest({
				apiKey: API_KEY,
				baseUrl: `${gateway.url}${ENDPOINT}`,
			});

			expect(result).toEqual({
				status: 'Error',
				message: expect.stringMatching(
					/^The service has no such endpoint \(404 Not Found\)\. Check the Base URL/,
				),
			});
			expect(gateway.seen).toHaveLength(1);
		} finally {
			await gateway.close();
		}
	});

	it('an address that answers with a web page, not the service', async () => {
		const page = await startWebPage();
		try {
			const result = await runCredentialTest({ apiKey: API_KEY, baseUrl: page.url });

			expect(result).toEqual({
				status: 'Error',
				message: `The address answered 200 with something that is not JSON at ${page.url}${ENDPOINT}: it is not the Sound Search service. Check the Base URL.`,
			});
			expect(page.hits()).toBe(1);
		} finally {
			await page.close();
		}
	});
});
