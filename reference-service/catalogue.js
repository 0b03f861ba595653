'use strict';

// The catalogue behind the service: how many sounds match a query and what each one looks like
// (spec 2.3). Everything derives from (platform, normalized query, index) so tests can rely on
// stable ids and titles; only timestamps and signed cover links change between readings.

const { randomBytes } = require('node:crypto');
const { postCountOn, scriptKey } = require('./trends');

const PLATFORMS = ['shortvideo', 'photosocial'];
/** The fields of a sound item, in the order the service sends them (spec 2.3). */
const SOUND_FIELDS = [
	...['soundId', 'title', 'authorName', 'postCount', 'durationSeconds', 'url', 'coverUrl'],
	...['fetchedAt', 'cached', 'cacheAgeSeconds'],
];

const RESERVED_TOTALS = { lofi: 10000, 'no such sound': 0 };
const RESERVED_STATUSES = {
	'private sound': 'private',
	'deleted sound': 'deleted',
	'unsupported sound': 'unsupported',
};
const TITLES = [
	(name, n) => `${name} Sound ${n}`,
	(name, n) => `${name} Sound ${n} (Slowed)`,
	(name, n) => `${name} Sound ${n} - Remix`,
	(name, n) => `Original ${name} Sound ${n}`,
];
const AUTHORS = [
	...['Sandbox Beats', 'Test Tone Records', 'Example Audio', 'Placeholder Music', 'Loop Lab'],
	...['Quiet Studio', 'Mock Melodies', 'Demo Label'],
];
// Id digits come from (seed + index * STEP) mod 10^digits. STEP is coprime with 10, so ids never
// repeat within one query, however deep the walk. BigInt(): the type-check targets ES2019.
const ID_STEP = BigInt('2862933555777941757');
const ID_LAYOUT = { shortvideo: ['7', 18], photosocial: ['1', 15] };
// Cover links expire a day after the reading, like the signed links of the real platforms.
const COVER_LIFETIME_SECONDS = 86400;
// Daily growth of a sound's post count, by a hash of the sound: most grow slowly, one in ten is
// a riser, each at its own rate (25 % to 90 % a day) since its own day of takeoff (1 to 5 days
// before day 0; 1 % a day before it): risers that all grew alike would tie in a ranking and run
// parallel in a chart. Deterministic, so trend tests know which sounds rise and by how much.
const RISER = -1;
const DAILY_GROWTH = [0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.02, 0.02, 0.05, RISER];

/**
 * A sound's growth, from its hash: its daily rate, and a riser's takeoff.
 * @param {number} hash @returns {{ rate: number, takeoff?: { day: number, before: number } }}
 */
function growthOf(hash) {
	const pick = fnv1a32(`growth:${hash}`);
	const rate = DAILY_GROWTH[(pick >>> 16) % DAILY_GROWTH.length];
	if (rate !== RISER) return { rate };
	// The low bits, independent of the high ones that chose the riser.
	return {
		rate: 0.25 + (pick % 66) / 100,
		takeoff: { day: -1 - ((pick >>> 8) % 5), before: 0.01 },
	};
}

/** Spec 4, "the service normalizes the query": trimmed, one space within, lowercase. */
const normalizeQuery = (raw) =>
	String(raw ?? '')
		.trim()
		.replace(/\s+/g, ' ')
		.toLowerCase();

/** 32-bit FNV-1a over UTF-8: the stable hash every figure of the catalogue derives from. */
function fnv1a32(text) {
	let hash = 0x811c9dc5;
	for (const byte of Buffer.from(text, 'utf8')) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
	return hash;
}

const overrideKey = (platform, query) => `${platform}:${query}`;

/**
 * What the catalogue holds for a query: a control override first, then the reserved queries, then
 * a hash-derived total between 40 and 199. `added`: sounds that appeared since day 0.
 * @typedef {{total: number, availabilityStatus: string | null, added?: number}} QueryEntry
 * @param {Map<string, QueryEntry>} overrides
 * @returns {QueryEntry}
 */
