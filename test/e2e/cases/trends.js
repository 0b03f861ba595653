'use strict';

// Sound trends in a real n8n: the Sound Search Trigger, activated, polled by n8n by itself (every
// minute, the shortest Poll Times) while the service's catalogue changes; exactly the new sounds
// come out, each once, also across a restart (scenario.restart(): the cases after this module
// run on the restarted server). Activating makes n8n poll at once: the polls the test does not
// wait a minute for. Then the trend examples, each run once here (headless) with exact figures,
// and once from the canvas by the editor layer. The rules of Rising (windows, re-alerts,
// ranking, memory) are proven in test/unit/trendWindow.test.ts and
// test/engine/triggerRising.test.ts; the growth window on the real
// clock nightly. Newest line only: the minute-long case (n8n's polling is the same on both lines;
// the alert example proves rising once on each) and the Data Table examples (n8n 1.123's Data
// Table node does not find by name a table its REST API just created). What they leave:
// rising-sounds-*.csv and top-risers-*.xlsx in the files folder, the Data Table "sound trend
// history" (no other case reads either).

const fs = require('node:fs');
const path = require('node:path');
const { sleep, soundIds } = require('../scenario');
const { readSheet } = require('../sheets');
const { deadlineMs } = require('../../harness/deadlines');

const TRIGGER = 'Sound Trends';
// n8n's own poll, once a minute: the next one, and time for the run it starts to end.
const MINUTE_POLL_TIMEOUT_MS = deadlineMs(60 + 60);
const ALERT_KEYWORDS = ['lofi', 'rainy jazz', 'workout motivation'];
/** @typedef {import('../scenario').E2eScenario} E2eScenario */

/**
 * Each sound's growth in % (one decimal, as the trend examples round it) of the keywords' first
 * 50 sounds over `change`, by soundId, and which grew past the alert's thresholds (20 %, 1,000).
 * @param {E2eScenario} scenario @param {() => Promise<unknown>} change
 */
async function growthBetween(scenario, change) {
	const before = new Map();
	for (const q of ALERT_KEYWORDS) {
		for (const sound of await scenario.searchService(q)) before.set(sound.soundId, sound.postCount);
	}
	await change();
	const percents = new Map();
	const rising = [];
	for (const q of ALERT_KEYWORDS) {
		for (const { soundId, postCount } of await scenario.searchService(q)) {
			const then = before.get(soundId);
			percents.set(soundId, Math.round(((postCount - then) / Math.max(1, then)) * 1000) / 10);
			if (postCount - then >= 1000 && (postCount - then) / then >= 0.2) rising.push(soundId);
		}
	}
	return { percents, rising };
}

/** The n largest growths in %, largest first. @param {Map<string, number>} percents @param {number} n */
const top = (percents, n) => [...percents.values()].sort((a, b) => b - a).slice(0, n);

/** Polls once more and checks that nothing came out twice. @param {E2eScenario} scenario @param {string} id */
async function expectNothingTwice(scenario, id) {
	await scenario.pollNow(id);
	await sleep(3000);
	expect(await scenario.runs(id)).toHaveLength(1);
}

/** @param {E2eScenario} scenario (started) */
function newSounds(scenario) {
	test('New Sound: polling by itself, exactly the new sounds come out, each once, across a restart [newest n8n line only]', async () => {
		const id = await scenario.activate('new-sounds');
		await sleep(2000);
		expect(await scenario.runs(id)).toEqual([]); // the activation poll took the baseline

		await scenario.service.passTime({ newSounds: { 'trend alpha': 2 } });
		const expected = await scenario.topSoundIds('trend alpha', 2);
		const [byItself] = await scenario.waitForRuns(id, 1, MINUTE_POLL_TIMEOUT_MS);
		expect(byItself).toMatchObject({ mode: 'trigger', status: 'success' });
		expect(soundIds(byItself.items(TRIGGER))).toEqual(expected);
		const query = 'trend alpha';
		expect(byItself.items(TRIGGER)[0]).toMatchObject({ query, creditsCharged: 1, page: 1 });
		await expectNothingTwice(scenario, id);

		// The memory is saved with the workflow: after a restart only what is new comes out.
		await scenario.restart();
		await scenario.service.passTime({ newSounds: { 'trend beta': 1 } });
		await scenario.pollNow(id);
		const runs = await scenario.waitForRuns(id, 2);
		expect(runs).toHaveLength(2);
		expect(soundIds(runs[1].items(TRIGGER))).toEqual(await scenario.topSoundIds('trend beta', 1));
	});
}

