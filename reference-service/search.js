'use strict';

// What one search answers (spec 4), decided in this order: auth, injected faults, input, cache,
// catalogue lookup. Answers are plain objects: service.js puts them on the wire, pricing.js gives
// them their credits from their `outcome`.

const { normalizeQuery, readPage } = require('./catalogue');
const { encodeCursor, decodeCursor } = require('./cursor');
const { checkAuth } = require('./auth');
const { takeFault } = require('./faults');

/**
 * @typedef {{status: number | null, body?: object, headers?: Record<string, string>,
 *   outcome: string, itemCount: number, fault?: import('./faults').FaultResponse}} Answer
 *   status: null when a fault drops the connection; fault: played instead of a body
 */

/** The ledger's view of a request: the raw inputs as sent, and the normalized query. */
function readSearchRequest(req, url, platform, nowMs) {
	const [q, limit, cursor] = ['q', 'limit', 'cursor'].map((name) => url.searchParams.get(name));
	const [at, query] = [new Date(nowMs).toISOString(), normalizeQuery(q) || null];
	const authorization = req.headers.authorization ?? null;
	const { method } = req;
	return { at, method, path: url.pathname, platform, q, query, limit, cursor, authorization };
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
	return 'outcome' in input ? input : lookup(request, input, state);
}

function injectedFault({ platform, query, cursor }, state) {
	const fault = takeFault(state.faults, { platform, query: query ?? '', cursor: cursor || null });
	if (!fault) return null;
	return { fault, status: fault.destroy ? null : fault.status, outcome: 'fault', itemCount: 0 };
}

/**
 * Spec 7: a bad q, limit or cursor is refused before any fetch, free. The spec gives no status for
 * it: 200 by default, 400 or 422 (--refusal-status) as many real services answer.
 * @returns {Answer | {limit: number, offset: number}}
 */
function readInput({ platform, query, limit, cursor }, config) {
	const { defaultPageSize, maxPageSize, refusalStatus } = config;
	const refuse = (code, message) => refusal(refusalStatus, code, message);
	if (!query) return refuse('query_required', 'Query parameter q is required');
	if (limit !== null && !(/^\d+$/.test(limit) && Number(limit) >= 1)) {
		return refuse('invalid_limit', 'limit must be an integer of at least 1');
	}
	// A limit above the maximum is capped, not refused.
	const size = Math.min(limit === null ? defaultPageSize : Number(limit), maxPageSize);
	// An empty cursor parameter means "first page", the way clients often send it.
	const offset = cursor ? decodeCursor(cursor, platform, query) : 0;
	if (offset === null) return refuse('invalid_cursor', 'cursor is not valid for this search');
	return { limit: size, offset };
}

function refusal(status, code, message) {
	const body = { success: false, available: false, error: { code, message }, data: null };
	return { status, body, outcome: 'refused', itemCount: 0 };
}

function lookup({ platform, query }, { limit, offset }, state) {
	const nowMs = state.config.now();
	// Keyed on the decoded offset: equivalent to the cursor, since cursors are deterministic.
	const key = JSON.stringify([platform, query, limit, offset]);
	const hit = state.cache.find(key, nowMs);
	if (hit) return pageAnswer(hit.reading, hit.ageSeconds);
	const { overrides, day, trends } = state;
	const request = { platform, query, offset, limit, readingMs: nowMs, overrides, day, trends };
	const page = readPage(request);
	const next = page.hasMore ? encodeCursor(platform, query, offset + page.items.length) : null;
	const reading = { ...page, readingMs: nowMs, nextCursor: next };
	state.cache.store(key, reading);
	return pageAnswer(reading, null);
}

/**
 * The envelope of a reading (spec 2.1, 2.2), fresh (ageSeconds null) or repeated from the cache.
 * @returns {Answer}
 */
function pageAnswer({ items, nextCursor, availabilityStatus }, ageSeconds) {
	const cached = ageSeconds !== null;
	if (cached) items = items.map((item) => ({ ...item, cached, cacheAgeSeconds: ageSeconds }));
	const [fetchedAt, cacheAgeSeconds, sourceTimestamp] = [null, ageSeconds, null];
	const data = { items, nextCursor, cached, fetchedAt, cacheAgeSeconds, sourceTimestamp };
	const body = availabilityStatus
		? { success: true, available: false, availabilityStatus, data }
		: { success: true, available: true, data };
	const fresh = availabilityStatus ? 'unavailable' : items.length === 0 ? 'empty' : 'ok';
	return { status: 200, body, outcome: cached ? 'cached' : fresh, itemCount: items.length };
}

module.exports = { readSearchRequest, decideSearch };
