'use strict';

// The opaque pagination cursor: base64url of {v, p, q, o}. Binding the platform and the normalized
// query into the cursor lets the service refuse a cursor replayed against another search.

const CURSOR_VERSION = 1;
// Far longer than any cursor we issue; anything bigger is not ours and is not worth parsing.
const MAX_CURSOR_LENGTH = 2048;

/**
 * @param {string} platform
 * @param {string} query normalized query
 * @param {number} offset 0-based index of the first item of the page the cursor points to
 * @returns {string}
 */
function encodeCursor(platform, query, offset) {
	const payload = { v: CURSOR_VERSION, p: platform, q: query, o: offset };
	return Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
}

/**
 * Decodes a cursor and checks it belongs to this platform and query.
 * @param {string} cursor
 * @param {string} platform
 * @param {string} query normalized query
 * @returns {number | null} the offset, or null when the cursor is not valid here
 */
function decodeCursor(cursor, platform, query) {
	const payload = parsePayload(cursor);
	if (!payload || payload.v !== CURSOR_VERSION) return null;
	if (payload.p !== platform || payload.q !== query) return null;
	return Number.isSafeInteger(payload.o) && payload.o >= 0 ? payload.o : null;
}

/**
 * @param {string} cursor
 * @returns {Record<string, unknown> | null}
 */
function parsePayload(cursor) {
	// Buffer's base64url decoder skips foreign characters silently, so check the alphabet first.
	if (cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
	try {
		const payload = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
		return payload && typeof payload === 'object' ? payload : null;
	} catch {
		return null;
	}
}

module.exports = { encodeCursor, decodeCursor };
