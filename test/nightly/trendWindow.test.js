'use strict';

// The Sound Search Trigger's shortest Growth Window (3 minutes) on the real clock in a real n8n,
// polling every minute by itself and at chosen moments, while the reference service's days move
// the counts: n8n's own clock measures the window. The rules are proven in the unit layer
// (test/unit/trendWindow.test.ts) and the engine layer (test/engine/triggerRising.test.ts), rising in n8n on each line in test/e2e/cases/trends.js.

const { useN8n, sleep, soundIds } = require('../e2e/scenario');
const { deadlineMs } = require('../harness/deadlines');

const scenario = useN8n();
const TRIGGER = 'Sound Trends';
// 3.5 minutes on the real clock, and n8n's waits around them.
jest.setTimeout(3.5 * 60_000 + deadlineMs(180));

test('Rising Sound within a 3-minute window: a rise fires, a steady grower stays quiet, a second rise fires again [newest n8n line only]', async () => {
	// The steady grower gains 6 % a service day (26 % over the test: "since first seen" it would
	// rise); the other jumps 50 % on day 1 and again on day 4.
	await scenario.service.setTrend({
		query: 'trend window',
		index: 0,
		postCount: 100_003,
		dailyGrowth: 0.06,
	});
	const bursts = [1, 4].map((day) => ({ day, percent: 50 }));
	await scenario.service.setTrend({
		query: 'trend window',
		index: 1,
		postCount: 50_001,
		dailyGrowth: 0,
		bursts,
	});
	const [steady, bursty] = await scenario.topSoundIds('trend window', 2);
	const id = await scenario.activate('rising-window'); // the baseline
	const activatedAt = Date.now();
	await sleep(2000);

	await scenario.service.passTime({ days: 1 });
	await scenario.pollNow(id);
	const [first] = await scenario.waitForRuns(id, 1);
	expect(soundIds(first.items(TRIGGER))).toEqual([bursty]);
	expect(first.items(TRIGGER)[0]).toMatchObject({
		rank: 1,
		growthWindowHours: 0.05,
		growthPercent: 50,
	});

	// Past a window after the first rise, n8n polling every minute meanwhile: the window now
	// starts after the jump, and the steady grower's 12 % over two days is no rise.
	await sleep(Math.max(0, activatedAt + 3.5 * 60_000 - Date.now()));
	await scenario.service.passTime({ days: 2 });
	await scenario.pollNow(id);
	await sleep(3000);
	expect(await scenario.runs(id)).toHaveLength(1);

	await scenario.service.passTime({ days: 1 });
	await scenario.pollNow(id);
	const runs = await scenario.waitForRuns(id, 2);
	expect(runs.map((run) => soundIds(run.items(TRIGGER)))).toEqual([[bursty], [bursty]]);
	expect(runs[1].items(TRIGGER)[0]).toMatchObject({ growthPercent: 50 });
	expect(soundIds(runs.flatMap((run) => run.items(TRIGGER)))).not.toContain(steady);
});
