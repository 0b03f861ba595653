import type { IDataObject } from 'n8n-workflow';
import { TrendState } from '../../nodes/SoundSearchTrigger/trendState';
import { samplesToKeep, type Sample } from '../../nodes/SoundSearchTrigger/trendWindow';

// What the trigger remembers between polls: per sound the readings a window can still need, in the
// format static data keeps. The engine layer (test/engine/triggerMemory.test.ts) proves the memory
// through n8n's polls: read back, bounded, forgetting, and version 1's memory read.

const HOUR = 3600;
const DAY = 24 * HOUR;
const NOW = 1_800_000_000;
const at = (ago: number, count: number | null = 1000): Sample => ({ at: NOW - ago, count });
const agesOf = (samples: Sample[]) => samples.map((sample) => (NOW - sample.at) / HOUR);

/** Static data saved by `state` and read back as the next poll reads it. */
function reread(state: TrendState) {
	const stored: IDataObject = {};
	state.save(stored, 100, NOW, DAY);
	return { stored, state: new TrendState(JSON.parse(JSON.stringify(stored)) as IDataObject) };
}

describe('samplesToKeep: the readings later windows can still need', () => {
	it('hourly polls for three days: one per half window in the window before, one per eighth within the window, the latest', () => {
		const hourly = Array.from({ length: 73 }, (_, hour) => at((72 - hour) * HOUR));

		expect(agesOf(samplesToKeep(hourly, NOW, DAY))).toEqual([
			48, 36, 24, 21, 18, 15, 12, 9, 6, 3, 0,
		]);
	});

	it("irregular polls that leave the window's start bare: the latest reading before it too (Rising Sound's reference)", () => {
		const readings = [at(30 * HOUR), at(26 * HOUR), at(20 * HOUR), at(0)];

		expect(samplesToKeep(readings, NOW, DAY)).toEqual(readings);
		// Not bare (a reading within an eighth of a window after its start): half-window steps only.
		const covered = [at(30 * HOUR), at(26 * HOUR), at(23 * HOUR), at(0)];
		expect(samplesToKeep(covered, NOW, DAY)).toEqual([at(30 * HOUR), at(23 * HOUR), at(0)]);
	});

	it('a reading exactly a window and the cron tolerance ago is within the window', () => {
		const start = DAY + 30;
		const kept = samplesToKeep([at(start), at(start - 60), at(0)], NOW, DAY);

		expect(kept).toEqual([at(start), at(0)]);
	});

	it('polls farther apart than the window: the previous readings, if at most three windows old', () => {
		expect(samplesToKeep([at(4 * DAY), at(3 * DAY), at(36 * HOUR), at(0)], NOW, DAY)).toEqual([
			at(3 * DAY),
			at(36 * HOUR),
			at(0),
		]);
		expect(samplesToKeep([at(3 * DAY + 1), at(0)], NOW, DAY)).toEqual([at(0)]);
	});

	it('the latest reading is kept once, however recent or old (when the sound was last seen)', () => {
		expect(samplesToKeep([at(0)], NOW, DAY)).toEqual([at(0)]);
		expect(samplesToKeep([at(2 * HOUR), at(0)], NOW, DAY)).toEqual([at(2 * HOUR), at(0)]);
		expect(samplesToKeep([at(30 * HOUR)], NOW, DAY)).toEqual([at(30 * HOUR)]);
		expect(samplesToKeep([at(6 * DAY), at(5 * DAY)], NOW, DAY)).toEqual([at(5 * DAY)]);
		expect(samplesToKeep([], NOW, DAY)).toEqual([]);
	});
});

describe('TrendState: the memory in static data', () => {
	it('keeps a sound as deltas: a few numbers per reading, only the readings a window needs', () => {
		const state = new TrendState({});
		// A count growing a post an hour.
		for (let hour = 72; hour >= 0; hour--)
			state.record('shortvideo:7', at(hour * HOUR, 10_000 - hour));
		state.record('photosocial:x', at(0, null));
		const { stored } = reread(state);

		// [flags, t0 - firstSeenAt, t0, c0], then (seconds, posts) from the reading before: 48 h
		// ago, 36 h, 24 h, every 3 h.
		const everyThreeHours = Array.from({ length: 8 }, () => [3 * HOUR, 3]).flat();
		const halfDays = [12 * HOUR, 12, 12 * HOUR, 12];
		expect(stored.trends).toEqual({
			v: 3,
			baselined: [],
			lastPollAt: NOW,
			sounds: {
				'shortvideo:7': [0, 24 * HOUR, NOW - 48 * HOUR, 9952, ...halfDays, ...everyThreeHours],
				'photosocial:x': [0, 0, NOW],
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
});
