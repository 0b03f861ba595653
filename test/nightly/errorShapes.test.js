'use strict';

// `node test/fixtures/n8n-errors/record.js`, as the README gives it, into a temp folder: what each
// pinned n8n hands a node when a call fails must still be the committed fixtures test/unit reads.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { runToEnd } = require('../harness/command');
const { CASE_NAMES, pinnedVersions, loadFixture } = require('../fixtures/n8n-errors/fixtures');

const out = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-errors-'));
afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

/** Without the Node.js version that recorded it: not part of the shape. */
const withoutNode = (/** @type {any} */ fixture) => ({
	...fixture,
	recordedWith: { ...fixture.recordedWith, node: undefined },
});

test('re-recording the error shapes of every pinned n8n changes none of them', async () => {
	const command = `node test/fixtures/n8n-errors/record.js --out ${out}`;
	const { code, output } = await runToEnd(command, { timeoutS: 270 });
	expect({ code, output: output.slice(-2000) }).toEqual({ code: 0, output: expect.any(String) });

	for (const { version } of pinnedVersions()) {
		for (const name of CASE_NAMES) {
			const file = path.join(out, version, `${name}.json`);
			const recorded = withoutNode(JSON.parse(fs.readFileSync(file, 'utf8')));
			expect([version, name, recorded]).toEqual([
				version,
				name,
				withoutNode(loadFixture(version, name)),
			]);
		}
	}
});
