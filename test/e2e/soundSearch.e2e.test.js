'use strict';

// The Sound Search node in a real, pinned n8n (n8n-host/<line>/, one jest project per line), the
// package installed from its `npm pack` tarball as n8n installs a community package, run through
// the REST API the editor uses against the local reference service. Each test names a workflow
// of workflows/ and asserts on the items n8n got and on the service's ledger: the requests n8n
// caused (q, platform, limit, cursor) and the credits each page cost. Set-up: scenario.js.

const n8n = require('../harness/n8n');
const { useN8n, expectNoSecrets, CREDENTIALS, KEYS } = require('./scenario');
const { page, bySearch } = require('./ledger');
const { FAULT_CASES } = require('./faultCases');

const scenario = useN8n();
/** How the service answers a key it does not know: 401, free. */
const UNAUTHORIZED = { status: 401, outcome: 'unauthorized', credits: 0 };

test('both platforms, each at its price per call', async () => {
	const { status, items } = await scenario.run('platforms');
	expect(status).toBe('success');
	expect(bySearch(await scenario.ledger())).toEqual([
		page({ platform: 'photosocial', q: 'lofi', limit: '3', credits: 2, items: 3 }),
		page({ platform: 'shortvideo', q: 'lofi', limit: '3', credits: 1, items: 3 }),
	]);
	const sounds = items('Sound Search');
	expect(sounds.map((s) => s.creditsCharged)).toEqual([1, 1, 1, 2, 2, 2]);
	const shortVideo = { soundId: expect.stringMatching(/^7\d{18}$/), url: expect.any(Object) };
	const photoSocial = { soundId: expect.stringMatching(/^1\d{15}$/), url: null, authorName: null };
	for (const sound of sounds.slice(0, 3)) expect(sound).toMatchObject({ ...shortVideo, page: 1 });
	for (const sound of sounds.slice(3)) expect(sound).toMatchObject({ ...photoSocial, page: 1 });
});

test('Return All follows nextCursor across several pages, to the last', async () => {
	await scenario.service.setCatalogue({ query: 'pages test', total: 120 });
	const { status, items } = await scenario.run('return-all');
	expect(status).toBe('success');
	const pages = await scenario.ledger();
	const next = expect.any(String);
	expect(pages).toEqual([
		page({ q: 'pages test', limit: '50', cursor: null, items: 50, credits: 1 }),
		page({ q: 'pages test', limit: '50', cursor: next, items: 50, credits: 1 }),
		page({ q: 'pages test', limit: '50', cursor: next, items: 20, credits: 1 }),
	]);
	expect(new Set(pages.map((r) => r.cursor)).size).toBe(3);
	const sounds = items('Sound Search');
	expect(sounds).toHaveLength(120);
	expect(new Set(sounds.map((s) => s.soundId)).size).toBe(120);
	const pageOf = (/** @type {number} */ i) => (i < 50 ? 1 : i < 100 ? 2 : 3);
	expect(sounds.map((s) => s.page)).toEqual(sounds.map((_, i) => pageOf(i)));
});

test('Limit makes the fewest calls and sizes the last page to what is missing', async () => {
	const { status, items } = await scenario.run('limit');
	expect(status).toBe('success');
	expect(bySearch(await scenario.ledger()).map((r) => [r.q, r.limit, r.items])).toEqual([
		['jazz', '7', 7],
		['lofi', '50', 50],
		['lofi', '50', 50],
		['lofi', '20', 20],
	]);
	expect((await scenario.service.ledger()).totals).toEqual({ requests: 4, creditsCharged: 4 });
	expect(items('Sound Search')).toHaveLength(127);
});

test('several input items: one search each, the query from an expression, items paired to their input', async () => {
	const { status, runData } = await scenario.run('three-keywords');
	expect(status).toBe('success');
	expect(
		bySearch(await scenario.ledger()).map((r) => [r.platform, r.q, r.limit, r.credits]),
	).toEqual(['lofi', 'rainy jazz', 'workout'].map((q) => ['shortvideo', q, '2', 1]));
	const output = runData['Sound Search'][0].data.main[0];
	expect(output.map((/** @type {any} */ item) => item.pairedItem)).toEqual(
		[0, 0, 1, 1, 2, 2].map((item) => ({ item })),
	);
	for (const { json } of output) expect(json).toMatchObject({ creditsCharged: 1, page: 1 });
});

