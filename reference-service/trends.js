'use strict';

// Scripted trends: how one sound's post count moves with the service's days, for trend tests and
// demos that need a steady grower, a burst at a known day, or counts shown rounded the way
// platforms show large counts ("1.2M"). Sounds without a script grow at their catalogue rate.

const scriptKey = (query, index) => `${query}:${index}`;

/**
 * A sound's post count on `day`: its start count (day 0) grown by its daily rate (compounded),
 * times every burst that has happened by then, plus the script's new posts a day (`dailyPosts`,
 * times each of its `paceChanges` from its day on), shown rounded when the script says so. `takeoff`:
 * a riser's day of takeoff (before day 0), before which it grew at `before` a day.
 * @param {number} day @param {number} start @param {number} dailyGrowth
 * @param {import('./trendControl').TrendScript | undefined} script
 * @param {{ day: number, before: number }} [takeoff]
 */
function postCountOn(day, start, dailyGrowth, script = {}, takeoff = undefined) {
	const rate = script.dailyGrowth ?? dailyGrowth;
	// A scripted rate is the script's whole story: no takeoff.
	const bend = script.dailyGrowth === undefined && takeoff && day < takeoff.day ? takeoff : null;
	const factor = bend
		? (1 + rate) ** bend.day * (1 + bend.before) ** (day - bend.day)
		: (1 + rate) ** day;
	let count = (script.postCount ?? start) * factor;
	for (const burst of script.bursts ?? []) if (day >= burst.day) count *= 1 + burst.percent / 100;
	count = Math.round(count + postsAdded(day, script));
	return script.rounded ? shownRounded(count) : count;
}

/**
 * The posts a linear script added by `day`: `dailyPosts` a day, times every pace change's `times`
 * from its day on (a takeoff: 3 triples the pace).
 * @param {number} day @param {import('./trendControl').TrendScript} script
 */
function postsAdded(day, { dailyPosts = 0, paceChanges = [] }) {
	const changes = [...paceChanges].sort((a, b) => a.day - b.day);
	let [posts, from, pace] = [0, 0, dailyPosts];
	for (const change of changes) {
		if (change.day >= day) break;
		posts += pace * Math.max(0, change.day - from);
		[from, pace] = [Math.max(from, change.day), pace * change.times];
	}
	return posts + pace * Math.max(0, day - from);
}

/** As a platform shows it: 1,234,567 as "1.2M" (1,200,000), 123,456 as "123.4K" (123,400). */
function shownRounded(count) {
	if (count >= 1_000_000) return Math.floor(count / 100_000) * 100_000;
	if (count >= 10_000) return Math.floor(count / 100) * 100;
	return count;
}

module.exports = { postCountOn, postsAdded, scriptKey, shownRounded };
