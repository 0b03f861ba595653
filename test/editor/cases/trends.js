'use strict';

// The trend examples in the first session of `npm start`, with nothing prepared but what it
// prepares (the demo trend history, test/harness/stack/demoHistory.js): the weekly report draws
// its chart, a line per top riser, in n8n's own output panel (Show Report's HTML view), and the
// rising alert writes rising sounds, not a notice, to its CSV file. Screenshots in
// artifacts/editor/trends/; the report page alone is the README's picture
// (docs/images/weekly-trend-report.png, replaced with DOCS_IMAGES=1). Registered by
// editor.editor.test.js against its shared session.

const fs = require('node:fs');
const path = require('node:path');
const { runOnTheCanvas, lastRun, filesWritten } = require('./examples');

const REPORT = path.join('examples', 'weekly-trend-report.json');
const ALERT = path.join('examples', 'rising-sounds-alert.json');

/** @typedef {import('../session').EditorSession} EditorSession */

/** @param {EditorSession} session @param {string} file */
function exampleOf({ stack }, file) {
	const example = stack.workflows.find((w) => w.file === file);
	if (!example) throw new Error(`${file} was not imported`);
	return example;
}

/**
 * Runs the report from the canvas, opens Show Report and checks the page its output panel
 * shows; then the page alone, as the README shows it.
 * @param {EditorSession} session @param {ReturnType<EditorSession['folder']>} folder
 */
async function reportInN8n(session, { shot, docsShot }) {
	const { page, stack } = session;
	const example = exampleOf(session, REPORT);
	await runOnTheCanvas(page, stack, example);
	const { status, run } = await lastRun(stack, example.id);
	expect(status).toBe('success');
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
 * Runs the alert from the canvas: its trigger's memory (seeded a day ago) finds rising sounds,
 * and they, not a notice, are the rows of the CSV it writes.
 * @param {EditorSession} session @param {ReturnType<EditorSession['folder']>} folder
 */
async function alertWritesRisers(session, { shot }) {
	const { page, stack } = session;
	const example = exampleOf(session, ALERT);
	const before = filesWritten(stack);
	await runOnTheCanvas(page, stack, example);
	await shot('rising-sounds-alert');
	const { status, run } = await lastRun(stack, example.id);
	expect(status).toBe('success');
	const items = run.resultData.runData['Rising Sounds'][0].data.main[0].map((i) => i.json);
	expect(items.length).toBeGreaterThan(0);
	for (const item of items) expect(item).not.toHaveProperty('notice');

	const [csv, ...more] = filesWritten(stack).filter((f) => !before.includes(f));
	expect(more).toEqual([]);
	const [header, ...rows] = fs
		.readFileSync(path.join(stack.filesFolder, csv), 'utf8')
		.trim()
		.split(/\r?\n/);
	expect(header.split(',').slice(0, 4)).toEqual(['soundId', 'title', 'rank', 'growthPercent']);
	const ids = rows.map((row) => row.split(',')[0]);
	expect(ids).toEqual(items.map((item) => String(item.soundId)));
	for (const row of rows) expect(Number(row.split(',')[3])).toBeGreaterThanOrEqual(20);
}

/**
 * Registers the trend tests against the shared session.
 * @param {EditorSession} session
 */
function trendCases(session) {
	const folder = session.folder('trends');
	test('first session: the weekly trend report shows a chart, a line per top riser, in n8n', () =>
		folder.step('weekly-report', () => reportInN8n(session, folder)));
	test('first session: the rising sounds alert writes rising sounds to its CSV, no notice', () =>
		folder.step('rising-alert', () => alertWritesRisers(session, folder)));
}

module.exports = { trendCases };
