import { lifeOf } from '../../nodes/SoundSearchTrigger/trendLife';
import {
	growthBetween,
	referenceSample,
	type Sample,
} from '../../nodes/SoundSearchTrigger/trendWindow';

// A sound's life from its readings alone: the pace of the window before, the acceleration, the
// stage, and whether that is a breakout (rounded counts taken into account). The engine layer
// (test/engine/triggerBreakout.test.ts) proves the trigger built on it over a simulated month.

const HOUR = 3600;
const DAY = 24 * HOUR;
const NOW = 1_800_000_000;
const RULES = { minAcceleration: 2, minPostsPerDay: 1000 };

/** The life of a sound read at 48 h, 24 h ago and now with these counts (24 h window). */
function life(counts: [number, number, number], spacing = DAY, rules = RULES) {
	const history: Sample[] = [
		{ at: NOW - 2 * spacing, count: counts[0] },
		{ at: NOW - spacing, count: counts[1] },
	];
	const reading = { at: NOW, count: counts[2] };
	const growth = growthBetween(referenceSample(history, NOW, DAY), reading);
	return lifeOf(history, growth, DAY, rules);
}

it('a pace more than doubled, and at least Min Posts per Day: a breakout', () => {
	expect(life([20_001, 22_001, 27_001])).toEqual({
		postsPerDayBefore: 2000,
		acceleration: 2.5,
		stage: 'breakout',
		breakout: true,
	});
});

it('exactly the thresholds count (>=); a pace under Min Posts per Day is none', () => {
	expect(life([20_001, 21_001, 23_001]).breakout).toBe(true);
	expect(life([20_001, 21_001, 22_999]).breakout).toBe(false);
	expect(life([8_001, 8_401, 9_401]).breakout).toBe(true);
	expect(life([8_001, 8_401, 9_400]).breakout).toBe(false);
	expect(life([9_001, 9_011, 9_036])).toMatchObject({ acceleration: 2.5, breakout: false });
});

it('the stage: accelerating from a quarter up, slowing from a fifth down, else steady', () => {
	expect(life([20_001, 21_001, 22_251]).stage).toBe('accelerating');
	expect(life([20_001, 21_001, 22_249]).stage).toBe('steady');
	expect(life([20_001, 21_001, 21_801]).stage).toBe('slowing');
	expect(life([20_001, 21_001, 21_802]).stage).toBe('steady');
	expect(life([9_001, 9_001, 9_001])).toMatchObject({ stage: 'steady', acceleration: 0 });
});

it('a sound at rest that takes off: its pace before counts as a post a day', () => {
	expect(life([5_001, 5_001, 8_001])).toMatchObject({
		postsPerDayBefore: 0,
		acceleration: 3000,
		stage: 'breakout',
	});
});

it('an exact doubling shown rounded is a breakout, whichever way the rounding fell', () => {
	// 2,000 then 4,000 a day, shown to 100: the shown paces read 1.9 or 2.1 times.
	expect(life([20_000, 22_100, 26_000])).toMatchObject({ acceleration: 1.86, breakout: true });
	expect(life([20_100, 22_000, 26_100])).toMatchObject({ acceleration: 2.16, breakout: true });
	// The multiple past what rounding can explain: the most 3,600 can be is under twice the least
	// 2,000 can be; at 3,700 it is twice.
	expect(life([20_000, 22_000, 25_700]).breakout).toBe(true);
	expect(life([20_000, 22_000, 25_600]).breakout).toBe(false);
	// Rounding may take a fifth off the multiple, no more: the least 1,700 can be (1,600) is 1.6
	// times the most 900 can be; 1,699 (1,599) is not.
	expect(life([20_000, 20_900, 22_600]).breakout).toBe(true);
	expect(life([20_000, 20_900, 22_599]).breakout).toBe(false);
	// Shown 2 times: 1.2M, 1.5M, 2.1M, yet it may be a sound at 30 % a day (1.205M, 1.599M, 2.112M).
	expect(life([1_200_000, 1_500_000, 2_100_000])).toMatchObject({
		acceleration: 2,
		breakout: false,
	});
});

it("Min Posts per Day against the pace as shown (the item's postsPerDay)", () => {
	expect(life([20_000, 20_400, 21_400]).breakout).toBe(true);
	expect(life([20_000, 20_400, 21_399]).breakout).toBe(false);
});

it('at Min Acceleration 1, a pace rounding cannot say rose is no breakout', () => {
	const any = { minAcceleration: 1, minPostsPerDay: 1000 };
	expect(life([123_400, 133_400, 143_400], DAY, any).breakout).toBe(false);
	// It must rise for sure: the least 10,200 can be is the most 10,000 can be, no more.
	expect(life([123_400, 133_400, 143_600], DAY, any).breakout).toBe(false);
	expect(life([123_400, 133_400, 143_601], DAY, any).breakout).toBe(true);
});

it('a rounded count that steps once (1.2M → 1.3M) at a constant pace is no breakout, nor accelerating', () => {
	expect(life([1_200_000, 1_200_000, 1_300_000])).toMatchObject({
		breakout: false,
		stage: 'steady',
	});
	// Into the millions: "1.0M" may be up to 1,099,999, so the larger step (100,000) counts.
	expect(life([900_000, 905_000, 1_000_000])).toMatchObject({ breakout: false, stage: 'steady' });
	// Shown to 100: one step more on a pace of thousands says nothing either.
	expect(life([123_400, 125_400, 127_500])).toMatchObject({ breakout: false, stage: 'steady' });
	// Past what the steps can explain: 1.2M, 1.2M, 1.5M is at least 200,000 posts a day.
	expect(life([1_200_000, 1_200_000, 1_500_000])).toMatchObject({
		stage: 'breakout',
		breakout: true,
	});
});

it('too little history (under two windows, or each under three quarters of one): new, no guess', () => {
	const young = { postsPerDayBefore: null, acceleration: null, stage: 'new', breakout: false };
	expect(life([20_001, 21_001, 25_001], 17 * HOUR)).toMatchObject(young);
	const growth = growthBetween(undefined, { at: NOW, count: 20_001 });
	expect(lifeOf(undefined, growth, DAY, RULES)).toMatchObject(young);
	expect(life([20_001, 21_001, 25_001], 18 * HOUR).stage).toBe('breakout');
	// No reading a window before the window's start, or one too close to it.
	const reading = { at: NOW, count: 25_001 };
	const oneDay = [{ at: NOW - DAY, count: 20_001 }];
	const noBefore = growthBetween(oneDay[0], reading);
	expect(lifeOf(oneDay, noBefore, DAY, RULES)).toMatchObject(young);
	const close = [{ at: NOW - 30 * HOUR, count: 19_001 }, ...oneDay];
	expect(lifeOf(close, noBefore, DAY, RULES)).toMatchObject(young);
});

it('paces are per day: windows of 18 hours', () => {
	// 300 posts, then 900, in three quarters of a day each: 400, then 1,200 a day.
	expect(life([20_001, 20_301, 21_201], 18 * HOUR)).toMatchObject({
		postsPerDayBefore: 400,
		acceleration: 3,
		stage: 'breakout',
	});
});

it('no post counts (the photo-and-video platform): no pace and no stage', () => {
	const history = [{ at: NOW - 2 * DAY, count: null }];
	const growth = growthBetween(history[0], { at: NOW, count: null });
	expect(lifeOf(history, growth, DAY, RULES)).toMatchObject({ stage: null, acceleration: null });
});
