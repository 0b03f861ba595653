import type { IDataObject } from 'n8n-workflow';
import { last, samplesToKeep, type Sample } from './trendWindow';

/** The flag of a sound reported in its current rise: it is reported again after the rise ends. */
const IN_REPORTED_RISE = 1;

/**
 * The trigger's memory in this node's static data. Version 2: per "platform:soundId" [flags, t0,
 * c0, t1 - t0, c1 - c0, ...] (readings as deltas, for size), or [flags, lastSeenAt] without post
 * counts. Version 1 (no `v`): [firstSeenAt, postCountThen, flags], read by migrate().
 */
// A type, not an interface: static data takes it as it is (an interface has no index signature).
export type TrendMemory = {
	v?: 2;
	/** "platform:keyword" pairs whose first poll (the baseline) is done. */
	baselined: string[];
	/** When the last poll that searched succeeded (unix s). */
	lastPollAt?: number;
	sounds: Record<string, number[]>;
};

interface SoundMemory {
	flags: number;
	samples: Sample[];
}

/** A working copy of the memory: changes reach static data only through save(). */
export class TrendState {
	private readonly baselined: Set<string>;
	private readonly sounds = new Map<string, SoundMemory>();
	private readonly lastPollAt?: number;

	constructor(stored: IDataObject) {
		const memory = (stored.trends ?? {}) as Partial<TrendMemory>;
		this.baselined = new Set(memory.baselined ?? []);
		this.lastPollAt = memory.lastPollAt;
		for (const [key, record] of Object.entries(memory.sounds ?? {})) {
			this.sounds.set(key, memory.v === 2 ? decode(record) : migrate(record));
		}
	}

	/** Whether a poll now is too soon after the last one that searched. */
	tooSoon(now: number, minIntervalSeconds: number, tolerance: number) {
		const last = this.lastPollAt;
		return last !== undefined && now - last < minIntervalSeconds - tolerance;
	}

	isBaselined(platform: string, keyword: string) {
		return this.baselined.has(`${platform}:${keyword}`);
	}

	markBaselined(platform: string, keyword: string) {
		this.baselined.add(`${platform}:${keyword}`);
	}

	/** The readings remembered of a sound, oldest first; undefined for a sound never seen. */
	samples(key: string): Sample[] | undefined {
		return this.sounds.get(key)?.samples;
	}

	inReportedRise(key: string) {
		return ((this.sounds.get(key)?.flags ?? 0) & IN_REPORTED_RISE) !== 0;
	}

	setInReportedRise(key: string, value: boolean) {
		const sound = this.sounds.get(key);
		if (sound) sound.flags = value ? sound.flags | IN_REPORTED_RISE : 0;
	}

	/** Adds a reading of a sound seen now (a second reading at the same second replaces the first). */
	record(key: string, sample: Sample) {
		const sound = this.sounds.get(key) ?? { flags: 0, samples: [] };
		if (last(sound.samples)?.at === sample.at) sound.samples.pop();
		sound.samples.push(sample);
		this.sounds.set(key, sound);
	}

	/** Writes the memory back: the readings a window can need; beyond `bound`, the least recent go. */
	save(stored: IDataObject, bound: number, now: number, windowSeconds: number) {
		const lastSeen = (sound: SoundMemory) => last(sound.samples)?.at ?? 0;
		const byLastSeen = [...this.sounds.entries()].sort(([, a], [, b]) => lastSeen(b) - lastSeen(a));
		const sounds: Record<string, number[]> = {};
		for (const [key, sound] of byLastSeen.slice(0, bound)) {
			sounds[key] = encode(sound.flags, samplesToKeep(sound.samples, now, windowSeconds));
		}
		const memory: TrendMemory = { v: 2, baselined: [...this.baselined], lastPollAt: now, sounds };
		stored.trends = memory;
	}
}

function encode(flags: number, samples: Sample[]): number[] {
	const latest = last(samples) as Sample;
	if (samples.some((sample) => sample.count === null)) return [flags, latest.at];
	const record = [flags, samples[0].at, samples[0].count as number];
	for (let index = 1; index < samples.length; index++) {
		const [before, sample] = [samples[index - 1], samples[index]];
		record.push(sample.at - before.at, (sample.count as number) - (before.count as number));
	}
	return record;
}

function decode(record: number[]): SoundMemory {
	const [flags, at] = record;
	if (record.length === 2) return { flags, samples: [{ at, count: null }] };
	const samples: Sample[] = [{ at, count: record[2] }];
	for (let index = 3; index < record.length; index += 2) {
		const before = samples[samples.length - 1] as { at: number; count: number };
		samples.push({ at: before.at + record[index], count: before.count + record[index + 1] });
	}
	return { flags, samples };
}

/** A version 1 sound: known, its first reading its history (stale after two windows), its flag. */
function migrate(record: number[]): SoundMemory {
	const [firstSeenAt, postCountThen, flags] = record as [number, number | null, number];
	return { flags: flags & IN_REPORTED_RISE, samples: [{ at: firstSeenAt, count: postCountThen }] };
}
