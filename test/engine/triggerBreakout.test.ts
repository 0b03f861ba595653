import type { IDataObject } from 'n8n-workflow';
import { fetchDirect, useReferenceService } from '../harness/engine/searchFixture';
import { triggersOn, useTrendClock } from '../harness/engine/trigger';
import {
	KEYWORDS,
	POLL_DAYS,
	SOUNDS_PER_KEYWORD,
	simulatedSounds,
	stepOf,
	trueCount,
	type Kind,
	type SimulatedSound,
} from './triggerSimulation';

// Breakout Sound over a simulated month: 500 scripted sounds of the reference service, counts
// shown rounded (triggerSimulation.ts), polled every 6 hours for 30 days through n8n-core's
// PollContext, with Add Poll Summary. Every take-off (half of them exactly doubling their daily
// posts, at the default Min Acceleration of 2) is found by the first poll of its second day; hardly
// any steady sound, compounding up to 30 % a day (and none for a rounding step) is a breakout; each
// item's life is the simulation's truth; one summary per poll counts what the poll emitted. The
// rules one by one: test/unit/trendLife.test.ts.

jest.setTimeout(120_000);

const { service, calls } = useReferenceService();
const clock = useTrendClock(service);
const MONTH = 30;

interface Report {
	sound: SimulatedSound;
	day: number;
	json: IDataObject;
}

/** Scripts the sounds; their ids by "query:index". */
async function playMonth(sounds: SimulatedSound[]) {
	for (const query of KEYWORDS) await service().setCatalogue({ query, total: SOUNDS_PER_KEYWORD });
	for (const { query, index, script } of sounds)
		await service().setTrend({ query, index, ...script });
	const byId = new Map<string, SimulatedSound>();
	for (const query of KEYWORDS) {
		const { items } = await fetchDirect(service(), 'shortvideo', {
			q: query,
			limit: SOUNDS_PER_KEYWORD,
		});
		items.forEach(({ soundId }, index) => {
			const sound = sounds.find((s) => s.query === query && s.index === index);
			if (sound) byId.set(String(soundId), sound);
		});
	}
	return byId;
}

/** The pace (posts a day) between two days of the simulation, and what rounding may hide. */
function truePace(sound: SimulatedSound, from: number, to: number) {
	const [then, now] = [trueCount(sound, from), trueCount(sound, to)];
	return { pace: (now - then) / (to - from), slack: (stepOf(then) + stepOf(now)) / (to - from) };
}

it('a simulated month: every take-off found on time, no false breakout to speak of, life and summary true', async () => {
	const sounds = simulatedSounds();
	const byId = await playMonth(sounds);
	expect(byId.size).toBe(500);
	const watch = triggersOn(service)(
		{
			keywords: KEYWORDS.join(', '),
			limit: SOUNDS_PER_KEYWORD,
			event: 'breakoutSound',
			simplify: false,
			options: { pollSummary: true },
		},
		2,
	);
	const reports: Report[] = [];
	const firstPollAt = Math.floor(Date.now() / 1000);
	for (let poll = 0; poll <= MONTH / POLL_DAYS; poll++) {
		if (poll > 0) await clock.advance(POLL_DAYS);
		const before = (await calls()).length;
		const { items, error } = await watch.poll();
		expect(error).toBeUndefined();
		const paid = (await calls()).slice(before);
		const summaries = items.filter(({ json }) => json.pollSummary === true);
		const emitted = items.filter(({ json }) => json.soundId !== undefined);
		// One summary per poll, after the sounds, counting them.
		expect(summaries).toHaveLength(1);
		expect(items[items.length - 1]).toBe(summaries[0]);
		expect(summaries[0].json).toMatchObject({
			keywordsChecked: 10,
			soundsChecked: 500,
			events: { newSound: 0, risingSound: 0, breakoutSound: emitted.length },
			creditsCharged: paid.reduce((sum, call) => sum + call.creditsCharged, 0),
			calls: paid.length,
			keywordsFailed: [],
		});
		for (const { json } of emitted) {
			reports.push({
				sound: byId.get(String(json.soundId)) as SimulatedSound,
				day: clock.day(),
				json,
			});
		}
	}

	for (const report of reports) expectLifeTrue(report, firstPollAt);
	const table = tableOf(sounds, reports);
	// Exact doublings (2.0 at a poll; between polls, doublingDay in triggerSimulation.ts) are in.
	expect(table.takeoff.exactDoublings).toBe(25);
	// Every take-off, once, by one poll into its second day (the first day is the window before).
	expect(table.takeoff.missed).toEqual([]);
	expect(table.takeoff.late).toEqual([]);
	expect(table.takeoff.reportedTwice).toEqual([]);
	expect(table.takeoff.early).toBe(0);
	for (const kind of ['flat', 'linear', 'compounding'] as const) {
		expect(table[kind].falseBreakouts).toBeLessThanOrEqual(0.02 * table[kind].sounds);
	}
	expect(table.roundingStep.falseBreakouts).toBe(0);
});

