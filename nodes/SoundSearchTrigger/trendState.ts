import type { IDataObject } from 'n8n-workflow';

/** What the trigger remembers of one sound: [first seen (unix s), post count then, flags]. */
type Remembered = [number, number | null, number];

const EMITTED_RISING = 1;

/**
 * The trigger's memory, kept in the workflow's static data for this node (so n8n saves it with
 * the workflow, and two triggers never share it). Sounds are keyed by platform and soundId and
 * kept in the order first seen, so the oldest are forgotten first when the bound is reached.
 */
export interface TrendMemory {
	/** "platform:keyword" pairs whose first poll (the baseline) is done. */
	baselined: string[];
	sounds: Record<string, Remembered>;
}

export interface SoundTrend {
	firstSeenAt: number;
	postCountThen: number | null;
	risingEmitted: boolean;
}

/** A working copy of the memory: changes reach static data only through save(). */
export class TrendState {
	private readonly memory: TrendMemory;

	constructor(stored: IDataObject) {
		const copy = JSON.parse(JSON.stringify(stored.trends ?? null)) as TrendMemory | null;
		this.memory = copy ?? { baselined: [], sounds: {} };
	}

	isBaselined(platform: string, keyword: string) {
		return this.memory.baselined.includes(`${platform}:${keyword}`);
	}

	markBaselined(platform: string, keyword: string) {
		if (!this.isBaselined(platform, keyword)) this.memory.baselined.push(`${platform}:${keyword}`);
	}

	get(platform: string, soundId: string): SoundTrend | undefined {
		const entry = this.memory.sounds[`${platform}:${soundId}`];
		if (!entry) return undefined;
		return {
			firstSeenAt: entry[0],
			postCountThen: entry[1],
			risingEmitted: (entry[2] & EMITTED_RISING) !== 0,
		};
	}

	/** Remembers a sound seen for the first time now (unix seconds). */
	remember(platform: string, soundId: string, postCount: number | null, now: number) {
		this.memory.sounds[`${platform}:${soundId}`] = [now, postCount, 0];
	}

	markRisingEmitted(platform: string, soundId: string) {
		const entry = this.memory.sounds[`${platform}:${soundId}`];
		if (entry) entry[2] |= EMITTED_RISING;
	}

	/** Writes the memory back, forgetting the sounds first seen longest ago beyond `bound`. */
	save(stored: IDataObject, bound: number) {
		const keys = Object.keys(this.memory.sounds);
		for (const key of keys.slice(0, Math.max(0, keys.length - bound))) {
			delete this.memory.sounds[key];
		}
		stored.trends = this.memory as unknown as IDataObject;
	}
}
