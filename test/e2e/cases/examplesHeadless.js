'use strict';

// examples/keywords-from-spreadsheet.json as users run it headless: `n8n execute` on the user
// folder with no n8n server on it yet (sharedN8n.e2e.test.js registers this case before the server
// starts: the CLI would otherwise share its SQLite database with a running server, which is not how
// users run it), with the user's .n8n-files/keywords.csv (the editor layer runs it from the canvas
// on its sample rows, without a file): one search per row, every sound in one XLSX file,
// .n8n-files/sound-search-results.xlsx (left there; no other case counts it). Newest n8n line only.

const fs = require('node:fs');
const path = require('node:path');
const { REPO_ROOT } = require('../../harness/packageTarball');
const { KEYS } = require('../scenario');
const { bySearch, onePageEach } = require('../ledger');
const { readSheet } = require('../sheets');

const EXAMPLE = 'examples/keywords-from-spreadsheet.json';

/** @param {import('../scenario').E2eScenario} scenario (not started) */
function examplesHeadless(scenario) {
	test(`${EXAMPLE} with the user's .n8n-files/keywords.csv, one search per row, all results in one XLSX file [newest n8n line only]`, async () => {
		const csv = 'keywords.csv';
		fs.copyFileSync(path.join(REPO_ROOT, 'examples', csv), path.join(scenario.filesDir, csv));
		const { items } = await scenario.execute(EXAMPLE);

		const keywords = items('Extract Keywords from CSV');
		expect(keywords).toEqual([
			{ keyword: 'lofi', platform: 'shortvideo' },
			{ keyword: 'rainy jazz', platform: 'photosocial' },
			{ keyword: 'workout motivation', platform: 'shortvideo' },
			{ keyword: 'cinematic piano', platform: 'photosocial' },
		]);
		const searches = keywords.map(({ keyword, platform }) => ({ platform, q: keyword }));
		const authorization = `Bearer ${KEYS.sound}`;
		expect(bySearch(await scenario.ledger())).toEqual(
			onePageEach(searches, { limit: '10', outcome: 'ok', authorization }),
		);

		const sounds = items('Sound Search');
		const fileName = '.n8n-files/sound-search-results.xlsx';
		expect(items('Write Results File')).toEqual([expect.objectContaining({ fileName })]);
		const { sheetNames, rows } = readSheet(path.join(scenario.filesDir, path.basename(fileName)));
		expect(sheetNames).toEqual(['Sounds']);
		// One row per sound, the searches of all rows merged.
		expect(rows).toHaveLength(40);
		rows.forEach((row, i) => {
			const { keyword: query, platform } = keywords[Math.floor(i / 10)];
			expect(row).toMatchObject({
				soundId: sounds[i].soundId,
				title: sounds[i].title,
				query,
				platform,
			});
		});
	});
}

module.exports = { examplesHeadless };
