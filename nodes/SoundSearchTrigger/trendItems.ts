import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import type { SearchInput } from '../shared/input';
import type { SearchPage } from '../shared/transport';
import { pick, toSoundItems } from '../shared/output';
import type { TrendState } from './trendState';
import {
	growthBetween,
	isRising,
	referenceSample,
	type Growth,
	type Thresholds,
} from './trendWindow';

export interface TrendRules extends Thresholds {
	event: 'newSound' | 'risingSound';
	emitOnFirstPoll: boolean;
	growthWindowHours: number;
	/** Most rising sounds one poll emits, the fastest first; 0: all. */
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
	key: string;
}

/**
 * A poll's items, each sound once (its first keyword), every reading recorded in `state` (saved
 * only when every keyword succeeded). New sounds in the order found; rising ones fastest first.
 */
export function trendItems(
	state: TrendState,
	searches: SearchInput[],
	pages: SearchPage[][],
	rules: TrendRules,
	now: number,
): INodeExecutionData[] {
	const found = new Map<string, Found>();
	const fresh = new Set<string>();
	searches.forEach((input, index) => {
		const baselined = state.isBaselined(input.platform, input.query);
		for (const { json } of soundsOf(input, pages[index])) {
			const key = `${input.platform}:${String(json.soundId)}`;
			if (found.has(key)) continue;
			const history = state.samples(key);
			const reading = {
				at: now,
				count: typeof json.postCount === 'number' ? json.postCount : null,
			};
			const growth = growthBetween(
				history && referenceSample(history, now, rules.growthWindowHours * 3600),
				reading,
			);
			state.record(key, reading);
			found.set(key, {
				json: { ...json, query: input.query, platform: input.platform },
				growth,
				key,
			});
			if (!history && (baselined || rules.emitOnFirstPoll)) fresh.add(key);
		}
		state.markBaselined(input.platform, input.query);
	});
	const chosen =
		rules.event === 'newSound'
			? [...found.values()].filter(({ key }) => rules.manual || fresh.has(key))
			: risers(state, [...found.values()], rules);
	return chosen.map(({ json, growth }, index) => ({
		json: { ...json, rank: index + 1, ...trendFields(growth, rules) },
	}));
}

/**
 * Sounds rising now not yet reported in this rise (manual: all), by growth in % then posts, at
 * most topRisers. Only those emitted count as reported: one cut comes out later if still rising.
 */
function risers(state: TrendState, found: Found[], rules: TrendRules): Found[] {
	const rising = found.filter(({ key, growth }) => {
		const now = isRising(growth, rules, rules.growthWindowHours * 3600);
		if (!now) state.setInReportedRise(key, false);
		return now && (rules.manual || !state.inReportedRise(key));
	});
	rising.sort(
		(a, b) =>
			(b.growth.growthPercent ?? 0) - (a.growth.growthPercent ?? 0) ||
			(b.growth.growthPosts ?? 0) - (a.growth.growthPosts ?? 0),
	);
	const emitted = rules.topRisers > 0 ? rising.slice(0, rules.topRisers) : rising;
	for (const { key } of emitted) state.setInReportedRise(key, true);
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
