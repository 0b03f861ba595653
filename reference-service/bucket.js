'use strict';

// Bucket mode: a bursty quota, the token bucket many APIs meter with (a burst of `size` calls at
// once, then `refillPerSecond` a second on average). Each API key has a bucket of `size` tokens,
// full at first; a search takes one; tokens come back continuously at `refillPerSecond`, up to
// `size`. An empty bucket: a free 429 whose Retry-After says when the next token is back (whole
// seconds, rounded up). Counters a test can read. Size 0 means no bucket.

const { rateLimited, check } = require('./answers');
const { resetLimit } = require('./quota');

/**
 * Reads "20:10/s" (the --bucket flag: size 20, 10 tokens back a second) as {size,
 * refillPerSecond}; "0" as no bucket.
 * @param {string} text
 */
function parseBucket(text) {
	if (text === '0') return { size: 0, refillPerSecond: 1 };
	const match = /^(\d+):(\d+(?:\.\d+)?)\/s$/.exec(text);
	if (!match || Number(match[1]) < 1 || !(Number(match[2]) > 0))
		throw new Error(`--bucket must look like 20:10/s (size:refill per second; got "${text}")`);
	return { size: Number(match[1]), refillPerSecond: Number(match[2]) };
}

/** @param {{size?: number, refillPerSecond?: number}} initial */
function createBucket(initial = {}) {
	const settings = { size: 0, refillPerSecond: 1 };
	/** per key: {tokens, at} (tokens left at time `at`) */
	const perKey = new Map();
	const counters = { accepted: 0, refused: 0 };

	function configure(body) {
		if (body.size !== undefined) {
			check(Number.isInteger(body.size) && body.size >= 0, 'size must be an integer >= 0');
			settings.size = body.size;
		}
		if (body.refillPerSecond !== undefined) {
			const ok = Number.isFinite(body.refillPerSecond) && body.refillPerSecond > 0;
			check(ok, 'refillPerSecond must be a number > 0');
			settings.refillPerSecond = body.refillPerSecond;
		}
		// Buckets of the old size would otherwise keep tokens the new one cannot hold.
		perKey.clear();
		return { ok: true, ...settings };
	}
	configure(initial);
	const started = { ...settings };

	/** The key's bucket, refilled up to `now`. */
	function bucketOf(key, now) {
		const bucket = perKey.get(key) ?? { tokens: settings.size, at: now };
		const back = ((now - bucket.at) / 1000) * settings.refillPerSecond;
		bucket.tokens = Math.min(settings.size, bucket.tokens + back);
		bucket.at = now;
		perKey.set(key, bucket);
		return bucket;
	}

	/** Takes a token of `key`'s bucket; the 429 answer when it is empty, else null. */
	function admit(key, now = Date.now()) {
		if (settings.size === 0) return null;
		const bucket = bucketOf(key, now);
		if (bucket.tokens >= 1) {
			bucket.tokens -= 1;
			counters.accepted += 1;
			return null;
		}
		counters.refused += 1;
		const seconds = Math.max(1, Math.ceil((1 - bucket.tokens) / settings.refillPerSecond));
		const message = `No token left in the bucket of this API key (${settings.size}, ${settings.refillPerSecond}/s)`;
		return rateLimited(message, { 'Retry-After': String(seconds) });
	}

	const reset = () => resetLimit(settings, started, perKey, counters);
	const report = () => ({ ...settings, ...counters });
	return { settings, configure, admit, reset, report };
}

module.exports = { createBucket, parseBucket };