function describeQuery(platform, query, overrides) {
	const override = overrides.get(overrideKey(platform, query));
	if (override) return override;
	const total = RESERVED_TOTALS[query] ?? 40 + (fnv1a32(`${platform}:${query}`) % 160);
	return { total, availabilityStatus: RESERVED_STATUSES[query] ?? null };
}

/**
 * Reads one page of the catalogue, as taken at `readingMs` on the service's `day`.
 * @param {{platform: string, query: string, offset: number, limit: number, readingMs: number,
 *   overrides: Map<string, QueryEntry>, day?: number, trends?: Map<string, object>}} request
 * @returns {{availabilityStatus: string | null, items: object[], hasMore: boolean}}
 */
function readPage({ platform, query, offset, limit, readingMs, overrides, day = 0, trends }) {
	const { total, availabilityStatus, added = 0 } = describeQuery(platform, query, overrides);
	if (availabilityStatus) return { availabilityStatus, items: [], hasMore: false };
	const end = Math.min(total + added, offset + limit);
	const items = [];
	for (let position = offset; position < end; position++) {
		// Sounds added later (newest first) come before the original ones, with ids of their own.
		const index = position < added ? total + (added - 1 - position) : position - added;
		const script = trends?.get(scriptKey(query, index));
		items.push(buildItem(platform, query, index, readingMs, day, script));
	}
	return { availabilityStatus: null, items, hasMore: end < total + added };
}

function buildItem(platform, query, index, readingMs, day, script) {
	const [lead, digits] = ID_LAYOUT[platform];
	const seed = BigInt(fnv1a32(`id:${platform}:${query}`)) * BigInt(1000000007) * BigInt(1000003);
	const id = (seed + BigInt(index) * ID_STEP) % BigInt(`1${'0'.repeat(digits)}`);
	const soundId = lead + id.toString().padStart(digits, '0');
	const hash = fnv1a32(`${platform}:${query}:${index}`);
	const name = query.replace(/(^|\s)(\S)/g, (match, space, letter) => space + letter.toUpperCase());
	const title = TITLES[hash % TITLES.length](name, index + 1);
	// The photo-and-video platform reports only ids and titles (spec 2.3).
	const extra =
		platform === 'shortvideo'
			? richFields(soundId, hash, readingMs, day, script)
			: { authorName: null, postCount: null, durationSeconds: null, url: null, coverUrl: null };
	// To the second, as in the spec's samples.
	const fetchedAt = new Date(readingMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
	return { soundId, title, ...extra, fetchedAt, cached: false, cacheAgeSeconds: 0 };
}

function richFields(soundId, hash, readingMs, day, script) {
	const expires = Math.floor(readingMs / 1000) + COVER_LIFETIME_SECONDS;
	const signature = randomBytes(16).toString('hex');
	const cover = `https://covers.sandbox.invalid/shortvideo/${soundId}.jpg?x-expires=${expires}&x-signature=${signature}`;
	const audio = ['', 'mirror/'].map(
		(mirror) => `https://audio.sandbox.invalid/${mirror}shortvideo/${soundId}.mp3`,
	);
	const stats = fnv1a32(`${hash}:stats`);
	const { rate, takeoff } = growthOf(hash);
	return {
		authorName: AUTHORS[(hash >>> 3) % AUTHORS.length],
		postCount: postCountOn(day, (stats >>> 8) % 500000, rate, script, takeoff),
		durationSeconds: 5 + (stats % 176),
		url: media(`sandbox-audio/${soundId}`, audio, 0),
		coverUrl: media(`sandbox-cover/${soundId}`, [cover], 720),
	};
}

function media(uri, urlList, size) {
	return { uri, width: size, height: size, url_list: urlList, url_prefix: null };
}

module.exports = {
	PLATFORMS,
	SOUND_FIELDS,
	normalizeQuery,
	fnv1a32,
	overrideKey,
	describeQuery,
	readPage,
};
