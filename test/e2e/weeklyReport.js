'use strict';

// examples/weekly-trend-report.json after a week of examples/trend-history.json, in the real n8n
// of a scenario (scenario.js): shared by the e2e check of the report and the editor layer, which
// opens the page in Chromium.

const HISTORY = 'examples/trend-history.json';
const REPORT = 'examples/weekly-trend-report.json';
const DAY_MS = 86_400_000;

/**
 * Runs the trend history once a day for `days` days up to `lastDay` (ISO date), the service's
 * clock moving a day between runs (post counts grow).
 * @param {ReturnType<typeof import('./scenario').useN8n>} scenario @param {string} lastDay
 */
async function runHistoryWeek(scenario, lastDay, days = 7) {
	const last = Date.parse(`${lastDay}T00:00:00Z`);
	for (let back = days - 1; back >= 0; back--) {
		const day = new Date(last - back * DAY_MS).toISOString().slice(0, 10);
		const run = await scenario.run(HISTORY, { settings: { day } });
		if (run.status !== 'success') throw failed(`${HISTORY} on ${day}`, run);
		if (back > 0) await scenario.service.passTime({ days: 1 });
	}
}

/**
 * Runs the weekly report for the week ending `day`: its page (the Weekly Chart node's html, what
 * Report File puts in a file), the risers it lists, the file's binary data entry and the page
 * Show Report shows in n8n's output panel.
 * @param {ReturnType<typeof import('./scenario').useN8n>} scenario @param {string} day
 */
async function runWeeklyReport(scenario, day) {
	const run = await scenario.run(REPORT, { settings: { day } });
	if (run.status !== 'success') throw failed(REPORT, run);
	const [chart] = run.items('Weekly Chart');
	const file = run.runData['Report File'][0].data.main[0][0].binary.data;
	const [shown] = run.items('Show Report');
	const risers = /** @type {any[]} */ (chart.risers);
	return { html: String(chart.html), risers, file, shown: shown?.html };
}

/** @param {string} what @param {any} run */
function failed(what, run) {
	const error = run.error?.message ?? run.error?.description ?? JSON.stringify(run.error);
	return new Error(`${what}: ${run.status} at ${run.lastNodeExecuted}: ${error}`);
}

module.exports = { runHistoryWeek, runWeeklyReport };