test('500 keywords against a service capped at 4 calls in flight: every sound, exact credits, no call twice', async () => {
	await scenario.service.setCapacity({ capacity: 4, latencyMs: 30 });
	const { status, items } = await scenario.run('500-keywords');
	expect(status).toBe('success');
	const { totals, capacity } = await scenario.service.ledger();
	const requests = await scenario.ledger();
	const paid = requests.filter((r) => r.status === 200);
	const refused = requests.filter((r) => r.status === 429);
	process.stderr.write(
		`[e2e] 500 keywords, service capped at 4: ${requests.length} requests, ${refused.length} answered 429, most in flight ${capacity.mostInFlight}\n`,
	);
	const keywords = Array.from({ length: 500 }, (_, index) => `scale ${index}`);
	expect(paid.map((r) => r.q).sort()).toEqual(keywords.sort());
	expect(refused.length + paid.length).toBe(requests.length);
	expect(refused.every((r) => r.credits === 0)).toBe(true);
	expect(totals.creditsCharged).toBe(500);
	const sounds = items('Sound Search');
	expect(sounds).toHaveLength(1000);
	expect(sounds.every((s) => s.creditsCharged === 1)).toBe(true);
});

test('an empty query fails the run with a clear error before any request', async () => {
	const { status, error, nodeError } = await scenario.run('empty-query');
	expect(status).toBe('error');
	const expected = 'The "Query" parameter is empty [item 1]';
	expect(error.message).toBe(expected);
	expect(nodeError('Sound Search').message).toBe(expected);
	expect(await scenario.ledger()).toEqual([]);
});

test('a wrong API key fails with a clear authentication error, and the key shows nowhere', async () => {
	// run() checks the execution (items, errors, descriptions) for every key.
	const { status, error } = await scenario.run('lofi', { credential: 'wrongKey' });
	expect(status).toBe('error');
	expect(error.message).toMatch(/^The service rejected the API key \(401 Unauthorized\)/);
	// One request: the node takes every status as an answer, so n8n-core's re-send of a request
	// that failed with 401 (its credential refresh path) does not happen either.
	const authorization = `Bearer ${KEYS.wrongKey}`;
	expect(await scenario.ledger()).toEqual([page({ ...UNAUTHORIZED, q: 'lofi', authorization })]);
});

/** Presses the credential's Test button (POST /rest/credentials/test). @param {'sound' | 'wrongKey'} which */
async function testCredential(which) {
	const credential = { id: CREDENTIALS[which].id, type: 'soundSearchApi' };
	const result = await n8n.testCredential(scenario.rest, credential);
	expectNoSecrets(JSON.stringify(result), 'the credential test answer');
	return result;
}

test('credential Test (POST /rest/credentials/test): a valid key passes with one free request', async () => {
	expect(await testCredential('sound')).toMatchObject({ status: 'OK' });
	// The service's free answer to a request without a keyword (outcome "refused"), 200: the key works.
	const free = { platform: 'shortvideo', status: 200, outcome: 'refused', credits: 0 };
	const authorization = `Bearer ${KEYS.sound}`;
	expect(await scenario.ledger()).toEqual([page({ ...free, authorization })]);
});

test('credential Test: a wrong key fails with the credential rule message', async () => {
	// n8n 1.99 to 2.33 (1.123.x included) lose the status of a failed credential test and
	// show their own message instead of the credential's rule (README, Supported versions).
	const message =
		process.env.N8N_LINE === '1.x'
			? 'Authorization failed - please check your credentials'
			: 'The service rejected this API key (401)';
	expect(await testCredential('wrongKey')).toEqual({ status: 'Error', message });
	// Sent twice: n8n's credential test re-sends a 401 (the node's own requests no longer do,
	// see the wrong-key run above); free.
	const refused = page({ ...UNAUTHORIZED, q: '' });
	expect(await scenario.ledger()).toEqual([refused, refused]);
});

// Each fault case asserts the same items, the same calls to the service and the same error
// message on every n8n line, whatever n8n hands the node when a call fails.
describe('faults', () => {
	for (const fault of FAULT_CASES) {
		test(fault.name, async () => {
			if (fault.inject) await scenario.service.injectFaults(fault.inject);
			const run = await scenario.run('lofi', { set: fault.set });
			expect(run.status).toBe(fault.sounds ? 'success' : 'error');
			if (fault.sounds) expect(run.items('Sound Search')).toHaveLength(fault.sounds);
			if (fault.error) {
				const error = run.nodeError('Sound Search');
				expect(run.error.message).toBe(error.message);
				if (typeof fault.error === 'string') expect(error.message).toBe(fault.error);
				else expect(error.message).toMatch(fault.error);
				if (fault.description) expect(error.description).toMatch(fault.description);
			}
			const ledger = await scenario.ledger();
			if (fault.calls) expect(ledger.map((r) => `${r.status}:${r.credits}`)).toEqual(fault.calls);
			await fault.check?.({ ledger, run, service: scenario.service });
		});
	}
});
