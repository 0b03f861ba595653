'use strict';

// Sound trends in a real n8n: the Sound Search Trigger, activated, polled by n8n by itself (every
// minute, the shortest Poll Times) while the service's catalogue changes; exactly the new sounds
// come out, each once, also across a restart (scenario.restart(): the cases after this module
// run on the restarted server). Activating makes n8n poll at once: the polls the test does not
// wait a minute for (so the workflows set no minimum interval). Then the trend examples. The rules
// of Rising (windows, re-alerts, ranking, memory) are proven in test/engine/triggerRising.test.ts;
// the growth window on the real clock in trendWindow.e2e.test.js. Newest line only: the
// minute-long case (n8n's polling is the same on both lines; the alert example proves rising once
// on each) and the Data Table examples (n8n 1.123's Data Table node does not find by name a table
// its REST API just created). What they leave: rising-sounds-*.csv and top-risers-*.xlsx in the
// files folder, the Data Table "sound trend history" (no other case reads either).

const fs = require('node:fs');
const path = require('node:path');
const { sleep, soundIds } = require('../scenario');
const { readSheet } = require('../sheets');
const { deadlineMs } = require('../../harness/deadlines');
const { runHistoryWeek, runWeeklyReport } = require('../weeklyReport');

const TRIGGER = 'Sound Trends';
// n8n's own poll, once a minute: the next one, and time for the run it starts to end.
const MINUTE_POLL_TIMEOUT_MS = deadlineMs(60 + 60);
const ALERT_KEYWORDS = ['lofi', 'rainy jazz', 'workout motivation'];
/** @typedef {import('../scenario').E2eScenario} E2eScenario */
/** @typedef {{ soundId: string, growthPosts: number, then: number }} Growth */

/**
 * The growth of every sound of the keywords (their first 50) over `change`.
 * @param {E2eScenario} scenario @param {string[]} keywords @param {() => Promise<unknown>} change
 * @returns {Promise<Growth[]>}
 */
async function growthBetween(scenario, keywords, change) {
	const before = new Map();
	for (const q of keywords) {
		for (const sound of await scenario.searchService(q)) before.set(sound.soundId, sound);
	}
	await change();
	const growth = [];
	for (const q of keywords) {
		for (const sound of await scenario.searchService(q)) {
			const then = before.get(sound.soundId).postCount;
			growth.push({ soundId: sound.soundId, growthPosts: sound.postCount - then, then });
		}
	}
	return growth;
}

/** The sounds that grew past the workflows' thresholds: 20 % and 1,000 posts. */
const risingIds = (/** @type {Growth[]} */ growth) =>
	growth
		.filter((g) => g.growthPosts >= 1000 && g.growthPosts / g.then >= 0.2)
		.map((g) => g.soundId);

/** Each sound's growth in % as the trend examples round it (one decimal), by soundId. */
const growthPercents = (/** @type {Growth[]} */ growth) =>
	new Map(
		growth.map((g) => [g.soundId, Math.round((g.growthPosts / Math.max(1, g.then)) * 1000) / 10]),
	);

/**
 * The rising sounds came out, the fastest (growth in %) first, ranked.
 * @param {Record<string, any>[]} rows soundId, growthPercent, rank @param {string[]} ids
 */
function expectRanked(rows, ids) {
	expect(rows.map((row) => row.soundId).sort()).toEqual([...ids].sort());
	const percents = rows.map((row) => Number(row.growthPercent));
	expect(percents).toEqual([...percents].sort((a, b) => b - a));
	if (rows[0]?.rank !== undefined)
		expect(rows.map((row) => Number(row.rank))).toEqual(rows.map((_, i) => i + 1));
}

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

/** The rows of the one rising-sounds CSV in the files folder. @param {string} filesDir */
function risingSoundsCsv(filesDir) {
	const files = fs.readdirSync(filesDir).filter((f) => /^rising-sounds-.*\.csv$/.test(f));
	expect(files).toHaveLength(1);
	const csv = fs.readFileSync(path.join(filesDir, files[0]), 'utf8').trim().split(/\r?\n/);
	// The trigger's Simplify (version 2): its 10 fields, in order.
	expect(csv[0]).toBe(
		'soundId,title,rank,growthPercent,growthPosts,postCountNow,postsPerDay,authorName,query,audioUrl',
	);
	const header = csv[0].split(',');
	return csv.slice(1).map((line) => {
		const cells = line.split(',');
		return Object.fromEntries(
			['soundId', 'growthPercent', 'rank'].map((name) => [name, cells[header.indexOf(name)]]),
		);
	});
}

/** @param {E2eScenario} scenario (started) */
function alertWithoutHistory(scenario) {
	test("examples/rising-sounds-alert.json as imported, run before any poll: the trigger's notice goes to no CSV file", async () => {
		const csvFiles = () =>
			fs.readdirSync(scenario.filesDir).filter((f) => /^rising-sounds-.*\.csv$/.test(f));
		const before = csvFiles();
		const run = await scenario.run('examples/rising-sounds-alert.json');
		expect(run.status).toBe('success');
		// The trigger says why it has no sounds (a `notice`, no soundId) ...
		const [notice, ...more] = run.items('Rising Sounds');
		expect(more).toEqual([]);
		expect(notice).toMatchObject({ notice: expect.any(String) });
		expect(notice.soundId).toBeUndefined();
		// ... and that item stops before the file nodes: no row, no file.
		expect(run.items('Sounds Only (No Notice)')).toEqual([]);
		expect(run.runData['Convert to CSV']).toBeUndefined();
		expect(csvFiles()).toEqual(before);
	});
}

