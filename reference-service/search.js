'use strict';

// What one search answers (spec 4), decided in this order: auth, injected faults, input, cache,
// catalogue lookup. Answers are plain objects: service.js puts them on the wire, pricing.js gives
// them their credits.

const { normalizeQuery, readPage } = require('./catalogue');
const { encodeCursor, decodeCursor } = require('./cursor');
const { checkAuth } = require('./auth');
const { takeFault } = require('./faults');

/**
 * @typedef {object} Answer
 * @property {number | null} status null when a fault drops the connection
 * @property {object} [body]
 * @property {Record<string, string>} [headers]
 * @property {string} outcome the ledger outcome; the price follows from it (pricing.js)
 * @property {number} itemCount
 * @property {import('./faults').FaultResponse} [fault] played by faults.js instead of body
 */

/**
 * The ledger's view of a request: the raw inputs as sent, and the normalized query.
 * @param {import('node:http').IncomingMessage} req
 * @param {URL} url
 * @param {string} platform
 * @param {number} nowMs
 */
function readSearchRequest(req, url, platform, nowMs) {
	const params = url.searchParams;
	return {
		at: new Date(nowMs).toISOString(),
		method: req.method,
		path: url.pathname,
		platform,
		q: params.get('q'),
		query: normalizeQuery(params.get('q')) || null,
		limit: params.get('limit'),
		cursor: params.get('cursor'),
		authorization: req.headers.authorization ?? null,
	};
}

/**
 * @param {ReturnType<typeof readSearchRequest>} request
 * @param {import('./service').ServiceState} state
 * @returns {Answer}
 */
function decideSearch(request, state) {
	const denied = checkAuth(request.authorization, state.config) ?? injectedFault(request, state);
	if (denied) return denied;
	const input = readInput(request, state.config);
	return input.refusal ?? lookup(request, input, state);
}

function injectedFault({ platform, query, cursor }, state) {
	const fault = takeFault(state.faults, { platform, query: query ?? '', cursor: cursor || null });
	if (!fault) return null;
	return { fault, status: fault.destroy ? null : fault.status, outcome: 'fault', itemCount: 0 };
}

/** Spec 7: a bad q, limit or cursor is refused before any fetch, as an HTTP 200. */
function readInput({ platform, query, limit, cursor }, config) {
	if (!query) return refuse('query_required', 'Query parameter q is required');
	const pageSize = readLimit(limit, config);
	if (pageSize === null) return refuse('invalid_limit', 'limit must be an integer of at least 1');
	// An empty cursor parameter means "first page", the way clients often send it.
	const offset = cursor ? decodeCursor(cursor, platform, query) : 0;
	if (offset === null) return refuse('invalid_cursor', 'cursor is not valid for this search');
	return { limit: pageSize, offset };
}

function refuse(code, message) {
	const body = { success: false, available: false, error: { code, message }, data: null };
	return { refusal: { status: 200, body, outcome: 'refused', itemCount: 0 } };
}

/** @returns {number | null} the page size, or null when `raw` is not valid */
function readLimit(raw, { defaultPageSize, maxPageSize }) {
	if (raw === null) return Math.min(defaultPageSize, maxPageSize);
	// Larger than the maximum is capped, not refused.
	return /^\d+$/.test(raw) && Number(raw) >= 1 ? Math.min(Number(raw), maxPageSize) : null;
}

function lookup({ platform, query }, { limit, offset }, state) {
	const nowMs = state.config.now();
	// Keyed on the decoded offset: equivalent to the cursor, since cursors are deterministic.
	const key = JSON.stringify([platform, query, limit, offset]);
	const hit = state.cache.find(key, nowMs);
	if (hit) return pageAnswer(hit.reading, hit.ageSeconds);
	const { overrides, day } = state;
	const page = readPage({ platform, query, offset, limit, readingMs: nowMs, overrides, day });
	const next = offset + page.items.length;
	const reading = {
		readingMs: nowMs,
		availabilityStatus: page.availabilityStatus,
		items: page.items,
		nextCursor: page.hasMore ? encodeCursor(platform, query, next) : null,
	};
	state.cache.store(key, reading);
	return pageAnswer(reading, null);
}

/**
 * The envelope of a reading (spec 2.1, 2.2), fresh (ageSeconds null) or repeated from the cache.
 * @returns {Answer}
 */
function pageAnswer(reading, ageSeconds) {
	const cached = ageSeconds !== null;
	const items = cached
		? reading.items.map((item) => ({ ...item, cached, cacheAgeSeconds: ageSeconds }))
		: reading.items;
	const data = {
		items,
		nextCursor: reading.nextCursor,
		cached,
		fetchedAt: null,
		cacheAgeSeconds: ageSeconds,
		sourceTimestamp: null,
	};
	const status = reading.availabilityStatus;
	const body = status
		? { success: true, available: false, availabilityStatus: status, data }
		: { success: true, available: true, data };
	const fresh = status ? 'unavailable' : items.length === 0 ? 'empty' : 'ok';
	return { status: 200, body, outcome: cached ? 'cached' : fresh, itemCount: items.length };
}

module.exports = { readSearchRequest, decideSearch };
