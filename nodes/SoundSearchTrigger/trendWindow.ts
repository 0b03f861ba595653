/** One reading of a sound's post count: when (unix seconds) and the count (null: not reported). */
export interface Sample {
	at: number;
	count: number | null;
}

/** What one window compares: the reading it starts from, the reading now, and the growth. */
export interface Growth {
	windowStart: number;
	postCountThen: number | null;
	postCountNow: number | null;
	growthPosts: number | null;
	growthPercent: number | null;
	postsPerDay: number | null;
	/** Seconds from the reading at the window's start to the reading now. */
	spanSeconds: number;
	/** Posts the counts' rounding (1.2M) may account for: growth below this is no rise. */
	roundingMargin: number;
}

export interface Thresholds {
	minGrowthPercent: number;
	minGrowthPosts: number;
}

const SECONDS_PER_DAY = 86400;
/** Samples kept within one window: the reference is at most a window / SLOTS late. */
const SLOTS = 8;
/** A reading older than this many windows says nothing about growth "within the window". */
const STALE_WINDOWS = 2;

/** Cron polls drift: a reading a window and a few seconds old is in it; 59:58 is not early. */
export const earlyTolerance = (seconds: number) => Math.min(30, seconds / 10);

/**
 * The reading growth is measured from: the closest to a window ago (the older of two as close),
 * no older than STALE_WINDOWS. `samples` ascending.
 */
export function referenceSample(samples: Sample[], now: number, windowSeconds: number) {
	let best: Sample | undefined;
	const distance = (sample: Sample) => Math.abs(now - sample.at - windowSeconds);
	for (const sample of samples) {
		if (sample.at >= now || sample.at < now - STALE_WINDOWS * windowSeconds) continue;
		if (!best || distance(sample) < distance(best)) best = sample;
	}
	return best;
}

/** The growth from `then` (none: no history, no growth) to the reading now. */
export function growthBetween(then: Sample | undefined, now: Sample): Growth {
	const from = then ?? now;
	const [postCountThen, postCountNow] = [from.count, now.count];
	const growthPosts =
		postCountNow === null || postCountThen === null ? null : postCountNow - postCountThen;
	const days = (now.at - from.at) / SECONDS_PER_DAY;
	return {
		windowStart: from.at,
		postCountThen,
		postCountNow,
		growthPosts,
		growthPercent:
			growthPosts !== null && postCountThen ? round1((growthPosts / postCountThen) * 100) : null,
		// Less than a minute of history says nothing about a daily rate.
		postsPerDay: growthPosts !== null && days >= 1 / 1440 ? round1(growthPosts / days) : null,
		spanSeconds: now.at - from.at,
		roundingMargin: Math.max(roundingStep(postCountThen), roundingStep(postCountNow)),
	};
}

/**
 * Rising: grew by both thresholds within the window, less what rounding may explain; over a longer
 * span, by its average per window. Whole-number maths, so exactly the threshold counts.
 */
export function isRising(growth: Growth, rules: Thresholds, windowSeconds: number): boolean {
	const { growthPosts, postCountThen, spanSeconds } = growth;
	if (growthPosts === null || !postCountThen) return false;
	const sure = growthPosts - growth.roundingMargin;
	const longer = spanSeconds > windowSeconds + earlyTolerance(windowSeconds);
	const perWindow = longer ? (sure * windowSeconds) / spanSeconds : sure;
	return (
		perWindow >= rules.minGrowthPosts && perWindow * 100 >= rules.minGrowthPercent * postCountThen
	);
}

/**
 * The precision a platform shows a count with, judged from its shape: 1,200,000 was most likely
 * shown as "1.2M" (a step of 100,000), 123,400 as "123.4K" (a step of 100). Other counts: exact.
 */
export function roundingStep(count: number | null): number {
	if (count === null) return 0;
	if (count >= 1_000_000 && count % 100_000 === 0) return 100_000;
	if (count >= 10_000 && count % 100 === 0) return 100;
	return 0;
}

/**
 * The readings later windows can need, ascending: within the latest window one per window / SLOTS;
 * within the window before it (the Breakout Sound pace compares two windows) one per half window,
 * or the latest before it when none is near its start; the latest before the latest window when
 * polls leave that window's start bare (Rising Sound's reference); always the latest (when the
 * sound was last seen).
 */
export function samplesToKeep(samples: Sample[], now: number, windowSeconds: number): Sample[] {
	const start = now - windowSeconds - earlyTolerance(windowSeconds);
	const before = start - windowSeconds;
	const stale = now - (STALE_WINDOWS + 1) * windowSeconds;
	const within = (from: number, to: number) =>
		samples.filter((sample) => sample.at >= from && sample.at < to);
	const latestBefore = (at: number) =>
		samples.filter((sample) => sample.at < at && sample.at >= stale).slice(-1);
	const inLatest = spaced(within(start, Infinity), windowSeconds / SLOTS);
	const inBefore = spaced(within(before, start), windowSeconds / 2);
	const bare = (from: number, share: number) =>
		!samples.some((sample) => sample.at >= from && sample.at < from + windowSeconds * share);
	const kept = [
		...(bare(before, 1 / 2) ? latestBefore(before) : []),
		...inBefore,
		...(bare(start, 1 / SLOTS) ? latestBefore(start).filter((s) => !inBefore.includes(s)) : []),
		...inLatest,
	];
	const latest = last(samples);
	// The latest may be kept above already, or be too close to the one kept before it.
	if (latest && last(kept) !== latest) kept.push(latest);
	return kept;
}

/** The first sample, then each at least `spacing` after the one kept before it. */
function spaced(samples: Sample[], spacing: number): Sample[] {
	let lastKept = -Infinity;
	return samples.filter((sample) => {
		if (sample.at - lastKept < spacing) return false;
		lastKept = sample.at;
		return true;
	});
}

export const last = <T>(list: T[]): T | undefined => list[list.length - 1];
const round1 = (value: number) => Math.round(value * 10) / 10;