/** @param {E2eScenario} scenario (started) */
function risingSoundsAlert(scenario) {
	test('examples/rising-sounds-alert.json: the rising sounds of its keywords go to a CSV file, once', async () => {
		// The test polls again within the hour the trigger would otherwise wait.
		const set = { 'Rising Sounds.options.minPollInterval': 0 };
		const id = await scenario.activate('examples/rising-sounds-alert.json', { set }); // the baseline
		await sleep(2000);
		const growth = await growthBetween(scenario, () => scenario.service.passTime({ days: 1 }));
		await scenario.pollNow(id);
		const [run] = await scenario.waitForRuns(id, 1);
		expect(run).toMatchObject({ mode: 'trigger', status: 'success' });

		const files = fs
			.readdirSync(scenario.filesDir)
			.filter((f) => /^rising-sounds-.*\.csv$/.test(f));
		expect(files).toHaveLength(1);
		const { rows } = readSheet(path.join(scenario.filesDir, files[0]));
		// Exactly the sounds that rose past the thresholds, the fastest first, ranked.
		expect(growth.rising.length).toBeGreaterThan(0);
		expect(rows.map((row) => row.soundId).sort()).toEqual([...growth.rising].sort());
		const percents = rows.map((row) => Number(row.growthPercent));
		expect(percents).toEqual([...percents].sort((a, b) => b - a));
		expect(rows.map((row) => Number(row.rank))).toEqual(rows.map((_, i) => i + 1));
		await expectNothingTwice(scenario, id);
	});
}

/** @param {E2eScenario} scenario (started) */
function trendHistoryAndReport(scenario) {
	test('examples/trend-history.json, two days: post counts in a Data Table, the top risers in an XLSX; examples/weekly-trend-report.json draws them as a chart and a table in an HTML file [newest n8n line only]', async () => {
		/** @param {string} file @param {string} day */
		const run = async (file, day) => {
			const done = await scenario.run(file, { settings: { day } });
			expect([file, day, done.status, done.error]).toEqual([file, day, 'success', undefined]);
			return done;
		};
		// Nothing prepared: the history creates its Data Table on the first run and reuses it.
		const growth = await growthBetween(scenario, async () => {
			await run('examples/trend-history.json', '2026-12-06');
			await scenario.service.passTime({ days: 1 });
		});
		await run('examples/trend-history.json', '2026-12-07');
		await run('examples/trend-history.json', '2026-12-07'); // the same day again: upserted
		const { id: projectId } = await scenario.ok('GET', '/rest/projects/personal');
		const tables = `/rest/projects/${projectId}/data-tables`;
		const filter = encodeURIComponent(JSON.stringify({ name: 'sound trend history' }));
		const { data: found } = await scenario.ok('GET', `${tables}?filter=${filter}`);
		expect(found).toHaveLength(1);
		const rows = await scenario.ok('GET', `${tables}/${found[0].id}/rows?take=1`);
		expect(rows.count).toBe(300); // 150 sounds, two days

		const xlsx = path.join(scenario.filesDir, 'top-risers-2026-12-07.xlsx');
		const risers = readSheet(xlsx, 'Top risers').rows;
		expect(risers.map((row) => row.growthPercent)).toEqual(top(growth.percents, 20));
		for (const row of risers)
			expect(row.growthPercent).toBe(growth.percents.get(String(row.soundId)));

		const report = await run('examples/weekly-trend-report.json', '2026-12-07');
		const [chart] = report.items('Weekly Chart');
		const html = String(chart.html);
		// Show Report (an HTML node, which n8n's output panel shows as a page) holds the same page.
		expect(report.items('Show Report')[0].html).toBe(html);
		expect(chart.risers.map((/** @type {any} */ r) => r.growthPercent)).toEqual(
			top(growth.percents, 5),
		);
		for (const riser of chart.risers) {
			expect(riser).toMatchObject({ from: '2026-12-06', to: '2026-12-07' });
			expect(riser.growthPercent).toBe(growth.percents.get(String(riser.soundId)));
		}
		// One line per riser in the chart, one row per riser in the table beside it.
		expect(html.match(/<div class="line" /g)).toHaveLength(5);
		expect(html.match(/<tr><td>\d<\/td>/g)).toHaveLength(5);
		expect(html).toContain('Top 5 rising sounds, 2026-12-01 to 2026-12-07');
		expect(report.runData['Report File'][0].data.main[0][0].binary.data).toMatchObject({
			fileName: 'weekly-trend-report-2026-12-07.html',
			mimeType: 'text/html',
		});
	});
}

/** The trend cases, in this order. @param {E2eScenario} scenario (started) */
function trends(scenario) {
	newSounds(scenario);
	risingSoundsAlert(scenario);
	trendHistoryAndReport(scenario);
}

module.exports = { trends };
