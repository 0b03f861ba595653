'use strict';

// `npm run demo`, as the README gives it (with and without arguments): one search through n8n's
// engine against the reference service, with the credits it cost, in the README's Output shape,
// its state kept in the clone: run with a home folder of its own, which gets no .n8n.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { runToEnd } = require('../harness/command');
const { SIMPLIFIED_FIELDS } = require('../harness/outputShape');

/** The first item the demo prints in full (the JSON after its "First item" line). @param {string} output */
function firstItem(output) {
	const start = output.indexOf('{', output.indexOf('First item'));
	return JSON.parse(output.slice(start, output.indexOf('\n}', start) + 2));
}

test.each([
	['npm run demo', 'lofi', 'shortvideo', 8, 1],
	['npm run demo -- jazz photosocial 5', 'jazz', 'photosocial', 5, 2],
])(
	'%s says what it searched (%s on %s, Limit %i) and the %i credit(s) it cost',
	async (command, query, platform, limit, credits) => {
		const home = fs.mkdtempSync(path.join(os.tmpdir(), 'demo-home-'));
		const { code, output } = await runToEnd(command, { timeoutS: 90, env: { HOME: home } });
		const n8nInHome = fs.existsSync(path.join(home, '.n8n'));
		fs.rmSync(home, { recursive: true, force: true });

		expect(output).toContain(`Searching "${query}" on ${platform} (${credits} credit`);
		expect(output).toContain(`Limit ${limit}, through n8n's execution engine`);
		expect(output).toContain(
			`\nSearched "${query}" on ${platform}, Limit ${limit}: ${limit} sounds from 1 call(s), ${credits} credit(s) charged.\n`,
		);
		const item = firstItem(output);
		expect(Object.keys(item)).toEqual(SIMPLIFIED_FIELDS);
		expect(item).toMatchObject({ query, platform, creditsCharged: credits });
		// The table's columns: those fields in their order (the widest left to the item above).
		const header = output.split('\n').find((line) => line.includes('(index)')) ?? '';
		const [, ...columns] = header
			.split('│')
			.map((cell) => cell.trim())
			.filter(Boolean);
		expect(columns.slice(0, 3)).toEqual(['soundId', 'title', 'creditsCharged']);
		expect(columns.length).toBeGreaterThanOrEqual(5);
		expect(columns).toEqual(SIMPLIFIED_FIELDS.filter((field) => columns.includes(field)));
		// n8n-core's instance settings went into the clone (scripts/demo.sh), not ~/.n8n.
		expect(output).not.toContain('No encryption key found');
		expect(n8nInHome).toBe(false);
		expect(code).toBe(0);
	},
);
