'use strict';

// The Sound Search credential in a real n8n of each line (the packed package, through the REST API
// the editor uses): a wrong key at run time and the credential's test (what n8n runs when it is
// saved or opened: POST /rest/credentials/test), each one free
// request, the key kept out of saved executions and the server log (scenario.js checks both). How
// the node reads each failure is proven in test/engine/ (faults, credentials) and against each
// line's recorded error shapes in test/unit/.

const n8n = require('../../harness/n8n');
const { expectNoSecrets, CREDENTIALS, KEYS } = require('../scenario');
const { page } = require('../ledger');

/** How the service answers a key it does not know: 401, free. */
const UNAUTHORIZED = { status: 401, outcome: 'unauthorized', credits: 0 };

/** @param {import('../scenario').E2eScenario} scenario (started) */
function credentials(scenario) {
	/** Tests the credential as n8n does on save and open (POST /rest/credentials/test). @param {'sound' | 'wrongKey'} which */
	async function testCredential(which) {
		const credential = { id: CREDENTIALS[which].id, type: 'soundSearchApi' };
		const result = await n8n.testCredential(scenario.rest, credential);
		expectNoSecrets(JSON.stringify(result), 'the credential test answer');
		return result;
	}
	const bearer = (/** @type {'sound' | 'wrongKey'} */ which) => `Bearer ${KEYS[which]}`;

	test('a wrong API key fails with a clear authentication error, in one request, and the key shows nowhere', async () => {
		const { status, error } = await scenario.run('lofi', { credential: 'wrongKey' });
		expect(status).toBe('error');
		expect(error.message).toMatch(/^The service rejected the API key \(401 Unauthorized\)/);
		// n8n-core's re-send of a request that failed with 401 (its credential refresh) does not happen.
		const authorization = bearer('wrongKey');
		expect(await scenario.ledger()).toEqual([page({ ...UNAUTHORIZED, q: 'lofi', authorization })]);
	});

	test('the credential test (POST /rest/credentials/test, on save and open): a valid key passes with one free request', async () => {
		expect(await testCredential('sound')).toMatchObject({ status: 'OK' });
		// The service's free 200 to a request without a keyword: the key works.
		const free = { platform: 'shortvideo', status: 200, outcome: 'refused', credits: 0 };
		expect(await scenario.ledger()).toEqual([page({ ...free, authorization: bearer('sound') })]);
	});

	test("the credential test: a wrong key fails with the package's message, in one free request", async () => {
		// The nodes' own test function (testedBy), on every line: n8n's declarative test showed its
		// own message on 1.99 to 2.33, and sent a 401's request twice.
		expect(await testCredential('wrongKey')).toEqual({
			status: 'Error',
			message: expect.stringMatching(/^The service rejected the API key \(401 Unauthorized\)\. /),
		});
		const authorization = bearer('wrongKey');
		expect(await scenario.ledger()).toEqual([page({ ...UNAUTHORIZED, q: '', authorization })]);
	});
}

module.exports = { credentials };
