'use strict';

// Capacity mode: what a real service's limits look like to a client. At most `capacity` search
// calls in flight per API key (beyond that: 429 with Retry-After, free), a latency added to every
// answer, and counters a test can read. Capacity 0 means no limit.

const { rateLimited, check } = require('./answers');

/** @param {{capacity?: number, latencyMs?: number, retryAfterSeconds?: number}} initial */
function createCapacity(initial) {
	const settings = { capacity: 0, latencyMs: 0, retryAfterSeconds: 1 };
	const perKey = new Map();
	const counters = { inFlight: 0, mostInFlight: 0, rateLimited: 0 };

	/** Validates and applies a partial settings object (from the CLI or the control endpoint). */
	function configure(body) {
		for (const name of Object.keys(settings)) {
			const value = body[name];
			if (value === undefined) continue;
			check(Number.isInteger(value) && value >= 0, `${name} must be an integer >= 0`);
			settings[name] = value;
		}
		return { ok: true, ...settings };
	}
	configure(initial);
	const started = { ...settings };

	/** Counts a search in (key: '' when it has none); `refused` when its key is at capacity. */
	function enter(key) {
		counters.inFlight += 1;
		counters.mostInFlight = Math.max(counters.mostInFlight, counters.inFlight);
		const busy = perKey.get(key) ?? 0;
		const refused = settings.capacity > 0 && busy >= settings.capacity;
		if (refused) counters.rateLimited += 1;
		else perKey.set(key, busy + 1);
		const leave = () => {
			counters.inFlight -= 1;
			if (!refused) perKey.set(key, (perKey.get(key) ?? 1) - 1);
		};
		return { refused, leave }; // leave() once, when answered
	}

	/** Back to the settings it started with; counters from zero (calls in flight stay counted). */
	function reset() {
		Object.assign(settings, started);
		counters.mostInFlight = counters.inFlight;
		counters.rateLimited = 0;
	}

	const report = () => ({ ...settings, ...counters });
	return { settings, configure, enter, reset, report };
}

/** The answer to a call beyond capacity: says when to come back. */
function rateLimitedAnswer(settings) {
	const retryAfter = { 'Retry-After': String(settings.retryAfterSeconds) };
	return rateLimited('Too many calls in flight for this API key', retryAfter);
}

module.exports = { createCapacity, rateLimitedAnswer };
