import {
	earlyTolerance,
	growthBetween,
	isRising,
	referenceSample,
	roundingStep,
	type Sample,
} from '../../nodes/SoundSearchTrigger/trendWindow';

// The Rising Sound arithmetic alone: which reading a window starts from, the growth against it,
// whether that growth is a rise (thresholds, rounding of large counts, polls farther apart than
// the window). The engine layer (test/engine/triggerRising.test.ts) proves the trigger built on it.

const HOUR = 3600;
const DAY = 24 * HOUR;
const NOW = 1_800_000_000;
/** A reading `ago` seconds before NOW. */
const at = (ago: number, count: number | null = 1000): Sample => ({ at: NOW - ago, count });
const RULES = { minGrowthPercent: 20, minGrowthPosts: 1000 };

describe('earlyTolerance: how early a cron poll may come', () => {
	it('is a tenth of the interval, at most 30 seconds', () => {
		expect(earlyTolerance(60)).toBe(6);
		expect(earlyTolerance(300)).toBe(30);
		expect(earlyTolerance(DAY)).toBe(30);
	});
});

describe('referenceSample: the reading a window starts from', () => {
	it('regular hourly polls: the one taken a window ago', () => {
		const hourly = Array.from({ length: 73 }, (_, hour) => at((72 - hour) * HOUR));

		expect(referenceSample(hourly, NOW, DAY)).toBe(hourly[48]);
	});

	it('irregular polls: the one whose age is nearest the window, the older of two as close', () => {
		const [older, nearest, newer] = [at(DAY + 5 * HOUR), at(DAY - 2 * HOUR), at(3 * HOUR)];
		expect(referenceSample([older, nearest, newer], NOW, DAY)).toBe(nearest);

		const [before, after] = [at(DAY + HOUR), at(DAY - HOUR)];
		expect(referenceSample([before, after], NOW, DAY)).toBe(before);
	});

	it('a history younger than the window: its oldest reading', () => {
		const young = [at(6 * HOUR), at(3 * HOUR), at(HOUR)];

		expect(referenceSample(young, NOW, DAY)).toBe(young[0]);
	});

	it('polls farther apart than the window: the previous one, up to two windows old', () => {
		expect(referenceSample([at(2 * DAY)], NOW, DAY)).toEqual(at(2 * DAY));
		expect(referenceSample([at(2 * DAY + 1)], NOW, DAY)).toBeUndefined();
		expect(referenceSample([at(3 * DAY), at(36 * HOUR)], NOW, DAY)).toEqual(at(36 * HOUR));
	});

	it('no reading before now: no reference (one taken this second is none either)', () => {
		expect(referenceSample([], NOW, DAY)).toBeUndefined();
		expect(referenceSample([at(0)], NOW, DAY)).toBeUndefined();
	});
});

describe('growthBetween: what a window compares', () => {
	it('the growth from the reading then, in posts, in % of the count then, per day', () => {
		const growth = growthBetween(at(DAY, 40_000), at(0, 50_000));

		expect(growth).toEqual({
			windowStart: NOW - DAY,
			postCountThen: 40_000,
			postCountNow: 50_000,
			growthPosts: 10_000,
			growthPercent: 25,
			postsPerDay: 10_000,
			spanSeconds: DAY,
			roundingMargin: 100,
		});
	});

	it('rounds % and posts per day to one decimal; a span of hours is scaled to a day', () => {
		const growth = growthBetween(at(6 * HOUR, 30_001), at(0, 30_102));

		expect(growth.growthPercent).toBe(0.3);
		expect(growth.postsPerDay).toBe(404);
		expect(growthBetween(at(7 * HOUR, 30_000), at(0, 30_001)).postsPerDay).toBe(3.4);
	});

	it('a sound never seen: compared with itself, no growth and no daily rate', () => {
		expect(growthBetween(undefined, at(0, 7_001))).toEqual({
			windowStart: NOW,
			postCountThen: 7_001,
			postCountNow: 7_001,
			growthPosts: 0,
			growthPercent: 0,
			postsPerDay: null,
			spanSeconds: 0,
			roundingMargin: 0,
		});
	});

	it('less than a minute of history gives no daily rate; a minute does', () => {
		expect(growthBetween(at(59, 1_000), at(0, 1_001)).postsPerDay).toBeNull();
		expect(growthBetween(at(60, 1_000), at(0, 1_001)).postsPerDay).toBe(1440);
	});

	it('a count not reported (then or now) or a count then of 0: no growth in %', () => {
		for (const [then, now] of [
			[null, 5_000],
			[5_000, null],
		]) {
			expect(growthBetween(at(DAY, then), at(0, now))).toMatchObject({
				growthPosts: null,
				growthPercent: null,
				postsPerDay: null,
			});
		}
		expect(growthBetween(at(DAY, 0), at(0, 5_000))).toMatchObject({
			growthPosts: 5_000,
			growthPercent: null,
			postsPerDay: 5_000,
		});
	});

	it('the rounding margin is the coarser of the two counts', () => {
		expect(growthBetween(at(DAY, 1_000_000), at(0, 1_234_500)).roundingMargin).toBe(100_000);
		expect(growthBetween(at(DAY, 999_999), at(0, 1_200_000)).roundingMargin).toBe(100_000);
		expect(growthBetween(at(DAY, 12_300), at(0, 12_345)).roundingMargin).toBe(100);
	});
});

