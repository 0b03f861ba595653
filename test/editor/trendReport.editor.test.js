'use strict';

// The weekly trend report (examples/weekly-trend-report.json) as people see it: after a week of
// trend history in a real n8n, the page the example makes is opened in headless Chromium; its
// chart and table are there, and the screenshot is kept as
// artifacts/editor/trend-report/weekly-trend-report.png (the README's picture in docs/images/ with
// DOCS_IMAGES=1).

const { useN8n } = require('../e2e/scenario');
const { runHistoryWeek, runWeeklyReport } = require('../e2e/weeklyReport');
const { EditorBrowser } = require('./browser');
const { UI_TIMEOUT_MS } = require('./session');
const { deadlineMs } = require('../harness/deadlines');

const scenario = useN8n();
const browser = new EditorBrowser('trend-report');
const WEEK_END = '2026-12-07';
jest.setTimeout(deadlineMs(300));
/** Five lofi sounds that outgrow the catalogue's fastest (50 % a day), each its own way. */
const RISERS = [
	{ postCount: 20_003, dailyGrowth: 0.6 },
	{ postCount: 150_007, dailyGrowth: 0.25, bursts: [{ day: 3, percent: 300 }] },
	{ postCount: 800_009, dailyGrowth: 0.55 },
	{ postCount: 45_001, dailyGrowth: 0.35, bursts: [{ day: 2, percent: 200 }] },
	{ postCount: 2_400_011, dailyGrowth: 0.4, bursts: [{ day: 5, percent: 150 }] },
];

afterAll(() => browser.close({ report: WEEK_END }));

test('the weekly trend report opens in the browser: a line per top riser, the table beside it', async () => {
	for (const [index, script] of RISERS.entries()) {
		await scenario.service.setTrend({ query: 'lofi', index, ...script });
	}
	// Its first run creates the Data Table the trend history example writes to.
	await runWeeklyReport(scenario, WEEK_END);
	await runHistoryWeek(scenario, WEEK_END);
	const { html, risers } = await runWeeklyReport(scenario, WEEK_END);
	const page = await browser.open(UI_TIMEOUT_MS);
	await page.setViewportSize({ width: 1200, height: 520 });
	await page.setContent(html);

	await expect(page.locator('svg polyline').count()).resolves.toBe(risers.length);
	const titles = await page.locator('tbody tr td:nth-child(2)').allInnerTexts();
	expect(titles.map((title) => title.trim())).toEqual(risers.map((riser) => riser.title));
	const chart = await page.locator('svg').boundingBox();
	const table = await page.locator('table').boundingBox();
	// Side by side: the table starts right of the chart, level with it.
	expect(table?.x).toBeGreaterThan((chart?.x ?? 0) + (chart?.width ?? 0));
	expect(Math.abs((table?.y ?? 0) - (chart?.y ?? 0))).toBeLessThan(40);

	await browser.docsShot('weekly-trend-report');
});
