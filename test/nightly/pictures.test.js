'use strict';

// `npm run pictures`, as CONTRIBUTING.md gives it: every picture README.md and docs/*.md show is
// made again from the current code in the real editor (the editor layer with DOCS_IMAGES=1, which
// checks what each one shows before it takes it), and docs/images/ holds no picture nothing shows.
// In the nightly's checkout a picture the code no longer makes shows up in `git diff docs/images`
// (.github/workflows/nightly.yml prints it and keeps the pictures as an artifact).
const fs = require('node:fs');
const path = require('node:path');
const { runToEnd, REPO_ROOT } = require('../harness/command');
const { deadlineMs } = require('../harness/deadlines');

jest.setTimeout(deadlineMs(960));

const IMAGES = path.join(REPO_ROOT, 'docs', 'images');

/** docs/images/<file> of every picture README.md and docs/*.md show. @returns {string[]} */
function picturesShown() {
	const documents = [
		'README.md',
		...fs.readdirSync(path.join(REPO_ROOT, 'docs')).map((name) => `docs/${name}`),
	].filter((file) => file.endsWith('.md'));
	const shown = documents.flatMap((file) => {
		const text = fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
		return [...text.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((match) =>
			path.relative(IMAGES, path.resolve(path.dirname(path.join(REPO_ROOT, file)), match[1])),
		);
	});
	return [...new Set(shown)].sort();
}

test('npm run pictures makes every picture README.md and docs/ show, from the editor', async () => {
	const shown = picturesShown();
	expect(shown).toEqual(expect.arrayContaining(['cost-notice.png', 'weekly-trend-report.png']));
	const before = Date.now();
	const { code, output } = await runToEnd('npm run --silent pictures', { timeoutS: 900 });

	expect(output).toContain('[pictures] made in');
	expect(code).toBe(0);
	// Each one written by this run, and none in docs/images that no document shows.
	const written = shown.filter((file) => fs.statSync(path.join(IMAGES, file)).mtimeMs >= before);
	expect(written).toEqual(shown);
	expect(fs.readdirSync(IMAGES).sort()).toEqual(shown);
});
