'use strict';

// The fault cases of cases/soundSearch.js, run on every n8n line: workflows/lofi (query lofi,
// Limit 5) with the service told to misbehave. One case per shape of failure each line's HTTP
// stack hands the node (a status with headers, a status with a body, a timeout, a body that is not
// JSON); what the node then decides (bounds, no retry of 402, available: false) is proven in
// test/engine/faults.test.ts and outcomes.test.ts. Each case names what the service does (inject:
// the reference service's faults, once unless `times` says), the node parameters it changes
// (set), and what must come out: the sounds, or the error (exact text, or a pattern) and its
// description; the calls the service got as "status:credits"; anything else in check().

/**
 * @typedef {object} FaultCase
 * @property {string} name
 * @property {object[]} [inject]
 * @property {Record<string, unknown>} [set] node parameters by path (workflowFile.js)
 * @property {number} [sounds] the run succeeds with this many sounds
 * @property {string | RegExp} [error] else it fails with this message
 * @property {RegExp} [description]
 * @property {string[]} [calls]
 * @property {(seen: { ledger: any[], run: any, service: any }) => Promise<void> | void} [check]
 */

/** @param {object[]} items @param {string | null} nextCursor a valid page of search results */
const page = (items, nextCursor) => ({
	success: true,
	available: true,
	data: { items, nextCursor },
});

/** @type {FaultCase[]} */
const FAULT_CASES = [
	{
		name: '429 with Retry-After: 2 waits as asked, retries the page, and the sounds come out',
		// 2 s, not the 1 s the node waits when it cannot read Retry-After.
		inject: [{ response: { status: 429, headers: { 'Retry-After': '2' } } }],
		sounds: 5,
		calls: ['429:0', '200:1'],
		check: async ({ service }) => {
			const [first, second] = (await service.ledger()).requests;
			expect(Date.parse(second.at) - Date.parse(first.at)).toBeGreaterThanOrEqual(1950);
		},
	},
	{
		name: '5xx: retried after 1 s then 2 s, and the sounds come out',
		inject: [{ times: 2, response: { status: 503, body: '<html>Service Unavailable</html>' } }],
		sounds: 5,
		calls: ['503:0', '503:0', '200:1'],
	},
	{
		name: 'a call slower than Timeout is abandoned and retried, and the sounds come out',
		inject: [{ response: { status: 200, delayMs: 2500, body: page([{ soundId: 'slow' }], null) } }],
		set: { 'Sound Search.options.timeoutMs': 1000 },
		sounds: 5,
		check: ({ ledger, run }) => {
			expect(run.items('Sound Search').map((/** @type {any} */ s) => s.soundId)).not.toContain(
				'slow',
			);
			expect(ledger.map((r) => r.q)).toEqual(['lofi', 'lofi']);
		},
	},
	{
		name: 'a body that is not JSON: a clear error with the credits, not retried',
		inject: [
			{
				response: { status: 200, body: '<html><body>Bad gateway</body></html>', creditsCharged: 1 },
			},
		],
		error: /^The service answered with a body that is not JSON: <html><body>Bad gateway/,
		description: /charged 1 credit/,
		calls: ['200:1'],
	},
];

module.exports = { FAULT_CASES };
