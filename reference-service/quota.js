'use strict';

// Quota mode: what a paid data service's request quota looks like to a client. At most `limit`
// search calls accepted per rolling window of `windowMs` per API key; beyond that a free 429 whose
// Retry-After says when the next slot frees (whole seconds, rounded up), with the RateLimit-*
// headers (IETF draft) on every answer when `headers` is on. Counters a test can read. Limit 0
// means no quota.

const { rateLimited, check } = require('./answers');

const UNITS = { s: 1000, sec: 1000, m: 60_000, min: 60_000 };

/**
 * Reads "10/s", "60/min", "20/10s" (the --quota flag) as {limit, windowMs}; "0" as no quota.
 * @param {string} text
 */
function parseQuota(text) {
	if (text === '0') return { limit: 0, windowMs: 1000 };
	const match = /^(\d+)\/(\d*)(s|sec|m|min)$/.exec(text);
	if (!match || Number(match[1]) < 1 || match[2] === '0')
		throw new Error(`--quota must look like 10/s, 60/min or 20/10s (got "${text}")`);
	return { limit: Number(match[1]), windowMs: Number(match[2] || 1) * UNITS[match[3]] };
}

/** @param {{limit?: number, windowMs?: number, headers?: boolean}} initial */
function createQuota(initial = {}) {
	const settings = { limit: 0, windowMs: 1000, headers: false };
	/** accepted calls' times, per key, oldest first */
	const perKey = new Map();
	const counters = { accepted: 0, refused: 0 };

	function configure(body) {
		for (const name of ['limit', 'windowMs']) {
			const value = body[name];
			if (value === undefined) continue;
			const min = name === 'limit' ? 0 : 1;
			check(Number.isInteger(value) && value >= min, `${name} must be an integer >= ${min}`);
			settings[name] = value;
		}
		if (body.headers !== undefined) {
			check(typeof body.headers === 'boolean', 'headers must be true or false');
			settings.headers = body.headers;
		}
		return { ok: true, ...settings };
	}
	configure(initial);
	const started = { ...settings };

	/** The key's accepted calls still in the window at `now`. */
	function window(key, now) {
		const times = (perKey.get(key) ?? []).filter((at) => at > now - settings.windowMs);
		perKey.set(key, times);
		return times;
	}

	/** Whole seconds until the key's next free slot (at least 1 when none is free now). */
	function secondsToSlot(times, now) {
		if (times.length < settings.limit) return 0;
		const freesAt = times[times.length - settings.limit] + settings.windowMs;
		return Math.max(1, Math.ceil((freesAt - now) / 1000));
	}

	/** The RateLimit-* headers for `key` at `now`, when they are on. */
	function headers(key, now) {
		if (!settings.headers || settings.limit === 0) return {};
		const times = window(key, now);
		return {
			'RateLimit-Limit': String(settings.limit),
			'RateLimit-Remaining': String(Math.max(0, settings.limit - times.length)),
			'RateLimit-Reset': String(secondsToSlot(times, now)),
			'RateLimit-Policy': `${settings.limit};w=${Math.ceil(settings.windowMs / 1000)}`,
		};
	}

	/** Counts a call of `key` in; returns the 429 answer when the quota is used up, else null. */
	function admit(key, now = Date.now()) {
		if (settings.limit === 0) return null;
		const times = window(key, now);
		if (times.length < settings.limit) {
			times.push(now);
			counters.accepted += 1;
			return null;
		}
		counters.refused += 1;
		const message = `More than ${settings.limit} calls in the window for this API key`;
		return rateLimited(message, {
			'Retry-After': String(secondsToSlot(times, now)),
			...headers(key, now),
		});
	}

	const reset = () => resetLimit(settings, started, perKey, counters);
	const report = () => ({ ...settings, ...counters });
	return { settings, configure, admit, headers, reset, report };
}

/** A limit mode (quota, bucket) back to its first settings, every key's use and its counters gone. */
function resetLimit(settings, started, perKey, counters) {
	Object.assign(settings, started);
	perKey.clear();
	counters.accepted = 0;
	counters.refused = 0;
}

module.exports = { createQuota, parseQuota, resetLimit };
