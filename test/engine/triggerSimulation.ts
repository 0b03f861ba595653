import { postCountOn } from '../../reference-service/trends';

// The month the breakout simulation (triggerBreakout.test.ts) plays: 500 scripted sounds of the
// reference service (reference-service/trends.js), every count shown rounded as platforms show
// it (123.4K, 1.2M), and each sound's truth: its exact count on any day, its take-off.

export type Kind = 'takeoff' | 'flat' | 'linear' | 'compounding' | 'roundingStep';

export interface SimulatedSound {
	kind: Kind;
	query: string;
	index: number;
	script: {
		postCount: number;
		dailyGrowth: number;
		dailyPosts: number;
		paceChanges: Array<{ day: number; times: number }>;
		rounded: true;
	};
	/** A take-off's day (its pace times `times` from then on). */
	takeoff?: { day: number; times: number };
	/** The take-off exactly doubles the trigger's daily new posts (no more). */
	exactDoubling?: boolean;
}

export const KEYWORDS = Array.from({ length: 10 }, (_, index) => `simulated ${index}`);
export const SOUNDS_PER_KEYWORD = 50;
/** The trigger polls every 6 hours. */
export const POLL_DAYS = 0.25;
/** How many of each kind, 500 in all, spread over the keywords. */
const MIX: Array<[Kind, number]> = [
	['takeoff', 50],
	['flat', 100],
	['linear', 150],
	['compounding', 150],
	['roundingStep', 50],
];

/** A small seeded generator: the same month every run. */
function random(seed: number) {
	let state = seed >>> 0;
	return () => {
		state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
		return state / 2 ** 32;
	};
}

/**
 * The 500 sounds. Take-offs: a steady pace of 2,000 to 20,000 posts a day that is multiplied on
 * a day from 3 to 27 and stays up, half of them so that the trigger's daily new posts exactly
 * double (2 times, at a poll; between polls, doublingDay), the rest up to 5 times; counts under a
 * million when they take off (some pass it after). Flat: no new posts. Linear: 100 to 40,000 a
 * day, some passing a million. Compounding: 1 to 30 % a day, many passing a million.
 * Rounding step: a constant 20,000 to 90,000 a day above a million, so the shown count (1.2M)
 * stands still, then steps by 100,000.
 */
export function simulatedSounds(seed = 51): SimulatedSound[] {
	const next = random(seed);
	const between = (low: number, high: number) => low + (high - low) * next();
	const whole = (low: number, high: number) => Math.round(between(low, high));
	const kinds = MIX.flatMap(([kind, count]) => Array.from({ length: count }, () => kind));
	return kinds.map((kind, position) => {
		const script = {
			postCount: whole(5_000, 900_000),
			dailyGrowth: 0,
			dailyPosts: 0,
			paceChanges: [] as Array<{ day: number; times: number }>,
			rounded: true as const,
		};
		const sound: SimulatedSound = {
			kind,
			query: KEYWORDS[position % KEYWORDS.length],
			index: Math.floor(position / KEYWORDS.length),
			script,
		};
		if (kind === 'flat') script.postCount = whole(1_000, 2_000_000);
		if (kind === 'linear') script.dailyPosts = whole(100, 40_000);
		if (kind === 'compounding') script.dailyGrowth = Math.round(between(0.01, 0.3) * 1000) / 1000;
		if (kind === 'roundingStep') {
			script.postCount = whole(1_050_000, 1_900_000);
			script.dailyPosts = whole(20_000, 90_000);
		}
		if (kind === 'takeoff') {
			const atPoll = position % 5 !== 0;
			// Between polls: on the half hour, so never at a poll.
			const day = atPoll ? whole(12, 108) / 4 : Math.round(between(3, 27) * 24) / 24 + 1 / 48;
			// Every other one exactly doubles the trigger's daily new posts, the rest up to 5 times.
			const least = atPoll ? 2 : doublingDay(day);
			const exactDoubling = position % 2 === 0;
			const times = exactDoubling ? least : Math.round(between(least, 5) * 100) / 100;
			script.postCount = whole(20_000, 500_000);
			script.dailyPosts = whole(2_000, 20_000);
			script.paceChanges = [{ day, times }];
			Object.assign(sound, { takeoff: { day, times }, exactDoubling });
		}
		return sound;
	});
}

/**
 * The pace change between polls that exactly doubles the trigger's daily new posts. At the first
 * poll of the take-off's second day, `late` days into it, the day before that poll already holds
 * `late` days at the new pace: times / (1 + (times - 1) * late) = 2. A pace merely doubled between
 * polls shows the trigger's days 1.6 to 2 times the posts of the day before, never 2.
 */
function doublingDay(day: number) {
	const late = Math.ceil((day + 1) / POLL_DAYS) * POLL_DAYS - (day + 1);
	return (2 * (1 - late)) / (1 - 2 * late);
}

/** The sound's exact count on a day of the simulation (the service shows it rounded). */
export const trueCount = ({ script }: SimulatedSound, day: number) =>
	postCountOn(day, 0, 0, { ...script, rounded: false });

/** The most a shown count hides: 100,000 from a million (1.2M), 100 from 10,000 (123.4K). */
export const stepOf = (count: number) => (count >= 1_000_000 ? 100_000 : count >= 10_000 ? 100 : 0);
