import type { IDataObject } from 'n8n-workflow';
import { TrendState } from '../../nodes/SoundSearchTrigger/trendState';
import { samplesToKeep, type Sample } from '../../nodes/SoundSearchTrigger/trendWindow';

// What the trigger remembers between polls: per sound the readings a window can still need, per
// trigger a bounded number of sounds (forgetting those seen longest ago), written to static data
// compactly and read back the same, and the memory version 1 wrote read without a lost baseline.
// The engine layer (test/engine/triggerMemory.test.ts) proves it through n8n's polls.

const HOUR = 3600;
const DAY = 24 * HOUR;
const NOW = 1_800_000_000;
const at = (ago: number, count: number | null = 1000): Sample => ({ at: NOW - ago, count });
const agesOf = (samples: Sample[]) => samples.map((sample) => (NOW - sample.at) / HOUR);

/** Static data saved by `state` and read back as the next poll reads it. */
function reread(state: TrendState, bound = 100, now = NOW, window = DAY) {
	const stored: IDataObject = {};
	state.save(stored, bound, now, window);
	return { stored, state: new TrendState(JSON.parse(JSON.stringify(stored)) as IDataObject) };
}

describe('samplesToKeep: the readings later windows can still need', () => {
	it('hourly polls for three days: the last before the window, one per eighth within, the latest', () => {
		const hourly = Array.from({ length: 73 }, (_, hour) => at((72 - hour) * HOUR));

		expect(agesOf(samplesToKeep(hourly, NOW, DAY))).toEqual([25, 24, 21, 18, 15, 12, 9, 6, 3, 0]);
	});

	it('a reading exactly a window and the cron tolerance ago is within the window', () => {
		const start = DAY + 30;
		const kept = samplesToKeep([at(start), at(start - 60), at(0)], NOW, DAY);

		expect(kept).toEqual([at(start), at(0)]);
	});

	it('polls farther apart than the window: the previous reading, if at most two windows old', () => {
		expect(samplesToKeep([at(3 * DAY), at(36 * HOUR), at(0)], NOW, DAY)).toEqual([
			at(36 * HOUR),
			at(0),
		]);
		expect(samplesToKeep([at(2 * DAY), at(0)], NOW, DAY)).toEqual([at(2 * DAY), at(0)]);
		expect(samplesToKeep([at(2 * DAY + 1), at(0)], NOW, DAY)).toEqual([at(0)]);
	});

	it('the latest reading is kept once, however recent or old (when the sound was last seen)', () => {
		expect(samplesToKeep([at(0)], NOW, DAY)).toEqual([at(0)]);
		expect(samplesToKeep([at(2 * HOUR), at(0)], NOW, DAY)).toEqual([at(2 * HOUR), at(0)]);
		expect(samplesToKeep([at(30 * HOUR)], NOW, DAY)).toEqual([at(30 * HOUR)]);
		expect(samplesToKeep([at(5 * DAY), at(4 * DAY)], NOW, DAY)).toEqual([at(4 * DAY)]);
		expect(samplesToKeep([], NOW, DAY)).toEqual([]);
	});
});

