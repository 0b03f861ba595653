'use strict';

// POST /__sandbox/trends: a scripted trend for one sound (trends.js), until the next reset.

const { normalizeQuery } = require('./catalogue');
const { check, isObject } = require('./answers');
const { scriptKey } = require('./trends');

/**
 * @typedef {{postCount?: number, dailyGrowth?: number, rounded?: boolean,
 *   bursts?: {day: number, percent: number}[], dailyPosts?: number,
 *   paceChanges?: {day: number, times: number}[]}} TrendScript
 * Body {query, index, postCount?, dailyGrowth?, bursts?, rounded?, dailyPosts?, paceChanges?}:
 * the short-video sound at catalogue position `index` (0: the first of the query at day 0)
 * follows this script from now.
 */
function setTrend(state, body) {
	const query = normalizeQuery(typeof body.query === 'string' ? body.query : '');
	check(query, 'query must be a non-empty string');
	check(Number.isSafeInteger(body.index) && body.index >= 0, 'index must be an integer >= 0');
	const { postCount, dailyGrowth, bursts = [], rounded = false } = body;
	const { dailyPosts = 0, paceChanges = [] } = body;
	const countOk = postCount === undefined || (Number.isSafeInteger(postCount) && postCount >= 0);
	check(countOk, 'postCount must be an integer >= 0');
	const rateOk = dailyGrowth === undefined || (Number.isFinite(dailyGrowth) && dailyGrowth >= 0);
	check(rateOk, 'dailyGrowth must be a number >= 0 (0.02: 2 % a day)');
	const burstOk = (burst) =>
		isObject(burst) && burst.day >= 0 && Number.isFinite(burst.percent) && burst.percent > -100;
	check(Array.isArray(bursts) && bursts.every(burstOk), 'bursts must be [{day >= 0, percent}]');
	check(typeof rounded === 'boolean', 'rounded must be a boolean');
	check(Number.isFinite(dailyPosts) && dailyPosts >= 0, 'dailyPosts must be a number >= 0');
	const changeOk = (change) =>
		isObject(change) && change.day >= 0 && Number.isFinite(change.times) && change.times >= 0;
	check(
		Array.isArray(paceChanges) && paceChanges.every(changeOk),
		'paceChanges must be [{day >= 0, times >= 0}]',
	);
	const script = { postCount, dailyGrowth, bursts, rounded, dailyPosts, paceChanges };
	state.trends.set(scriptKey(query, body.index), script);
	// Readings taken before would otherwise hide the change for a whole cache window.
	state.cache.clear();
	return { ok: true, query, index: body.index };
}

module.exports = { setTrend };
