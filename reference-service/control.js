'use strict';

// The control endpoints (/__sandbox/*, /healthz): no auth and not in the ledger, for tests and
// demos to read what the service billed and to steer it. Not part of the spec. A handler throws a
// TypeError for a body it cannot take; service.js answers that with a 400.

const { buffer } = require('node:stream/consumers');
const { PLATFORMS, describeQuery, normalizeQuery, overrideKey } = require('./catalogue');
const { parseFaults } = require('./faults');
const { check, isObject } = require('./answers');
const { setTrend } = require('./trendControl');

const MAX_BODY_BYTES = 1024 * 1024;

/** @type {Record<string, {method: string, handle: (state: any, body?: any) => object}>} */
const CONTROL_ROUTES = {
	'/healthz': { method: 'GET', handle: () => ({ ok: true }) },
	'/__sandbox/ledger': { method: 'GET', handle: ledgerReport },
	'/__sandbox/reset': { method: 'POST', handle: reset },
	'/__sandbox/catalogue': { method: 'POST', handle: setOverride },
	'/__sandbox/faults': { method: 'POST', handle: addFaults },
	'/__sandbox/time': { method: 'POST', handle: passTime },
	'/__sandbox/trends': { method: 'POST', handle: setTrend },
	'/__sandbox/capacity': { method: 'POST', handle: (s, body) => s.capacity.configure(body) },
	'/__sandbox/quota': { method: 'POST', handle: (s, body) => s.quota.configure(body) },
	'/__sandbox/bucket': { method: 'POST', handle: (s, body) => s.bucket.configure(body) },
};

function ledgerReport({ ledger, capacity, quota, bucket }) {
	const creditsCharged = ledger.reduce((sum, entry) => sum + entry.creditsCharged, 0);
	const totals = { requests: ledger.length, creditsCharged };
	const limits = { capacity: capacity.report(), quota: quota.report(), bucket: bucket.report() };
	return { requests: ledger, totals, ...limits };
}

function reset(state) {
	for (const list of [state.ledger, state.faults]) list.length = 0;
	for (const map of [state.cache, state.overrides, state.trends]) map.clear();
	state.day = 0;
	state.capacity.reset();
	state.quota.reset();
	state.bucket.reset();
	return { ok: true };
}

/** Body {query, total, platform?, availabilityStatus?}; with a status, total may be left out. */
function setOverride(state, body) {
	const query = normalizeQuery(typeof body.query === 'string' ? body.query : '');
	check(query, 'query must be a non-empty string');
	const status = body.availabilityStatus ?? null;
	const statusOk = status === null || (typeof status === 'string' && status !== '');
	check(statusOk, 'availabilityStatus must be a non-empty string or null');
	// An unavailable query has no matches to count.
	const total = body.total ?? (status ? 0 : undefined);
	check(Number.isSafeInteger(total) && total >= 0, 'total must be an integer >= 0');
	const { platform } = body;
	const platformOk = platform === undefined || PLATFORMS.includes(platform);
	check(platformOk, `platform must be one of ${PLATFORMS.join(', ')}`);
	const platforms = platform ? [platform] : PLATFORMS;
	for (const key of platforms.map((name) => overrideKey(name, query))) {
		const { added } = state.overrides.get(key) ?? {};
		state.overrides.set(key, { total, availabilityStatus: status, added });
	}
	// Readings taken before the change would otherwise hide it for a whole cache window.
	state.cache.clear();
	return { ok: true, query, total, availabilityStatus: status, platforms };
}

/**
 * Body {days?, newSounds?: {query: count}}: the clock moves on by `days` (post counts grow) and
 * each query in newSounds gets that many new sounds at the top of its results, on both platforms.
 */
function passTime(state, body) {
	const days = body.days ?? 0;
	// Fractions too: a trend test polls every few hours.
	check(Number.isFinite(days) && days >= 0, 'days must be a number >= 0');
	const newSounds = body.newSounds ?? {};
	check(isObject(newSounds), 'newSounds must be an object of query: count');
	for (const [raw, count] of Object.entries(newSounds)) {
		const query = normalizeQuery(raw);
		const countOk = query && Number.isInteger(count) && count >= 0;
		check(countOk, 'newSounds must map non-empty queries to integers >= 0');
		for (const platform of PLATFORMS) {
			const current = describeQuery(platform, query, state.overrides);
			const added = (current.added ?? 0) + count;
			state.overrides.set(overrideKey(platform, query), { ...current, added });
		}
	}
	state.day += days;
	// Readings taken before would otherwise show the old day for a whole cache window.
	state.cache.clear();
	return { ok: true, day: state.day };
}

function addFaults(state, body) {
	state.faults.push(...parseFaults(body.faults));
	return { ok: true, pending: state.faults.length };
}

/** @returns {Promise<Record<string, any>>} the posted JSON object ({} for an empty body) */
async function readJsonBody(req) {
	const raw = await buffer(req);
	check(raw.length <= MAX_BODY_BYTES, 'body is too large');
	const text = raw.toString('utf8').trim();
	let parsed = {};
	try {
		if (text !== '') parsed = JSON.parse(text);
	} catch {
		throw new TypeError('body must be JSON');
	}
	check(isObject(parsed), 'body must be a JSON object');
	return parsed;
}

module.exports = { CONTROL_ROUTES, readJsonBody };
