'use strict';

// The fault cases of the real-n8n suite (soundSearch.e2e.test.js registers them inside its running
// n8n), run on every n8n line: each asserts the same items, the same calls to the reference
// service (its ledger) and the same error message, whatever n8n hands the node when a call fails.

/**
 * @typedef {object} FaultContext
 * @property {() => import('../harness/referenceService').ReferenceService} service
 * @property {(name: string, parameters: Record<string, unknown>) => Promise<{ execution: any,
 *   run: any, items: (node: string) => Record<string, unknown>[] }>} search one input item, a
 *   Sound Search with these parameters (query lofi, limit 5 unless given), run through REST
 * @property {() => Promise<Array<Record<string, any>>>} requestsSeen the ledger, simplified
 */

/** The calls as "status:credits", in the order the service got them. @param {FaultContext} ctx */
async function calls(ctx) {
	return (await ctx.requestsSeen()).map((r) => `${r.status}:${r.credits}`);
}

/** The error the run ended with (message and description of the Sound Search node's error). */
function runError(run) {
	const error = run.resultData.runData['Sound Search'][0].error;
	expect(run.resultData.error.message).toBe(error.message);
	return error;
}

const page = (items, nextCursor) => ({
	success: true,
	available: true,
	data: { items, nextCursor },
});

/** @param {FaultContext} ctx */
function describeFaultCases(ctx) {
	const inject = (...faults) => ctx.service().injectFaults(faults);
	const lofi = (name, parameters = {}) =>
		ctx.search(name, { query: 'lofi', limit: 5, ...parameters });

	describe('faults', () => {
		test('429 with Retry-After: 2 waits as asked, retries the page, and the sounds come out', async () => {
			// 2 s, not the 1 s the node waits when it cannot read Retry-After.
			await inject({ response: { status: 429, headers: { 'Retry-After': '2' } } });
			const { execution, items } = await lofi('429 then success');
			expect(execution.status).toBe('success');
			expect(items('Sound Search')).toHaveLength(5);
			expect(await calls(ctx)).toEqual(['429:0', '200:1']);
			const [first, second] = (await ctx.service().ledger()).requests;
			expect(Date.parse(second.at) - Date.parse(first.at)).toBeGreaterThanOrEqual(1950);
		});

		test('5xx: retried after 1 s then 2 s, and the sounds come out', async () => {
			await inject({
				times: 2,
				response: { status: 503, body: '<html>Service Unavailable</html>' },
			});
			const { execution, items } = await lofi('503 twice then success');
			expect(execution.status).toBe('success');
			expect(items('Sound Search')).toHaveLength(5);
			expect(await calls(ctx)).toEqual(['503:0', '503:0', '200:1']);
		});

		test('a 5xx that persists: bounded retries, then a clear error', async () => {
			await inject({ times: 'always', response: { status: 500, body: { success: false } } });
			const { execution, run } = await lofi('500 always', { options: { maxRetries: 1 } });
			expect(execution.status).toBe('error');
			const error = runError(run);
			expect(error.message).toBe('The service failed to answer (500)');
			expect(error.description).toMatch(/not charged.*tried 2 times/s);
			expect(await calls(ctx)).toEqual(['500:0', '500:0']);
		});

		test('402: no credits left, one call, never retried', async () => {
			await inject({
				times: 'always',
				response: { status: 402, body: { success: false, error: { code: 'payment_required' } } },
			});
			const { execution, run } = await lofi('402');
			expect(execution.status).toBe('error');
			expect(runError(run).message).toBe('The API key has no credits left (402 Payment Required)');
			expect(await calls(ctx)).toEqual(['402:0']);
		});

		test('a call slower than Timeout is abandoned and retried, and the sounds come out', async () => {
			await inject({
				response: { status: 200, delayMs: 2500, body: page([{ soundId: 'slow' }], null) },
			});
			const { execution, items } = await lofi('timeout then success', {
				options: { timeoutMs: 1000 },
			});
			expect(execution.status).toBe('success');
			const sounds = items('Sound Search');
			expect(sounds).toHaveLength(5);
			expect(sounds.map((s) => s.soundId)).not.toContain('slow');
			expect((await ctx.requestsSeen()).map((r) => r.q)).toEqual(['lofi', 'lofi']);
		});

		test('a timeout with no retries left is a clear error', async () => {
			await inject({ response: { status: 200, delayMs: 2500, body: page([], null) } });
			const { execution, run } = await lofi('timeout', {
				options: { timeoutMs: 1000, maxRetries: 0 },
			});
			expect(execution.status).toBe('error');
			expect(runError(run).message).toBe('The service did not answer in time');
			expect(await ctx.requestsSeen()).toHaveLength(1);
		});

		test('a body that is not JSON: a clear error with the credits, not retried', async () => {
			await inject({
				response: { status: 200, body: '<html><body>Bad gateway</body></html>', creditsCharged: 1 },
			});
			const { execution, run } = await lofi('bad body');
			expect(execution.status).toBe('error');
			const error = runError(run);
			expect(error.message).toMatch(
				/^The service answered with a body that is not JSON: <html><body>Bad gateway/,
			);
			expect(error.description).toMatch(/charged 1 credit/);
			expect(await calls(ctx)).toEqual(['200:1']);
		});

		test('available: false: the typed status and the credits, not retried', async () => {
			const { execution, run } = await lofi('available false', { query: 'private sound' });
			expect(execution.status).toBe('error');
			const error = runError(run);
			expect(error.message).toBe('The service answered available: false with status "private"');
			expect(error.description).toMatch(/charged 1 credit/);
			expect(await calls(ctx)).toEqual(['200:1']);
		});
	});
}

module.exports = { describeFaultCases };
