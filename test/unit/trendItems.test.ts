import type { IDataObject } from 'n8n-workflow';
import type { SearchInput } from '../../nodes/shared/input';
import type { SearchPage } from '../../nodes/shared/transport';
import { trendItems, type TrendRules } from '../../nodes/SoundSearchTrigger/trendItems';
import { TrendState } from '../../nodes/SoundSearchTrigger/trendState';

// One poll's items from the pages its keywords found: each sound once, rising sounds ranked.
// The engine layer (test/engine/triggerRising.test.ts, trigger.test.ts) proves the trigger's
// polls; here, what its answers alone cannot set up (one sound under two keywords, ties in %).

const DAY = 86400;
const NOW = 1_800_000_000;

/** A keyword's search: trendItems reads its platform, query and output mode. */
const search = (query: string) =>
	({ platform: 'shortvideo', query, output: { mode: 'raw' } }) as SearchInput;
/** One page of sounds, as [soundId, postCount]. */
const pageOf = (...sounds: [string, number][]): SearchPage[] => [
	{
		sounds: sounds.map(([soundId, postCount]) => ({ soundId, postCount })),
		nextCursor: null,
		creditsCharged: 1,
	},
];
const RISING: TrendRules = {
	event: 'risingSound',
	emitOnFirstPoll: false,
	growthWindowHours: 24,
	topRisers: 0,
	manual: false,
	minGrowthPercent: 20,
	minGrowthPosts: 1000,
	minAcceleration: 2,
	minPostsPerDay: 1000,
};
const NEW: TrendRules = { ...RISING, event: 'newSound', emitOnFirstPoll: true };
const fields = ({ items }: ReturnType<typeof trendItems>, ...names: string[]) =>
	items.map(({ json }) => names.map((name) => json[name]));

describe('one sound found by two keywords', () => {
	const searches = [search('lofi'), search('study')];

	it('New Sound: one item, under the first keyword that found it', () => {
		const pages = [pageOf(['a', 100], ['b', 200]), pageOf(['b', 200], ['c', 300])];
		const items = trendItems(new TrendState({}), searches, pages, NEW, NOW);

		expect(fields(items, 'soundId', 'query', 'rank')).toEqual([
			['a', 'lofi', 1],
			['b', 'lofi', 2],
			['c', 'study', 3],
		]);
	});

	it('Rising Sound: one item, with its growth within the window', () => {
		const state = new TrendState({});
		trendItems(state, searches, [pageOf(['b', 10_001]), pageOf(['b', 10_001])], RISING, NOW - DAY);
		const pages = [pageOf(['b', 15_001]), pageOf(['b', 15_001])];
		const items = trendItems(state, searches, pages, RISING, NOW);

		expect(fields(items, 'soundId', 'query', 'growthPosts', 'postCountThen')).toEqual([
			['b', 'lofi', 5_000, 10_001],
		]);
	});
});

it('Rising Sound: of two sounds grown by the same %, the one grown by more posts ranks first', () => {
	const state = new TrendState({});
	const searches = [search('lofi')];
	trendItems(state, searches, [pageOf(['small', 10_002], ['big', 20_004])], RISING, NOW - DAY);
	const pages = [pageOf(['small', 15_003], ['big', 30_006])];
	const items = trendItems(state, searches, pages, RISING, NOW);

	expect(fields(items, 'soundId', 'rank', 'growthPercent', 'growthPosts')).toEqual([
		['big', 1, 50, 10_002],
		['small', 2, 50, 5_001],
	]);
});

it('hourly polls for four days: from a day and a half on, every poll has both paces, read back from the memory as saved', () => {
	let stored: IDataObject = {};
	const stages: unknown[] = [];
	for (let hour = 0; hour <= 96; hour++) {
		const at = NOW + hour * 3600;
		const state = new TrendState(JSON.parse(JSON.stringify(stored)) as IDataObject);
		// 2,400 posts a day, exact counts.
		const { items } = trendItems(
			state,
			[search('lofi')],
			[pageOf(['a', 20_001 + 100 * hour])],
			{ ...NEW, manual: true },
			at,
		);
		stored = {};
		state.save(stored, 100, at, DAY);
		if (hour >= 36)
			stages.push(
				fields({ items, soundsChecked: 1 }, 'stage', 'postsPerDayBefore', 'postsPerDay')[0],
			);
	}
	expect(new Set(stages.map((stage) => JSON.stringify(stage)))).toEqual(
		new Set([JSON.stringify(['steady', 2400, 2400])]),
	);
});

it('Breakout Sound: the strongest first, by acceleration (as the items show it); even, the faster', () => {
	const state = new TrendState({});
	const searches = [search('lofi')];
	const breakout: TrendRules = { ...RISING, event: 'breakoutSound' };
	const day = (offset: number, counts: number[]) =>
		trendItems(
			state,
			searches,
			[pageOf(...counts.map((count, index): [string, number] => [`s${index}`, count]))],
			breakout,
			NOW + offset * DAY,
		);
	// Paces of 1,000 a day, then 3,000, 5,000 and 6,000 (three times the first, at 2,000 before).
	day(0, [5_001, 5_001, 4_001]);
	day(1, [6_001, 6_001, 6_001]);
	const poll = day(2, [9_001, 11_001, 12_001]);

	expect(fields(poll, 'soundId', 'rank', 'acceleration')).toEqual([
		['s1', 1, 5],
		['s2', 2, 3],
		['s0', 3, 3],
	]);
});
