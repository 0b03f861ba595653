'use strict';
// `npm run demo`, as the README documents it, so the command cannot rot: a fresh compile of the
// engine harness (no jest in it) and one search printed with its credits.

const { execFile } = require('node:child_process');
const path = require('node:path');
const { promisify } = require('node:util');

const ROOT = path.resolve(__dirname, '..', '..');

test('npm run demo -- lofi shortvideo 3 prints three sounds and the credit they cost', async () => {
	const { stdout } = await promisify(execFile)(
		'bash',
		['scripts/demo.sh', 'lofi', 'shortvideo', '3'],
		{
			cwd: ROOT,
		},
	);

	expect(stdout).toMatch(
		/\n3 sounds from 1 call\(s\) to http:\/\/127\.0\.0\.1:\d+: 1 credit\(s\) charged\./,
	);
	expect(stdout).toMatch(/"creditsCharged": 1,\s+"page": 1/);
});
