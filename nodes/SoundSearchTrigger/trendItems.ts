import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import type { SearchInput } from '../SoundSearch/shared/searchInput';
import type { SearchPage } from '../SoundSearch/shared/searchPage';
import { toSoundItems } from '../SoundSearch/shared/soundItems';
import type { SoundTrend, TrendState } from './trendState';

export interface TrendRules {
	event: 'newSound' | 'risingSound';
	minGrowthPercent: number;
	minGrowthPosts: number;
	emitOnFirstPoll: boolean;
	/** "Fetch Test Event": every sound found comes out, and nothing is remembered. */
	manual: boolean;
}

/**
 * The items one keyword's pages yield under the rules, remembering every sound seen for the first
 * time in `state` (a working copy: the poll saves it only when every keyword succeeded).
 */
export function trendItems(
	state: TrendState,
	input: SearchInput,
	pages: SearchPage[],
	rules: TrendRules,
	now: number,
): INodeExecutionData[] {
	const baselined = state.isBaselined(input.platform, input.query);
	const items = pages.flatMap((page, index) =>
		toSoundItems(page, index + 1, input, 0, false).flatMap(({ json }) => {
			const soundId = String(json.soundId);
			const prior = state.get(input.platform, soundId);
			if (!prior) state.remember(input.platform, soundId, postCountOf(json), now);
			const trend = trendFields(json, prior, now);
			if (!rules.manual && !shouldEmit(rules, prior, baselined, trend)) return [];
			// A manual poll's working copy is never saved, so marking it there changes nothing.
			if (rules.event === 'risingSound') state.markRisingEmitted(input.platform, soundId);
			return [withTrend(json, input, trend)];
		}),
	);
	state.markBaselined(input.platform, input.query);
	return items;
}

function shouldEmit(
	rules: TrendRules,
	prior: SoundTrend | undefined,
	baselined: boolean,
	trend: Trend,
): boolean {
	if (rules.event === 'newSound') return !prior && (baselined || rules.emitOnFirstPoll);
	if (!prior || prior.risingEmitted || trend.growthPosts === null) return false;
	return (
		trend.growthPosts >= rules.minGrowthPosts &&
		trend.growthPercent !== null &&
		trend.growthPercent >= rules.minGrowthPercent
	);
}

interface Trend {
	firstSeenAt: string;
	postCountThen: number | null;
	postCountNow: number | null;
	growthPosts: number | null;
	growthPercent: number | null;
	postsPerDay: number | null;
}

/** Growth since the trigger first saw the sound (never between two polls: counts are rounded). */
function trendFields(json: IDataObject, prior: SoundTrend | undefined, now: number): Trend {
	const postCountNow = postCountOf(json);
	const firstSeen = prior?.firstSeenAt ?? now;
	const postCountThen = prior ? prior.postCountThen : postCountNow;
	const growthPosts =
		postCountNow === null || postCountThen === null ? null : postCountNow - postCountThen;
	const days = (now - firstSeen) / 86400;
	return {
		firstSeenAt: new Date(firstSeen * 1000).toISOString(),
		postCountThen,
		postCountNow,
		growthPosts,
		growthPercent:
			growthPosts !== null && postCountThen ? round1((growthPosts / postCountThen) * 100) : null,
		// Less than a minute of history says nothing about a daily rate.
		postsPerDay: growthPosts !== null && days >= 1 / 1440 ? round1(growthPosts / days) : null,
	};
}

function withTrend(json: IDataObject, input: SearchInput, trend: Trend): INodeExecutionData {
	return { json: { ...json, query: input.query, platform: input.platform, ...trend } };
}

function postCountOf(json: IDataObject): number | null {
	return typeof json.postCount === 'number' ? json.postCount : null;
}

const round1 = (value: number) => Math.round(value * 10) / 10;