/** The item's life against the simulation: first seen at the first poll, the paces as they were. */
function expectLifeTrue({ sound, day, json }: Report, firstPollAt: number) {
	const startAt = Date.parse(String(json.windowStart)) / 1000;
	expect(Math.abs(Date.parse(String(json.firstSeenAt)) / 1000 - firstPollAt)).toBeLessThan(3);
	// One decimal, and the few seconds the polls themselves take.
	expect(Math.abs(Number(json.daysTracked) - day)).toBeLessThanOrEqual(0.051);
	expect(json.stage).toBe('breakout');
	// The window: the reading a day ago (polls every 6 hours), so the simulation's days are known.
	const startDay = Math.round(((startAt - firstPollAt) / 86400) * 4) / 4;
	expect(startDay).toBe(day - 1);
	const latest = truePace(sound, startDay, day);
	expect(Math.abs(Number(json.postsPerDay) - latest.pace)).toBeLessThanOrEqual(latest.slack + 1);
	const earlier = truePace(sound, startDay - 1, startDay);
	const before = Number(json.postsPerDayBefore);
	expect(Math.abs(before - earlier.pace)).toBeLessThanOrEqual(earlier.slack + 1);
	expect(json.acceleration).toBeCloseTo(Number(json.postsPerDay) / Math.max(before, 1), 1);
}

/** Per kind: the sounds, false breakouts; per take-off: found when, relative to its second day. */
function tableOf(sounds: SimulatedSound[], reports: Report[]) {
	const kinds: Kind[] = ['flat', 'linear', 'compounding', 'roundingStep'];
	const falseOf = (kind: Kind) => ({
		sounds: sounds.filter((sound) => sound.kind === kind).length,
		falseBreakouts: new Set(reports.filter((r) => r.sound.kind === kind).map((r) => r.sound)).size,
	});
	const takeoffs = sounds.filter((sound) => sound.kind === 'takeoff');
	const found = takeoffs.map((sound) => {
		const days = reports.filter((r) => r.sound === sound).map((r) => r.day);
		const secondDay = (sound.takeoff?.day ?? 0) + 1;
		return {
			sound,
			days,
			pollsAfterSecondDay: days.length ? (days[0] - secondDay) / POLL_DAYS : null,
		};
	});
	return {
		...(Object.fromEntries(kinds.map((kind) => [kind, falseOf(kind)])) as Record<
			Exclude<Kind, 'takeoff'>,
			ReturnType<typeof falseOf>
		>),
		takeoff: {
			sounds: takeoffs.length,
			missed: found.filter((f) => f.days.length === 0).map((f) => f.sound.takeoff),
			late: found.filter((f) => (f.pollsAfterSecondDay ?? 0) > 1).map((f) => f.sound.takeoff),
			reportedTwice: found.filter((f) => f.days.length > 1).map((f) => [f.sound.takeoff, f.days]),
			pollsAfterSecondDay: found.map((f) => f.pollsAfterSecondDay),
			exactDoublings: takeoffs.filter((sound) => sound.exactDoubling).length,
			// A take-off before its day would be a false one.
			early: found.filter((f) => f.days[0] < (f.sound.takeoff?.day ?? 0)).length,
		},
	};
}
