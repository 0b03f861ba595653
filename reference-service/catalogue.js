'use strict';

// The deterministic catalogue behind the sandbox: how many sounds match a query and what each one
// looks like. Everything is derived from (platform, normalized query, index) so tests can rely on
// stable ids and titles; only timestamps and signed cover parameters vary between readings.

const { randomBytes } = require('node:crypto');

const PLATFORMS = ['shortvideo', 'photosocial'];

/** Built-in totals for reserved queries (checked after overrides). */
const RESERVED_TOTALS = { lofi: 10000, 'no such sound': 0 };

/** Built-in availability statuses for reserved queries. */
const RESERVED_STATUSES = {
	'private sound': 'private',
	'deleted sound': 'deleted',
	'unsupported sound': 'unsupported',
};

const TITLE_PATTERNS = [
	(name, n) => `${name} Sound ${n}`,
	(name, n) => `${name} Sound ${n} (Slowed)`,
	(name, n) => `${name} Sound ${n} - Remix`,
	(name, n) => `Original ${name} Sound ${n}`,
];

const AUTHORS = [
	'Sandbox Beats',
	'Test Tone Records',
	'Example Audio',
	'Placeholder Music',
	'Loop Lab',
	'Quiet Studio',
	'Mock Melodies',
	'Demo Label',
];

// Id digits come from (seed + index * STEP) mod 10^k. STEP is coprime with 10, so the map from
// index to digits is injective: ids never repeat within one query, however deep the walk.
const ID_STEP = 2862933555777941757n;
const ID_LAYOUT = {
	shortvideo: { lead: '7', digits: 18 },
	photosocial: { lead: '1', digits: 15 },
};

// Cover links expire a day after the reading, like the signed links of the real platforms.
const COVER_LIFETIME_SECONDS = 86400;

/**
 * Normalizes a raw query: trim, collapse inner whitespace to one space, lowercase.
 * @param {string | null | undefined} raw
 * @returns {string} '' when missing or blank
 */
function normalizeQuery(raw) {
	return String(raw ?? '')
		.trim()
		.replace(/\s+/g, ' ')
		.toLowerCase();
}

/**
 * 32-bit FNV-1a over the UTF-8 bytes of a string.
 * @param {string} text
 * @returns {number} unsigned 32-bit hash
 */
function fnv1a32(text) {
	let hash = 0x811c9dc5;
	for (const byte of Buffer.from(text, 'utf8')) {
		hash ^= byte;
		hash = Math.imul(hash, 0x01000193) >>> 0;
	}
	return hash;
}

/**
 * Key of an override in the overrides map.
 * @param {string} platform
 * @param {string} query normalized query
 * @returns {string}
 */
function overrideKey(platform, query) {
	return `${platform}:${query}`;
}

/**
 * What the catalogue holds for a query: an override first, then the reserved queries, then a
 * hash-derived total between 40 and 199.
 * @param {string} platform
 * @param {string} query normalized query
 * @param {Map<string, {total: number, availabilityStatus: string | null}>} overrides
 * @returns {{total: number, availabilityStatus: string | null}}
 */
function describeQuery(platform, query, overrides) {
	const override = overrides.get(overrideKey(platform, query));
	if (override) return override;
	const availabilityStatus = RESERVED_STATUSES[query] ?? null;
	const total = RESERVED_TOTALS[query] ?? 40 + (fnv1a32(`${platform}:${query}`) % 160);
	return { total, availabilityStatus };
}

/**
 * @param {string} query normalized query
 * @returns {string} the query in Title Case
 */
function titleCase(query) {
	return query.replace(/(^|\s)(\S)/g, (match, space, letter) => space + letter.toUpperCase());
}

/**
 * @param {string} platform
 * @param {string} query
 * @param {number} index 0-based position in the result list
 * @returns {string} digits, unique per (platform, query, index)
 */
function soundIdFor(platform, query, index) {
	const { lead, digits } = ID_LAYOUT[platform];
	const modulus = 10n ** BigInt(digits);
	const seed = BigInt(fnv1a32(`id:${platform}:${query}`)) * 1000000007n * 1000003n;
	const body = (seed + BigInt(index) * ID_STEP) % modulus;
	return lead + body.toString().padStart(digits, '0');
}

/**
 * @param {string} uri
 * @param {string[]} urlList
 * @param {number} size pixels (0 for audio)
 */
function mediaObject(uri, urlList, size) {
	return { uri, width: size, height: size, url_list: urlList, url_prefix: null };
}