describe('roundingStep: the precision a count was shown with', () => {
	it.each([
		[null, 0],
		[1_000_000, 100_000],
		[1_200_000, 100_000],
		[900_000, 100],
		[1_250_000, 100],
		[10_000, 100],
		[123_400, 100],
		[9_900, 0],
		[10_050, 0],
		[1_234_567, 0],
	])('%p: %p', (count, step) => {
		expect(roundingStep(count)).toBe(step);
	});
});

describe('isRising: grown by both thresholds within the window', () => {
	const rises = (then: number | null, now: number | null, span = DAY, rules = RULES) =>
		isRising(growthBetween(at(span, then), at(0, now)), rules, DAY);

	it('a growth of exactly both thresholds is a rise; a post less is not', () => {
		// 100,005 + 20,001 = exactly 20 %.
		const exact = { minGrowthPercent: 20, minGrowthPosts: 20_001 };
		expect(rises(100_005, 120_006, DAY, exact)).toBe(true);
		expect(rises(100_005, 120_005, DAY, { ...exact, minGrowthPosts: 1 })).toBe(false);
		expect(rises(100_005, 120_005, DAY, { ...exact, minGrowthPercent: 1 })).toBe(false);
	});

	it('the % is of the count at the window start, not of the count now', () => {
		// 2,200 posts: 22 % of 10,001, 18 % of 12,201.
		expect(rises(10_001, 12_201)).toBe(true);
		expect(rises(10_001, 11_901)).toBe(false);
	});

	it('no count, or none at the window start: no rise', () => {
		expect(rises(null, 50_000)).toBe(false);
		expect(rises(50_000, null)).toBe(false);
		expect(rises(0, 50_000)).toBe(false);
	});

	it('what the rounding of large counts may explain is no rise', () => {
		const low = { minGrowthPercent: 5, minGrowthPosts: 1000 };
		// 1.0M -> 1.1M is one step of "1.xM"; 2.0M -> 2.4M is at least 300,000 posts.
		expect(rises(1_000_000, 1_100_000, DAY, low)).toBe(false);
		expect(rises(2_000_000, 2_400_000, DAY, low)).toBe(true);
		// 12.3K -> 14.8K: 2,500 posts shown, at least 2,400 (19.5 %) grown.
		expect(rises(12_300, 14_800)).toBe(false);
		expect(rises(12_301, 14_801)).toBe(true);
	});

	it('polls farther apart than the window: the growth per window on average', () => {
		// 23 % in 36 hours is 15.3 % a day; in 24 hours, 23 %.
		expect(rises(10_001, 12_301, 36 * HOUR)).toBe(false);
		expect(rises(10_001, 12_301, DAY)).toBe(true);
		// 36 % in 36 hours is 24 % a day; 1,500 posts in 36 hours, 1,000 a day.
		expect(rises(10_001, 13_601, 36 * HOUR)).toBe(true);
		expect(rises(4_001, 5_501, 36 * HOUR, { minGrowthPercent: 1, minGrowthPosts: 1000 })).toBe(
			true,
		);
		expect(rises(4_001, 5_497, 36 * HOUR, { minGrowthPercent: 1, minGrowthPosts: 1000 })).toBe(
			false,
		);
	});

	it('a history younger than the window: the growth as measured, not scaled up to a window', () => {
		// 19 % in 6 hours is not 20 % within the window.
		expect(rises(10_001, 11_901, 6 * HOUR)).toBe(false);
		expect(rises(10_001, 12_101, 6 * HOUR)).toBe(true);
	});

	it('a poll 30 seconds late still measures the window as is; 31 seconds late, per window', () => {
		const exact = { minGrowthPercent: 20, minGrowthPosts: 1 };
		expect(rises(100_005, 120_006, DAY + 30, exact)).toBe(true);
		expect(rises(100_005, 120_006, DAY + 31, exact)).toBe(false);
	});
});
