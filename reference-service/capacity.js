'use strict';

// Capacity mode: what a real service's limits look like to a client. At most `capacity` search
// calls in flight per API key (beyond that: 429 with Retry-After, not charged), a latency added
// to every answer, and counters a test can read. Capacity 0 means no limit.

/**
 * @typedef {object} CapacitySettings
 * @property {number} capacity most calls in flight per key (0: unlimited)
 * @property {number} latencyMs added before every normal answer
 * @property {number} retryAfterSeconds the Retry-After of a 429
 */

/**
 * @param {Partial<CapacitySettings>} initial
 */
function createCapacity(initial) {
	const settings = { capacity: 0, latencyMs: 0, retryAfterSeconds: 1 };
	const perKey = new Map();
	const counters = { inFlight: 0, mostInFlight: 0, rateLimited: 0 };
	configure(initial);
	const started = { ...settings };

	/** Validates and applies a partial settings object (from the CLI or the control endpoint). */
	function configure(body) {
		for (const name of Object.keys(settings)) {
			const value = body[name];
			if (value === undefined) continue;
			if (!(Number.isInteger(value) && value >= 0)) {
				throw new TypeError(`${name} must be an integer >= 0`);
			}
			settings[name] = value;
		}
		return { ok: true, ...settings };
	}

	/**
	 * Counts a search call in; `refused` when its key is at capacity. Call leave() once answered.
	 * @param {string} key the caller's API key (or '' when it has none)
	 */
	function enter(key) {
		counters.inFlight += 1;
		counters.mostInFlight = Math.max(counters.mostInFlight, counters.inFlight);
		const busy = perKey.get(key) ?? 0;
		const refused = settings.capacity > 0 && busy >= settings.capacity;
		if (refused) counters.rateLimited += 1;
		else perKey.set(key, busy + 1);
		let left = false;
		const leave = () => {
			if (left) return;
			left = true;
			counters.inFlight -= 1;
			if (!refused) perKey.set(key, (perKey.get(key) ?? 1) - 1);
		};
		return { refused, leave };
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

/** The answer to a call beyond capacity: free, and says when to come back. */
function rateLimitedAnswer(settings) {
	return {
		status: 429,
		body: {
			success: false,
			error: { code: 'rate_limited', message: 'Too many calls in flight for this API key' },
		},
		headers: { 'Retry-After': String(settings.retryAfterSeconds) },
		credits: 0,
		outcome: 'rate_limited',
		itemCount: 0,
	};
}

module.exports = { createCapacity, rateLimitedAnswer };
