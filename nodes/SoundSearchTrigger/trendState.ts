import type { IDataObject } from 'n8n-workflow';
import { last, samplesToKeep, type Sample } from './trendWindow';

/**
 * Flags of a sound reported in its current rise, or breakout: it is reported again after that
 * ends.
 */
export const IN_REPORTED_RISE = 1;
export const IN_REPORTED_BREAKOUT = 2;

/**
 * The trigger's memory in this node's static data. Version 3: per "platform:soundId" [flags,
 * t0 - firstSeenAt, t0, c0, t1 - t0, c1 - c0, ...] (readings as deltas, for size), or [flags,
 * lastSeenAt - firstSeenAt, lastSeenAt] without post counts. Version 2 had no firstSeenAt (its
 * first kept reading stands in); version 1 (no `v`): [firstSeenAt, postCountThen, flags].
 */
// A type, not an interface: static data takes it as it is (an interface has no index signature).
export type TrendMemory = {
	v?: 2 | 3;
	/** "platform:keyword" pairs whose first poll (the baseline) is done. */
	baselined: string[];
	/** When the last poll that searched succeeded (unix s). */
	lastPollAt?: number;
	sounds: Record<string, number[]>;
};

interface SoundMemory {
	flags: number;
	firstSeenAt: number;
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
			this.sounds.set(key, memory.v ? decode(record, memory.v) : migrate(record));
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

	/** When this trigger first saw the sound (unix s); undefined for a sound never seen. */
	firstSeenAt(key: string): number | undefined {
		return this.sounds.get(key)?.firstSeenAt;
	}

	/** Whether the sound has the flag (IN_REPORTED_RISE, IN_REPORTED_BREAKOUT). */
	has(key: string, flag: number) {
		return ((this.sounds.get(key)?.flags ?? 0) & flag) !== 0;
	}

	set(key: string, flag: number, value: boolean) {
		const sound = this.sounds.get(key);
		if (sound) sound.flags = value ? sound.flags | flag : sound.flags & ~flag;
	}

	/** Adds a reading of a sound seen now (a second reading at the same second replaces the first). */
	record(key: string, sample: Sample) {
		const sound = this.sounds.get(key) ?? { flags: 0, firstSeenAt: sample.at, samples: [] };
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
			sounds[key] = encode(sound, samplesToKeep(sound.samples, now, windowSeconds));
		}
		const memory: TrendMemory = { v: 3, baselined: [...this.baselined], lastPollAt: now, sounds };
		stored.trends = memory;
	}
}

function encode({ flags, firstSeenAt }: SoundMemory, samples: Sample[]): number[] {
	const latest = last(samples) as Sample;
	if (samples.some((sample) => sample.count === null)) {
		return [flags, latest.at - firstSeenAt, latest.at];
	}
	const record = [flags, samples[0].at - firstSeenAt, samples[0].at, samples[0].count as number];
	for (let index = 1; index < samples.length; index++) {
		const [before, sample] = [samples[index - 1], samples[index]];
		record.push(sample.at - before.at, (sample.count as number) - (before.count as number));
	}
	return record;
}

/** Version 3, or version 2 without its firstSeenAt: the first reading kept stands in for it. */
function decode(stored: number[], version: 2 | 3): SoundMemory {
	const [flags, age] = version === 3 ? stored : [stored[0], 0];
	const record = version === 3 ? [flags, ...stored.slice(2)] : stored;
	const at = record[1];
	const firstSeenAt = at - age;
	if (record.length === 2) return { flags, firstSeenAt, samples: [{ at, count: null }] };
	const samples: Sample[] = [{ at, count: record[2] }];
	for (let index = 3; index < record.length; index += 2) {
		const before = samples[samples.length - 1] as { at: number; count: number };
		samples.push({ at: before.at + record[index], count: before.count + record[index + 1] });
	}
	return { flags, firstSeenAt, samples };
}

/** A version 1 sound: known, its first reading its history (stale after two windows), its flag. */
function migrate(record: number[]): SoundMemory {
	const [firstSeenAt, postCountThen, flags] = record as [number, number | null, number];
	const samples = [{ at: firstSeenAt, count: postCountThen }];
	return { flags: flags & IN_REPORTED_RISE, firstSeenAt, samples };
}