// Daily growth of a sound's post count, by a hash of the sound: most grow slowly, one in ten is
// rising fast. Deterministic, so tests know which sounds rise and by how much.
const DAILY_GROWTH = [0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.02, 0.02, 0.05, 0.5];

/**
 * A sound's post count after `day` days of the service's clock.
 * @param {number} base the count on day 0
 * @param {number} hash per-item hash
 * @param {number} day
 */
function postCountOn(base, hash, day) {
	const rate = DAILY_GROWTH[(fnv1a32(`growth:${hash}`) >>> 16) % DAILY_GROWTH.length];
	return Math.round(base * (1 + rate) ** day);
}

/**
 * The short-video-only fields of an item; the cover link is signed per reading.
 * @param {string} soundId
 * @param {number} hash per-item hash
 * @param {number} readingSeconds unix seconds of the reading
 * @param {number} day the service clock, in days
 */
function richFields(soundId, hash, readingSeconds, day) {
	const expires = readingSeconds + COVER_LIFETIME_SECONDS;
	const signature = randomBytes(16).toString('hex');
	const cover = `https://covers.sandbox.invalid/shortvideo/${soundId}.jpg?x-expires=${expires}&x-signature=${signature}`;
	const stats = fnv1a32(`${hash}:stats`);
	return {
		authorName: AUTHORS[(hash >>> 3) % AUTHORS.length],
		postCount: postCountOn((stats >>> 8) % 500000, hash, day),
		durationSeconds: 5 + (stats % 176),
		url: mediaObject(
			`sandbox-audio/${soundId}`,
			[
				`https://audio.sandbox.invalid/shortvideo/${soundId}.mp3`,
				`https://audio.sandbox.invalid/mirror/shortvideo/${soundId}.mp3`,
			],
			0,
		),
		coverUrl: mediaObject(`sandbox-cover/${soundId}`, [cover], 720),
	};
}

// The photo-and-video platform reports only ids and titles (spec 2.3).
const SPARSE_FIELDS = Object.freeze({
	authorName: null,
	postCount: null,
	durationSeconds: null,
	url: null,
	coverUrl: null,
});

/**
 * One fresh (uncached) sound item.
 * @param {string} platform
 * @param {string} query normalized query
 * @param {number} index 0-based position
 * @param {number} readingMs time of the reading (ms since epoch)
 * @param {number} day the service clock, in days
 */
function buildItem(platform, query, index, readingMs, day) {
	const soundId = soundIdFor(platform, query, index);
	const hash = fnv1a32(`${platform}:${query}:${index}`);
	const title = TITLE_PATTERNS[hash % TITLE_PATTERNS.length](titleCase(query), index + 1);
	const extra =
		platform === 'shortvideo'
			? richFields(soundId, hash, Math.floor(readingMs / 1000), day)
			: SPARSE_FIELDS;
	return {
		soundId,
		title,
		authorName: extra.authorName,
		postCount: extra.postCount,
		durationSeconds: extra.durationSeconds,
		url: extra.url,
		coverUrl: extra.coverUrl,
		fetchedAt: isoSeconds(readingMs),
		cached: false,
		cacheAgeSeconds: 0,
	};
}

/**
 * @param {number} ms
 * @returns {string} ISO 8601 UTC without milliseconds
 */
function isoSeconds(ms) {
	return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * Which sound stands at a position of the result list: sounds added later (`added`, newest
 * first) come before the original ones, and keep ids of their own.
 */
function soundIndexAt(position, total, added) {
	return position < added ? total + (added - 1 - position) : position - added;
}

/**
 * Reads one page of the catalogue.
 * @param {{platform: string, query: string, offset: number, limit: number, readingMs: number,
 *   overrides: Map<string, {total: number, availabilityStatus: string | null, added?: number}>,
 *   day?: number}} request
 * @returns {{availabilityStatus: string | null, items: object[], hasMore: boolean}}
 */
function readPage({ platform, query, offset, limit, readingMs, overrides, day = 0 }) {
	const { total, availabilityStatus, added = 0 } = describeQuery(platform, query, overrides);
	if (availabilityStatus) return { availabilityStatus, items: [], hasMore: false };
	const end = Math.min(total + added, offset + limit);
	const items = [];
	for (let position = offset; position < end; position++) {
		const index = soundIndexAt(position, total, added);
		items.push(buildItem(platform, query, index, readingMs, day));
	}
	return { availabilityStatus: null, items, hasMore: end < total + added };
}

module.exports = {
	PLATFORMS,
	normalizeQuery,
	fnv1a32,
	overrideKey,
	describeQuery,
	readPage,
	isoSeconds,
};
