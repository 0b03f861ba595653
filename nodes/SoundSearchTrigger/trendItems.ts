import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import type { SearchInput } from '../shared/input';
import type { SearchPage } from '../shared/transport';
import { pick, toSoundItems } from '../shared/output';
import { lifeOf, type BreakoutRules, type Life } from './trendLife';
import { IN_REPORTED_BREAKOUT, IN_REPORTED_RISE, type TrendState } from './trendState';
import {
	growthBetween,
	isRising,
	referenceSample,
	type Growth,
	type Thresholds,
} from './trendWindow';

export type TrendEvent = 'newSound' | 'risingSound' | 'breakoutSound';

export interface TrendRules extends Thresholds, BreakoutRules {
	event: TrendEvent;
	emitOnFirstPoll: boolean;
	growthWindowHours: number;
	/** Most rising (or breakout) sounds one poll emits, the fastest (strongest) first; 0: all. */
	topRisers: number;
	/** "Fetch Test Event": shows without remembering (the poll does not save this state). */
	manual: boolean;
}

/**
 * Version 2's Simplify for trend-watchers: the sound, its rank and growth (first, so the output
 * table shows them as it opens), its size and speed now, author, keyword, where to listen. Left
 * out: the trigger's own settings, postCountThen (now less growth), the cost (the subtitle shows
 * it per poll), the cover (a signed URL that expires), duration, fetchedAt, cache flags, page.
 */
export const TREND_SIMPLIFIED_FIELDS = [
	'soundId',
	'title',
	'rank',
	'growthPercent',
	'growthPosts',
	'postCountNow',
	'postsPerDay',
	'authorName',
	'query',
	'audioUrl',
];

interface Found {
	json: IDataObject;
	growth: Growth;
	life: () => Life;
	key: string;
}

/** A poll's items, and how many sounds it checked (each once, however many keywords found it). */
export interface TrendOutcome {
	items: INodeExecutionData[];
	soundsChecked: number;
}

/**
 * A poll's items, each sound once (its first keyword), every reading recorded in `state` (saved
 * only when every keyword succeeded). New sounds in the order found; rising ones fastest first,
 * breakouts strongest first. A keyword without pages (it failed) is skipped: nothing recorded.
 */
export function trendItems(
	state: TrendState,
	searches: SearchInput[],
	pages: Array<SearchPage[] | undefined>,
	rules: TrendRules,
	now: number,
): TrendOutcome {
	const found = new Map<string, Found>();
	const fresh = new Set<string>();
	const windowSeconds = rules.growthWindowHours * 3600;
	searches.forEach((input, index) => {
		const answered = pages[index];
		if (!answered) return;
		const baselined = state.isBaselined(input.platform, input.query);
		for (const { json } of soundsOf(input, answered)) {
			const key = `${input.platform}:${String(json.soundId)}`;
			if (found.has(key)) continue;
			const history = state.samples(key);
			const reading = {
				at: now,
				count: typeof json.postCount === 'number' ? json.postCount : null,
			};
			const growth = growthBetween(
				history && referenceSample(history, now, windowSeconds),
				reading,
			);
			// Worked out once, when asked: Breakout Sound asks of every sound, the others of those
			// they emit. `history` gets this reading below; a life reads only those before it.
			let known: Life | undefined;
			const life = () => (known ??= lifeOf(history, growth, windowSeconds, rules));
			state.record(key, reading);
			found.set(key, {
				json: { ...json, query: input.query, platform: input.platform },
				growth,
				life,
				key,
			});
			if (!history && (baselined || rules.emitOnFirstPoll)) fresh.add(key);
		}
		state.markBaselined(input.platform, input.query);
	});
	const all = [...found.values()];
	const chosen =
		rules.event === 'newSound'
			? all.filter(({ key }) => rules.manual || fresh.has(key))
			: onceEach(state, all, rules);
	const items = chosen.map((sound, index) => ({
		json: {
			...sound.json,
			rank: index + 1,
			...trendFields(sound.growth, rules),
			...lifeFields(sound.life(), state.firstSeenAt(sound.key) ?? now, now),
		},
	}));
	return { items, soundsChecked: found.size };
}

/** What a rise and a breakout each are: when a sound is one, how to order them, its flag. */
const KINDS = {
	risingSound: {
		flag: IN_REPORTED_RISE,
		holds: ({ growth }: Found, rules: TrendRules) =>
			isRising(growth, rules, rules.growthWindowHours * 3600),
		order: (a: Found, b: Found) =>
			(b.growth.growthPercent ?? 0) - (a.growth.growthPercent ?? 0) ||
			(b.growth.growthPosts ?? 0) - (a.growth.growthPosts ?? 0),
	},
	breakoutSound: {
		flag: IN_REPORTED_BREAKOUT,
		holds: (sound: Found) => sound.life().breakout,
		order: (a: Found, b: Found) =>
			(b.life().acceleration ?? 0) - (a.life().acceleration ?? 0) ||
			(b.growth.postsPerDay ?? 0) - (a.growth.postsPerDay ?? 0),
	},
};

/**
 * Sounds rising (breaking out) now not yet reported in this rise (manual: all), the fastest
 * (strongest) first, at most topRisers. Only those emitted count as reported: one cut comes out
 * later if it still qualifies.
 */
function onceEach(state: TrendState, found: Found[], rules: TrendRules): Found[] {
	const kind = KINDS[rules.event as keyof typeof KINDS];
	const now = found.filter((sound) => {
		const holds = kind.holds(sound, rules);
		if (!holds) state.set(sound.key, kind.flag, false);
		return holds && (rules.manual || !state.has(sound.key, kind.flag));
	});
	now.sort(kind.order);
	const emitted = rules.topRisers > 0 ? now.slice(0, rules.topRisers) : now;
	for (const { key } of emitted) state.set(key, kind.flag, true);
	return emitted;
}

/** A trend item (read flat) with the TREND_SIMPLIFIED_FIELDS only, in that order. */
export function simplifyTrendItem({ json }: INodeExecutionData): INodeExecutionData {
	return { json: pick(json, TREND_SIMPLIFIED_FIELDS) };
}

function soundsOf(input: SearchInput, pages: SearchPage[]) {
	return pages.flatMap((page, index) => toSoundItems(page, index + 1, input, 0, false));
}

/** What was compared: the window, the readings at its start and now, the growth between. */
function trendFields(growth: Growth, rules: TrendRules): IDataObject {
	return {
		growthWindowHours: rules.growthWindowHours,
		windowStart: new Date(growth.windowStart * 1000).toISOString(),
		postCountThen: growth.postCountThen,
		postCountNow: growth.postCountNow,
		growthPosts: growth.growthPosts,
		growthPercent: growth.growthPercent,
		postsPerDay: growth.postsPerDay,
	};
}

/** Where the sound stands: since when it is watched, its pace before, the ratio, the stage. */
function lifeFields(life: Life, firstSeenAt: number, now: number): IDataObject {
	return {
		postsPerDayBefore: life.postsPerDayBefore,
		acceleration: life.acceleration,
		stage: life.stage,
		firstSeenAt: new Date(firstSeenAt * 1000).toISOString(),
		daysTracked: Math.round(((now - firstSeenAt) / 86400) * 10) / 10,
	};
}