describe('TrendState: the memory in static data', () => {
	it('starts empty: no baseline, no sound, no poll too soon', () => {
		const state = new TrendState({});

		expect(state.isBaselined('shortvideo', 'lofi')).toBe(false);
		expect(state.samples('shortvideo:1')).toBeUndefined();
		expect(state.inReportedRise('shortvideo:1')).toBe(false);
		expect(state.tooSoon(NOW, HOUR, 30)).toBe(false);
	});

	it('reads back what it saved: readings, flags, baselines, the last poll', () => {
		const state = new TrendState({});
		const readings = [at(25 * HOUR, 40_000), at(3 * HOUR, 48_123), at(0, 51_007)];
		for (const reading of readings) state.record('shortvideo:7', reading);
		state.record('photosocial:x', at(0, null));
		state.setInReportedRise('shortvideo:7', true);
		state.markBaselined('shortvideo', 'lofi');
		const { state: read } = reread(state);

		expect(read.samples('shortvideo:7')).toEqual(readings);
		expect(read.samples('photosocial:x')).toEqual([at(0, null)]);
		expect(read.inReportedRise('shortvideo:7')).toBe(true);
		expect(read.inReportedRise('photosocial:x')).toBe(false);
		expect(read.isBaselined('shortvideo', 'lofi')).toBe(true);
		expect(read.isBaselined('photosocial', 'lofi')).toBe(false);
		expect(read.tooSoon(NOW + HOUR - 31, HOUR, 30)).toBe(true);
		expect(read.tooSoon(NOW + HOUR - 30, HOUR, 30)).toBe(false);
	});

	it('keeps a sound as deltas: a few numbers per reading, only the readings a window needs', () => {
		const state = new TrendState({});
		// A count growing a post an hour.
		for (let hour = 72; hour >= 0; hour--)
			state.record('shortvideo:7', at(hour * HOUR, 10_000 - hour));
		state.record('photosocial:x', at(0, null));
		const { stored } = reread(state);

		// [flags, t0, c0], then (seconds, posts) from the reading before: 25 h ago, 24 h, every 3 h.
		const everyThreeHours = Array.from({ length: 8 }, () => [3 * HOUR, 3]).flat();
		expect(stored.trends).toEqual({
			v: 2,
			baselined: [],
			lastPollAt: NOW,
			sounds: {
				'shortvideo:7': [0, NOW - 25 * HOUR, 9975, HOUR, 1, ...everyThreeHours],
				'photosocial:x': [0, NOW],
			},
		});
	});

	it('a count once not reported is never stored as an invented count: only when last seen', () => {
		const state = new TrendState({});
		for (const reading of [at(9 * HOUR, 500), at(5 * HOUR, null), at(0, 700)]) {
			state.record('shortvideo:7', reading);
		}
		const { state: read } = reread(state);

		expect(read.samples('shortvideo:7')).toEqual([at(0, null)]);
	});

	it('a second reading in the same second replaces the first', () => {
		const state = new TrendState({});
		state.record('shortvideo:7', at(HOUR, 10));
		state.record('shortvideo:7', at(0, 11));
		state.record('shortvideo:7', at(0, 12));

		expect(state.samples('shortvideo:7')).toEqual([at(HOUR, 10), at(0, 12)]);
	});

	it('a rise ends when its flag is cleared; a sound never seen has no flag to set', () => {
		const state = new TrendState({});
		state.record('shortvideo:7', at(0));
		state.setInReportedRise('shortvideo:7', true);
		state.setInReportedRise('shortvideo:7', true);
		expect(state.inReportedRise('shortvideo:7')).toBe(true);
		state.setInReportedRise('shortvideo:7', false);
		expect(state.inReportedRise('shortvideo:7')).toBe(false);

		state.setInReportedRise('shortvideo:8', true);
		expect(state.inReportedRise('shortvideo:8')).toBe(false);
		expect(state.samples('shortvideo:8')).toBeUndefined();
	});

	it('beyond the bound, forgets the sounds seen longest ago, whenever first seen', () => {
		const state = new TrendState({});
		state.record('shortvideo:old-but-current', at(3 * DAY));
		state.record('shortvideo:old-but-current', at(0));
		state.record('shortvideo:gone', at(2 * HOUR));
		state.record('shortvideo:recent', at(HOUR));
		const { state: read } = reread(state, 2);

		expect(read.samples('shortvideo:old-but-current')).toEqual([at(0)]);
		expect(read.samples('shortvideo:recent')).toEqual([at(HOUR)]);
		expect(read.samples('shortvideo:gone')).toBeUndefined();
	});
});

describe('memory written by version 1', () => {
	const versionOne = (sounds: Record<string, [number, number | null, number]>) => ({
		trends: { baselined: ['shortvideo:lofi'], lastPollAt: NOW - HOUR, sounds },
	});

	it('each sound known, its first reading its history, its reported flag kept', () => {
		const state = new TrendState(
			versionOne({
				'shortvideo:1': [NOW - 2 * HOUR, 5000, 1],
				'shortvideo:2': [NOW - 3 * HOUR, 7000, 0],
				'photosocial:3': [NOW - 4 * HOUR, null, 0],
			}),
		);

		expect(state.isBaselined('shortvideo', 'lofi')).toBe(true);
		expect(state.tooSoon(NOW, 2 * HOUR, 30)).toBe(true);
		expect(state.samples('shortvideo:1')).toEqual([at(2 * HOUR, 5000)]);
		expect(state.inReportedRise('shortvideo:1')).toBe(true);
		expect(state.inReportedRise('shortvideo:2')).toBe(false);
		expect(state.samples('photosocial:3')).toEqual([at(4 * HOUR, null)]);
	});

	it('saved again as version 2 and read back the same', () => {
		const state = new TrendState(versionOne({ 'shortvideo:1': [NOW - 2 * HOUR, 5000, 1] }));
		const { stored, state: read } = reread(state);

		expect((stored.trends as { v: number }).v).toBe(2);
		expect(read.samples('shortvideo:1')).toEqual([at(2 * HOUR, 5000)]);
		expect(read.inReportedRise('shortvideo:1')).toBe(true);
		expect(read.isBaselined('shortvideo', 'lofi')).toBe(true);
	});
});
