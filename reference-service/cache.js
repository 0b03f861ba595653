'use strict';

// Spec 4, rule 3: an identical request made moments earlier is answered again from that reading,
// free. "Moments" is --cache-seconds (0: no cache); which requests are identical is the caller's
// key. Refusals and faults never get here; available:false readings do, like any lookup.

/** @param {number} windowSeconds */
function createCache(windowSeconds) {
	const windowMs = windowSeconds * 1000;
	// Insertion order is reading order, so expired readings are always at the front.
	/** @type {Map<string, {readingMs: number} & Record<string, any>>} */
	const readings = new Map();
	const find = (key, nowMs) => {
		const reading = readings.get(key);
		if (!reading || nowMs - reading.readingMs >= windowMs) return null;
		return { reading, ageSeconds: Math.floor((nowMs - reading.readingMs) / 1000) };
	};
	const store = (key, reading) => {
		if (windowMs === 0) return;
		for (const [oldKey, old] of readings) {
			if (reading.readingMs - old.readingMs < windowMs) break;
			readings.delete(oldKey);
		}
		readings.delete(key);
		readings.set(key, reading);
	};
	return { find, store, clear: () => readings.clear() };
}

module.exports = { createCache };
