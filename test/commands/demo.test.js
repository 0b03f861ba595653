'use strict';

// `npm run demo`, as the README gives it (with and without arguments): one search through n8n's
// execution engine against the reference service, printed with the credits it cost.
const { runToEnd } = require('./run');

test.each([
	['npm run demo', 8, 1],
	['npm run demo -- jazz photosocial 5', 5, 2],
])('%s prints %i sounds and the %i credit(s) they cost', async (command, sounds, credits) => {
	const { code, output } = await runToEnd(command, { timeoutMs: 60_000 });

	expect(output).toContain(`\n${sounds} sounds from 1 call(s) to http://127.0.0.1:`);
	expect(output).toMatch(new RegExp(`: ${credits} credit\\(s\\) charged\\.\\n`));
	expect(code).toBe(0);
});
