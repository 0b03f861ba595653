'use strict';

// examples/keywords-from-spreadsheet.json as users run it headless: `n8n execute` on the user
// folder with no n8n server on it yet (sharedN8n.e2e.test.js registers these cases before the
// server starts: the CLI would otherwise share its SQLite database with a running server, which is
// not how users run it), with the user's .n8n-files/keywords.csv (the editor layer runs it on its
// sample rows, without a file): one search per row, every sound in one XLSX file,
// .n8n-files/sound-search-results.xlsx (left there; no other case counts it). Newest n8n line only.

const fs = require('node:fs');
const path = require('node:path');
const { REPO_ROOT } = require('../../harness/packageTarball');
const { KEYS } = require('../scenario');
const { bySearch, onePageEach, PRICE } = require('../ledger');
const { readSheet } = require('../sheets');
const { SIMPLIFIED_FIELDS } = require('../../harness/outputShape');

const EXAMPLE = 'examples/keywords-from-spreadsheet.json';

/** @param {import('../scenario').E2eScenario} scenario (not started) */
function examplesHeadless(scenario) {
	test(`${EXAMPLE} with the user's .n8n-files/keywords.csv, one search per row, all results in one XLSX file [newest n8n line only]`, async () => {
		fs.copyFileSync(
			path.join(REPO_ROOT, 'examples/keywords.csv'),
			path.join(scenario.filesDir, 'keywords.csv'),
		);
		await expectSpreadsheetRun(scenario, 'Extract Keywords from CSV');
	});
}

/**
 * One run of the spreadsheet example, its keywords coming out of `rowsNode`.
 * @param {import('../scenario').E2eScenario} scenario @param {string} rowsNode
 */
async function expectSpreadsheetRun(scenario, rowsNode) {
	const { items, runData } = await scenario.execute(EXAMPLE);
	expect(Object.keys(runData)).not.toContain('File Not Saved');

	const keywords = items(rowsNode);
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
	expect((await scenario.service.ledger()).totals).toEqual({ requests: 4, creditsCharged: 6 });

	const sounds = items('Sound Search');
	expect(sounds).toHaveLength(40);
	const fileName = '.n8n-files/sound-search-results.xlsx';
	expect(items('Write Results File')).toEqual([expect.objectContaining({ fileName })]);
	const written = path.join(scenario.filesDir, 'sound-search-results.xlsx');
	const bytes = fs.readFileSync(written);
	expect(bytes.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004'); // a zip container
	expect(bytes.includes(Buffer.from('xl/worksheets/sheet1.xml'))).toBe(true);
	const { sheetNames, rows } = readSheet(written);
	expect(sheetNames).toEqual(['Sounds']);
	expect(rows).toHaveLength(40); // one row per sound, the searches of all rows merged
	// The sheet's columns: Simplify's fields (node version 2), in its order.
	expect(Object.keys(rows[0])).toEqual(SIMPLIFIED_FIELDS);
	rows.forEach((row, i) => {
		const { keyword: query, platform } = keywords[Math.floor(i / 10)];
		const { soundId, title } = sounds[i];
		const creditsCharged = PRICE[/** @type {import('../ledger').Platform} */ (platform)];
		expect(row).toMatchObject({ soundId, title, query, platform, creditsCharged });
	});
}

module.exports = { examplesHeadless };
