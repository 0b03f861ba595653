'use strict';

// The Sound Search node in a real, pinned n8n (n8n-host/<line>/, one jest project per line), the
// package installed from its `npm pack` tarball as n8n installs a community package, run through
// the REST API the editor uses against the local reference service. Only what a real n8n of each
// line can prove: the key kept out of saved executions and the server log, the credential's Test
// button, and the faults whose errors each line's HTTP stack shapes. The node's behaviour itself
// (platforms, pagination, Limit, input items, keyword lists, input checks) is proven once, in
// test/engine/. Each test asserts on the items n8n got and on the service's ledger (reset before
// each test, faults included).

const n8n = require('../../harness/n8n');
const { expectNoSecrets, CREDENTIALS, KEYS } = require('../scenario');
const { page } = require('../ledger');
const { FAULT_CASES } = require('../faultCases');

/** How the service answers a key it does not know: 401, free. */
const UNAUTHORIZED = { status: 401, outcome: 'unauthorized', credits: 0 };
/** @typedef {import('../scenario').E2eScenario} E2eScenario */

/**
 * Presses the credential's Test button (POST /rest/credentials/test).
 * @param {E2eScenario} scenario @param {'sound' | 'wrongKey'} which
 */
async function testCredential(scenario, which) {
	const credential = { id: CREDENTIALS[which].id, type: 'soundSearchApi' };
	const result = await n8n.testCredential(scenario.rest, credential);
	expectNoSecrets(JSON.stringify(result), 'the credential test answer');
	return result;
}

/** The API key: a wrong one at run time and the credential's Test button. @param {E2eScenario} scenario */
function apiKeyCases(scenario) {
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

	test('credential Test (POST /rest/credentials/test): a valid key passes with one free request', async () => {
		expect(await testCredential(scenario, 'sound')).toMatchObject({ status: 'OK' });
		// The service's free answer to a request without a keyword (outcome "refused"), 200: the key works.
		const free = { platform: 'shortvideo', status: 200, outcome: 'refused', credits: 0 };
		const authorization = `Bearer ${KEYS.sound}`;
		expect(await scenario.ledger()).toEqual([page({ ...free, authorization })]);
	});

	test("credential Test: a wrong key fails with the package's message, in one free request", async () => {
		// The nodes' test function (testedBy), on every line: n8n's declarative test showed its own
		// message on 1.99 to 2.33, and sent a 401's request twice.
		expect(await testCredential(scenario, 'wrongKey')).toEqual({
			status: 'Error',
			message: expect.stringMatching(/^The service rejected the API key \(401 Unauthorized\)\. /),
		});
		const authorization = `Bearer ${KEYS.wrongKey}`;
		expect(await scenario.ledger()).toEqual([page({ ...UNAUTHORIZED, q: '', authorization })]);
	});
}

// Each fault case asserts the same items, the same calls to the service and the same error
// message on every n8n line, whatever n8n hands the node when a call fails.
/** @param {E2eScenario} scenario */
function faultCases(scenario) {
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
}

/** @param {E2eScenario} scenario (started) */
function soundSearch(scenario) {
	apiKeyCases(scenario);
	describe('faults', () => faultCases(scenario));
}

module.exports = { soundSearch };