/** @param {E2eScenario} scenario (started) */
function risingSoundsAlert(scenario) {
	test('examples/rising-sounds-alert.json: the rising sounds of its keywords go to a CSV file, once', async () => {
		// The test polls again within the hour the trigger would otherwise wait.
		const set = { 'Rising Sounds.options.minPollInterval': 0 };
		const id = await scenario.activate('examples/rising-sounds-alert.json', { set }); // the baseline
		await sleep(2000);
		const passDay = () => scenario.service.passTime({ days: 1 });
		const growth = await growthBetween(scenario, ALERT_KEYWORDS, passDay);
		await scenario.pollNow(id);
		const [run] = await scenario.waitForRuns(id, 1);
		expect(run).toMatchObject({ mode: 'trigger', status: 'success' });

		expect(risingIds(growth).length).toBeGreaterThan(0);
		expectRanked(risingSoundsCsv(scenario.filesDir), risingIds(growth));
		await expectNothingTwice(scenario, id);
	});
}

/** @param {E2eScenario} scenario (started) */
function trendHistory(scenario) {
	test("examples/trend-history.json: daily post counts in a Data Table, the week's top risers in an XLSX [newest n8n line only]", async () => {
		// Nothing prepared: the workflow creates its Data Table on the first run and reuses it.
		const { id: projectId } = await scenario.ok('GET', '/rest/projects/personal');
		const runDay = async (/** @type {string} */ day) => {
			const run = await scenario.run('examples/trend-history.json', { settings: { day } });
			expect(run.status).toBe('success');
		};
		const growth = await growthBetween(scenario, ALERT_KEYWORDS, async () => {
			await runDay('2026-11-20');
			await scenario.service.passTime({ days: 1 });
		});
		await runDay('2026-11-21');
		await runDay('2026-11-21'); // the same day again: upserted, not added
		const filter = encodeURIComponent(JSON.stringify({ name: 'sound trend history' }));
		const tables = await scenario.ok(
			'GET',
			`/rest/projects/${projectId}/data-tables?filter=${filter}`,
		);
		expect(tables.data).toHaveLength(1);
		const [table] = tables.data;
		const rows = await scenario.ok(
			'GET',
			`/rest/projects/${projectId}/data-tables/${table.id}/rows?take=1000`,
		);
		expect(rows.count).toBe(300);

		const xlsx = path.join(scenario.filesDir, 'top-risers-2026-11-21.xlsx');
		const risers = readSheet(xlsx, 'Top risers').rows;
		const expected = growthPercents(growth);
		expect(risers).toHaveLength(20);
		for (const row of risers) expect(row.growthPercent).toBe(expected.get(String(row.soundId)));
		const top = [...expected.values()].sort((a, b) => b - a).slice(0, 20);
		expect(risers.map((row) => row.growthPercent)).toEqual(top);
	});
}

/** @param {E2eScenario} scenario (started; after trendHistory, whose days are another week) */
function weeklyTrendReport(scenario) {
	test('examples/weekly-trend-report.json: a week of Data Table history becomes a chart and a table in an HTML file [newest n8n line only]', async () => {
		const WEEK_END = '2026-12-07';
		// Before any history of that week (the table is created if missing): it says so plainly.
		const empty = await runWeeklyReport(scenario, WEEK_END);
		expect(empty.html).toContain('No sound in the history has two days');
		expect(empty.risers).toEqual([]);

		const history = () => runHistoryWeek(scenario, WEEK_END);
		const growth = await growthBetween(scenario, ALERT_KEYWORDS, history);
		const { html, risers, file, shown } = await runWeeklyReport(scenario, WEEK_END);
		// Show Report (an HTML node, which n8n's output panel shows as a page) holds the same page.
		expect(shown).toBe(html);
		const expected = growthPercents(growth);
		expect(risers.map((riser) => riser.growthPercent)).toEqual(
			[...expected.values()].sort((a, b) => b - a).slice(0, 5),
		);
		for (const riser of risers) {
			expect(riser).toMatchObject({ from: '2026-12-01', to: WEEK_END });
			expect(riser.growthPercent).toBe(expected.get(String(riser.soundId)));
		}
		// One line per riser in the chart, one row per riser in the table beside it.
		expect(html.match(/<div class="line" /g)).toHaveLength(5);
		expect(html.match(/<tr><td>\d<\/td>/g)).toHaveLength(5);
		expect(html).toContain('Top 5 rising sounds, 2026-12-01 to 2026-12-07');
		expect(file).toMatchObject({
			fileName: 'weekly-trend-report-2026-12-07.html',
			mimeType: 'text/html',
		});
	});
}

/** The trend cases, in this order. @param {E2eScenario} scenario (started) */
function trends(scenario) {
	newSounds(scenario);
	alertWithoutHistory(scenario);
	risingSoundsAlert(scenario);
	trendHistory(scenario);
	weeklyTrendReport(scenario);
}

module.exports = { trends };
