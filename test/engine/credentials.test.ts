import { SoundSearchApi } from '../../credentials/SoundSearchApi.credentials';
import { runCredentialTest } from '../harness/engine/engine';
import { API_KEY, REVOKED_KEY, useReferenceService } from '../harness/engine/searchFixture';
import { startPathPrefixProxy } from '../harness/pathPrefixProxy';

const { service, calls } = useReferenceService();
const rules = new SoundSearchApi().test.rules ?? [];

/** The message n8n's tester would show: a rule matching the HTTP status, else the status itself. */
function testerVerdict(error: { httpCode?: string | null } | undefined): string {
	if (!error) return 'Connection successful!';
	const rule = rules.find((candidate) => String(candidate.properties.value) === error.httpCode);
	return rule ? `${rule.properties.message}` : `HTTP ${error.httpCode}`;
}

describe('credential test', () => {
	it('accepts a valid key with a free request (the refused empty query)', async () => {
		const run = await runCredentialTest({ apiKey: API_KEY, baseUrl: `${service().url}/` });

		expect(testerVerdict(run.error)).toBe('Connection successful!');
		expect(await calls()).toEqual([
			expect.objectContaining({
				q: '',
				outcome: 'refused',
				creditsCharged: 0,
				authorization: `Bearer ${API_KEY}`,
			}),
		]);
	});

	it.each([
		['an unknown key', 'not-a-key', 'The service rejected this API key (401)'],
		['a revoked key', REVOKED_KEY, 'This API key is revoked or not allowed (403)'],
	])('rejects %s, without spending credits', async (_case, apiKey, verdict) => {
		const run = await runCredentialTest({ apiKey, baseUrl: service().url });

		expect(testerVerdict(run.error)).toBe(verdict);
		const seen = await calls();
		expect(seen.length).toBeGreaterThan(0);
		expect(seen.every((call) => call.creditsCharged === 0)).toBe(true);
	});
});

describe('credential test with a Base URL that has a path', () => {
	it.each(['', '/'])(
		'sends the test to <Base URL>/v1/... (trailing slash: "%s")',
		async (slash) => {
			const gateway = await startPathPrefixProxy(service().url, '/sound-search');
			try {
				const run = await runCredentialTest({ apiKey: API_KEY, baseUrl: `${gateway.url}${slash}` });

				expect(testerVerdict(run.error)).toBe('Connection successful!');
				expect(gateway.seen.map((r) => r.path)).toEqual([
					'/sound-search/v1/shortvideo/sound/search?q=',
				]);
				expect(await calls()).toEqual([expect.objectContaining({ q: '', creditsCharged: 0 })]);
			} finally {
				await gateway.close();
			}
		},
	);
});
