'use strict';

// What the trend examples' one green run from the canvas (cases/examples.js) must also show in the
// first session of `npm start`, with nothing prepared but what it prepares (the demo trend
// history, test/harness/stack/demoHistory.js): the weekly report draws its chart, a line per top
// riser, in n8n's own output panel (Show Report's HTML view), and the rising alert writes rising
// sounds (the breakout alert: breakouts), not a notice, to its CSV file. Screenshots in
// artifacts/editor/trends/; the report page alone is the README's picture
// (docs/images/weekly-trend-report.png, replaced with DOCS_IMAGES=1). Their exact figures and file columns are e2e's (test/e2e/cases/trends.js).

const fs = require('node:fs');
const path = require('node:path');

const REPORT = path.join('examples', 'weekly-trend-report.json');
const ALERT = path.join('examples', 'rising-sounds-alert.json');
const BREAKOUT_ALERT = path.join('examples', 'breakout-alert.json');

/** @typedef {import('../session').EditorSession} EditorSession */

/**
 * After the report's run: opens Show Report and checks the page its output panel shows; then the
 * page alone, as the README shows it.
 * @param {EditorSession} session @param {any} run @param {ReturnType<EditorSession['folder']>} folder
 */
async function reportInN8n({ page }, run, { shot, docsShot }) {
	const [chart] = run.resultData.runData['Weekly Chart'].at(-1).data.main[0];
	const { html, risers } = chart.json;
	// A chart needs at least two sounds' lines to compare; the demo history has more than 5 risers.
	expect(risers).toHaveLength(5);

	await page.locator('[data-test-id="canvas-node"][data-node-name="Show Report"]').dblclick({
		force: true,
	});
	const shown = page.getByTestId('output-panel').frameLocator('iframe.__html-display');
	// The panel fills its iframe after it opens: wait for the chart before counting its lines.
	await shown.locator('.chart .line').first().waitFor();
	await expect(shown.locator('.chart .line').count()).resolves.toBe(risers.length);
	const titles = await shown.locator('tbody tr td:nth-child(2)').allInnerTexts();
	expect(titles.map((title) => title.trim())).toEqual(risers.map((r) => String(r.title)));
	// Honestly labelled: the seeded days are named as demo data on the page.
	await expect(shown.locator('strong.demo').innerText()).resolves.toBe('Demo data');
	await shot('weekly-trend-report-in-n8n');
	await page.getByTestId('ndv-close-button').click();

	// Wide enough for the 600 px chart and the table side by side, as on a laptop screen.
	await page.setViewportSize({ width: 1320, height: 480 });
	try {
		await page.setContent(html);
		const lines = await page.locator('.chart').boundingBox();
		const table = await page.locator('table').boundingBox();
		// Side by side: the table starts right of the chart, level with it.
		expect(table?.x).toBeGreaterThan((lines?.x ?? 0) + (lines?.width ?? 0));
		expect(Math.abs((table?.y ?? 0) - (lines?.y ?? 0))).toBeLessThan(40);
		await docsShot('weekly-trend-report');
	} finally {
		await page.setViewportSize({ width: 1440, height: 900 });
	}
}

/**
 * After an alert's run: its trigger's memory (seeded a day ago; two for breakouts) found rising
 * (breakout) sounds, and they, not a notice, are the rows of the one CSV it wrote.
 * @param {EditorSession} session @param {any} run @param {string[]} newFiles @param {string} trigger
 */
async function alertWritesSounds({ stack }, run, newFiles, trigger) {
	const items = run.resultData.runData[trigger][0].data.main[0].map((i) => i.json);
	expect(items.length).toBeGreaterThan(0);
	expect(items.filter((item) => 'notice' in item)).toEqual([]);
	expect(newFiles).toHaveLength(1);
	const csv = fs.readFileSync(path.join(stack.filesFolder, newFiles[0]), 'utf8');
	const ids = csv
		.trim()
		.split(/\r?\n/)
		.slice(1)
		.map((row) => row.split(',')[0]);
	expect(ids).toEqual(items.map((item) => String(item.soundId)));
}

/**
 * The checks cases/examples.js runs after the trend examples' green runs.
 * @param {EditorSession} session
 * @returns {Record<string, import('./examples').MoreChecks>}
 */
function trendChecks(session) {
	const folder = session.folder('trends');
	return {
		[REPORT]: (_, { run }) => folder.step('weekly-report', () => reportInN8n(session, run, folder)),
		[ALERT]: (_, { run, newFiles }) =>
			folder.step('rising-alert', () => alertWritesSounds(session, run, newFiles, 'Rising Sounds')),
		[BREAKOUT_ALERT]: (_, { run, newFiles }) =>
			folder.step('breakout-alert', () =>
				alertWritesSounds(session, run, newFiles, 'Breakout Sounds'),
			),
	};
}

module.exports = { trendChecks };
