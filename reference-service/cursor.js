'use strict';

// The opaque pagination cursor (spec 4, rule 2): base64url of {v, p, q, o}. Binding the platform
// and the normalized query into it lets the service refuse a cursor replayed on another search.

const VERSION = 1;
// Far longer than any cursor we issue; anything bigger is not ours and not worth parsing.
const MAX_LENGTH = 2048;

/** @param {number} offset index of the first item of the page the cursor points to */
function encodeCursor(platform, query, offset) {
	const payload = { v: VERSION, p: platform, q: query, o: offset };
	return Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
}

/** @returns {number | null} the offset, or null when the cursor is not this search's */
function decodeCursor(cursor, platform, query) {
	// Buffer's base64url decoder skips foreign characters silently, so check the alphabet first.
	if (cursor.length > MAX_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
	let payload;
	try {
		payload = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
	} catch {
		return null;
	}
	if (payload?.v !== VERSION || payload.p !== platform || payload.q !== query) return null;
	return Number.isSafeInteger(payload.o) && payload.o >= 0 ? payload.o : null;
}

module.exports = { encodeCursor, decodeCursor };
