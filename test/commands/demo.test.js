'use strict';

// `npm run demo`, as the README gives it (with and without arguments): one search through n8n's
// execution engine against the reference service, printed with the credits it cost.
const { runToEnd } = require('./run');

test.each([
	['npm run demo', 'lofi', 'shortvideo', 8, 1],
	['npm run demo -- jazz photosocial 5', 'jazz', 'photosocial', 5, 2],
])(
	'%s says what it searched (%s on %s, Limit %i) and the %i credit(s) it cost',
	async (command, query, platform, limit, credits) => {
		const { code, output } = await runToEnd(command, { timeoutS: 90 });

		expect(output).toContain(`Searching "${query}" on ${platform} (${credits} credit`);
		expect(output).toContain(`Limit ${limit}, through n8n's execution engine`);
		expect(output).toContain(
			`\nSearched "${query}" on ${platform}, Limit ${limit}: ${limit} sounds from 1 call(s), ${credits} credit(s) charged.\n`,
		);
		expect(code).toBe(0);
	},
);
