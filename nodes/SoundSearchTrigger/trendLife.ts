import { referenceSample, roundingStep, type Growth, type Sample } from './trendWindow';

/** Breakout Sound: the pace of the latest window against the window before. */
export interface BreakoutRules {
	/** The latest window's pace is at least this many times the pace before (2: doubled). */
	minAcceleration: number;
	/** And at least this many new posts a day, so 10 → 25 posts a day is no breakout. */
	minPostsPerDay: number;
}

/** Where a sound stands, from its two paces (docs/trends.md defines each word). */
export type Stage = 'new' | 'breakout' | 'accelerating' | 'steady' | 'slowing';

/** A sound's life on a trend item, and what the Breakout Sound event orders by. */
export interface Life {
	postsPerDayBefore: number | null;
	acceleration: number | null;
	stage: Stage | null;
	breakout: boolean;
}

const SECONDS_PER_DAY = 86400;
/** "Accelerating" and "slowing" need the pace up by a quarter, or down by a fifth, for sure. */
const ACCELERATING = 1.25;
const SLOWING = 0.8;
/**
 * The latest window must span at least this share of a window (its start is kept to an eighth of
 * one), the window before at least BEFORE_SHARE (the memory keeps it in half-window steps).
 */
const LATEST_SHARE = 0.75;
const BEFORE_SHARE = 0.5;
/** A breakout's ratio with rounding against it is at least this share of Min Acceleration. */
const ROUNDING_SHORTFALL = 0.8;

/** What a pace between two readings can be, given the counts' rounding (1.2M: 100,000 posts). */
interface PaceRange {
	least: number;
	most: number;
	shown: number;
}

/**
 * The sound's life from its readings before now and the latest window's growth: the pace of the
 * window before (the reading about a window before the one the growth starts from), their ratio,
 * the stage, and whether it is a breakout. Too little history for two windows: stage "new", no
 * pace before, no acceleration, no breakout.
 */
export function lifeOf(
	history: Sample[] | undefined,
	growth: Growth,
	windowSeconds: number,
	rules: BreakoutRules,
): Life {
	const start: Sample = { at: growth.windowStart, count: growth.postCountThen };
	const now: Sample = { at: growth.windowStart + growth.spanSeconds, count: growth.postCountNow };
	const before = history && referenceSample(history, start.at, windowSeconds);
	const spans = (from: Sample, to: Sample, share: number) =>
		to.at - from.at >= share * windowSeconds;
	// No post counts (the photo-and-video platform): no pace, no stage.
	if (now.count === null) return unknown(null);
	const young = !before || !spans(before, start, BEFORE_SHARE) || !spans(start, now, LATEST_SHARE);
	if (young) return unknown('new');
	const [latest, earlier] = [paceRange(start, now), paceRange(before, start)];
	// A count the service did not report at one of the earlier readings.
	if (!latest || !earlier) return unknown(null);
	// A pace before under a post a day counts as one: a sound at rest that takes off has a ratio.
	const acceleration = round2(latest.shown / Math.max(earlier.shown, 1));
	const breakout = isBreakout(latest, earlier, rules);
	return {
		postsPerDayBefore: round1(earlier.shown),
		acceleration,
		stage: stageOf(breakout, latest, earlier),
		breakout,
	};
}

const unknown = (stage: 'new' | null): Life => ({
	postsPerDayBefore: null,
	acceleration: null,
	stage,
	breakout: false,
});

/**
 * Rounded counts both ways. The multiple is one the shown counts allow (an exact doubling shown
 * rounded reads a little under or over 2), and rounding may take at most a fifth off it (a sound
 * at 30 % a day whose rounded counts read 2 is none); the pace certainly rose (a step alone,
 * 1.2M → 1.3M at a constant pace, never passes); and the pace as shown is at least Min Posts per
 * Day (the item's postsPerDay: a user can check it).
 */
function isBreakout(latest: PaceRange, earlier: PaceRange, rules: BreakoutRules): boolean {
	const multiple = rules.minAcceleration;
	return (
		latest.most >= multiple * earlier.least &&
		latest.least >= ROUNDING_SHORTFALL * multiple * earlier.most &&
		latest.least > earlier.most &&
		latest.shown >= rules.minPostsPerDay
	);
}

/** Accelerating or slowing only when the rounding of the counts cannot explain it. */
function stageOf(breakout: boolean, latest: PaceRange, earlier: PaceRange): Stage {
	if (breakout) return 'breakout';
	if (latest.least > 0 && latest.least >= ACCELERATING * earlier.most) return 'accelerating';
	if (earlier.least > 0 && latest.most <= SLOWING * earlier.least) return 'slowing';
	return 'steady';
}

/**
 * Posts a day from one reading to the next: as shown, and the least and most it can be. A count
 * shown rounded hides up to one step at each end: a step (1.2M → 1.3M) alone is no pace for sure.
 */
function paceRange(from: Sample, to: Sample): PaceRange | undefined {
	if (from.count === null || to.count === null) return undefined;
	const days = (to.at - from.at) / SECONDS_PER_DAY;
	const posts = to.count - from.count;
	const step = Math.max(roundingStep(from.count), roundingStep(to.count));
	return {
		least: Math.max(0, posts - step) / days,
		most: Math.max(0, posts + step) / days,
		shown: posts / days,
	};
}

const round1 = (value: number) => Math.round(value * 10) / 10;
const round2 = (value: number) => Math.round(value * 100) / 100;
