'use strict';

// The reference implementation of the Sound Search service: the two search endpoints, their
// billing, cache and ledger, plus the unauthenticated control endpoints tests use to steer it.
// Check order on a search: auth, injected faults, input, cache, catalogue lookup.

const http = require('node:http');
const { PLATFORMS, describeQuery, normalizeQuery, overrideKey, readPage } = require('./catalogue');
const { encodeCursor, decodeCursor } = require('./cursor');
const { parseFaults, takeFault, sendFault, faultCredits } = require('./faults');
const { createCapacity, rateLimitedAnswer } = require('./capacity');
const { setTimeout: delay } = require('node:timers/promises');

const PRICES = { shortvideo: 1, photosocial: 2 };
const SEARCH_PATH = /^\/v1\/([^/]+)\/sound\/search$/;
const MAX_BODY_BYTES = 1024 * 1024;

const DEFAULTS = {
	keys: ['sandbox-key'],
	revokedKeys: [],
	maxPageSize: 50,
	defaultPageSize: 20,
	cacheSeconds: 60,
	capacity: 0,
	latencyMs: 0,
	retryAfterSeconds: 1,
	now: Date.now,
};

/**
 * @typedef {object} ServiceOptions
 * @property {string[]} [keys] valid API keys
 * @property {string[]} [revokedKeys] keys answered with 403
 * @property {number} [maxPageSize] larger limits are capped to this
 * @property {number} [defaultPageSize] page size when no limit is sent
 * @property {number} [cacheSeconds] window in which identical requests are cache hits (0 = off)
 * @property {number} [capacity] most search calls in flight per key, 429 beyond (0 = no limit)
 * @property {number} [latencyMs] added before every normal answer
 * @property {number} [retryAfterSeconds] Retry-After of a capacity 429
 * @property {() => number} [now] clock in ms since epoch (tests may inject one)
 */

/**
 * @typedef {object} ServiceState
 * @property {object[]} ledger one record per search request
 * @property {Map<string, object>} cache readings by request identity
 * @property {Map<string, {total: number, availabilityStatus: string | null}>} overrides
 * @property {import('./faults').Fault[]} faults pending injected faults
 * @property {number} nextSeq sequence number of the next ledger record
 */

/**
 * Builds the service. The server is not listening yet; the caller picks host and port.
 * @param {ServiceOptions} [options]
 * @returns {{server: import('node:http').Server, state: ServiceState}}
 */
function createReferenceService(options = {}) {
	const defined = Object.entries(options).filter(([, value]) => value !== undefined);
	const config = { ...DEFAULTS, ...Object.fromEntries(defined) };
	const state = {
		ledger: [],
		cache: new Map(),
		overrides: new Map(),
		faults: [],
		nextSeq: 1,
		/** The service clock in days: post counts grow with it (see catalogue.js). */
		day: 0,
		capacity: createCapacity(config),
	};
	const context = { config, state };
	const server = http.createServer((req, res) => {
		route(req, res, context).catch((error) => sendInternalError(res, error));
	});
	return { server, state };
}

async function route(req, res, context) {
	const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
	const search = SEARCH_PATH.exec(url.pathname);
	if (search && PLATFORMS.includes(search[1])) {
		return routeSearch(req, res, url, search[1], context);
	}
	const control = CONTROL_ROUTES[url.pathname];
	if (control) return routeControl(req, res, control, context);
	sendJson(res, 404, errorBody('not_found', `No such endpoint: ${url.pathname}`));
}

// ---------------------------------------------------------------------------------------------
// Search endpoints

async function routeSearch(req, res, url, platform, context) {
	if (req.method !== 'GET') {
		// Not a search, so not in the ledger; still reports its (zero) price like every answer here.
		return sendMethodNotAllowed(res, 'GET', { 'X-Credits-Charged': '0' });
	}
	const request = readSearchRequest(req, url, platform, context.config.now());
	const { capacity } = context.state;
	const admission = capacity.enter(bearerKey(request.authorization) ?? '');
	try {
		const answer = admission.refused
			? rateLimitedAnswer(capacity.settings)
			: decideSearch(request, context);
		record(context.state, request, answer);
		if (answer.fault) return await sendFault(req, res, answer.fault);
		if (!admission.refused && capacity.settings.latencyMs > 0)
			await delay(capacity.settings.latencyMs);
		if (res.destroyed) return;
		sendJson(res, answer.status, answer.body, {
			...answer.headers,
			'X-Credits-Charged': String(answer.credits),
		});
	} finally {
		admission.leave();
	}
}

function readSearchRequest(req, url, platform, nowMs) {
	const params = url.searchParams;
	const q = params.get('q');
	return {
		at: new Date(nowMs).toISOString(),
		method: req.method,
		path: url.pathname,
		platform,
		q,
		query: normalizeQuery(q) || null,
		limit: params.get('limit'),
		cursor: params.get('cursor'),
		authorization: req.headers.authorization ?? null,
	};
}

/**
 * @returns {{status: number | null, body?: object, headers?: object, credits: number,
 *   outcome: string, itemCount: number, fault?: import('./faults').FaultResponse}}
 */
function decideSearch(request, context) {
	const denied = checkAuth(request, context.config) ?? injectedFault(request, context.state);
	if (denied) return denied;
	const input = parseInput(request, context.config);
	return input.refusal ?? answerLookup(request, input, context);
}

function checkAuth(request, config) {
	const key = bearerKey(request.authorization);
	// Revocation wins over validity: a key can be listed in both while it is being retired.
	if (key !== null && config.revokedKeys.includes(key)) {
		return authFailure(403, 'forbidden', 'API key revoked');
	}
	if (key === null || !config.keys.includes(key)) {
		return {
			...authFailure(401, 'unauthorized', 'Missing or invalid API key'),
			headers: { 'WWW-Authenticate': 'Bearer' },
		};
	}
	return null;
}

/**
 * @param {string | null} header raw Authorization header
 * @returns {string | null} the key, or null when the header is missing or not a Bearer header
 */
function bearerKey(header) {
	const match = /^Bearer +(\S+) *$/i.exec(header ?? '');
	return match ? match[1] : null;
}

function authFailure(status, code, message) {
	// The message is fixed text: the key is never echoed back.
	return { status, body: errorBody(code, message), credits: 0, outcome: code, itemCount: 0 };
}

function injectedFault(request, state) {
	const fault = takeFault(state.faults, {
		platform: request.platform,
		query: request.query ?? '',
		cursor: request.cursor || null,
	});
	if (!fault) return null;
	return {
		fault,
		status: fault.destroy ? null : fault.status,
		credits: faultCredits(fault),
		outcome: 'fault',
		itemCount: 0,
	};
}

/**
 * Validates q, limit and cursor. Refusals are HTTP 200 with success:false and cost nothing.
 * @returns {{refusal?: object, limit?: number, offset?: number}}
 */
function parseInput(request, config) {
	if (!request.query) return refuse('query_required', 'Query parameter q is required');
	const limit = effectiveLimit(request.limit, config);
	if (limit === null) return refuse('invalid_limit', 'limit must be an integer of at least 1');
	// An empty cursor parameter means "first page", the way clients often send it.
	if (!request.cursor) return { limit, offset: 0 };
	const offset = decodeCursor(request.cursor, request.platform, request.query);
	if (offset === null) return refuse('invalid_cursor', 'cursor is not valid for this search');
	return { limit, offset };
}

function refuse(code, message) {
	const body = { success: false, available: false, error: { code, message }, data: null };
	return { refusal: { status: 200, body, credits: 0, outcome: 'refused', itemCount: 0 } };
}

/**
 * @param {string | null} raw limit parameter
 * @returns {number | null} the page size to use, or null when the value is invalid
 */
function effectiveLimit(raw, config) {
	const cap = config.maxPageSize;
	if (raw === null) return Math.min(config.defaultPageSize, cap);
	if (!/^\d+$/.test(raw) || Number(raw) < 1) return null;
	return Math.min(Number(raw), cap);
}

function answerLookup(request, input, context) {
	const { config, state } = context;
	const windowMs = config.cacheSeconds * 1000;
	const nowMs = config.now();
	// Keyed on the decoded offset: equivalent to the cursor, since cursors are deterministic.
	const key = JSON.stringify([request.platform, request.query, input.limit, input.offset]);
	const hit = state.cache.get(key);
	if (hit && nowMs - hit.readingMs < windowMs) {
		return pageAnswer(hit, request.platform, Math.floor((nowMs - hit.readingMs) / 1000));
	}
	const reading = takeReading(request, input, state, nowMs);
	if (windowMs > 0) storeReading(state.cache, key, reading, windowMs);
	return pageAnswer(reading, request.platform, null);
}

function takeReading(request, input, { overrides, day }, readingMs) {
	const { platform, query } = request;
	const page = readPage({ platform, query, ...input, readingMs, overrides, day });
	const nextOffset = input.offset + page.items.length;
	return {
		readingMs,
		availabilityStatus: page.availabilityStatus,
		items: page.items,
		nextCursor: page.hasMore ? encodeCursor(platform, query, nextOffset) : null,
	};
}

function storeReading(cache, key, reading, windowMs) {
	// Entries sit in reading order, so expired ones are at the front: drop them as we go.
	for (const [oldKey, old] of cache) {
		if (reading.readingMs - old.readingMs < windowMs) break;
		cache.delete(oldKey);
	}
	cache.delete(key);
	cache.set(key, reading);
}

/**
 * The success envelope for a reading, fresh (ageSeconds null) or repeated from the cache.
 */
function pageAnswer(reading, platform, ageSeconds) {
	const cached = ageSeconds !== null;
	const items = cached
		? reading.items.map((item) => ({ ...item, cached: true, cacheAgeSeconds: ageSeconds }))
		: reading.items;
	const data = {
		items,
		nextCursor: reading.nextCursor,
		cached,
		fetchedAt: null,
		cacheAgeSeconds: cached ? ageSeconds : null,
		sourceTimestamp: null,
	};
	const status = reading.availabilityStatus;
	const body = status
		? { success: true, available: false, availabilityStatus: status, data }
		: { success: true, available: true, data };
	return {
		status: 200,
		body,
		credits: cached ? 0 : PRICES[platform],
		outcome: cached ? 'cached' : freshOutcome(reading),
		itemCount: items.length,
	};
}

function freshOutcome(reading) {
	if (reading.availabilityStatus) return 'unavailable';
	return reading.items.length === 0 ? 'empty' : 'ok';
}

function record(state, request, answer) {
	state.ledger.push({
		seq: state.nextSeq++,
		...request,
		status: answer.status,
		creditsCharged: answer.credits,
		outcome: answer.outcome,
		itemCount: answer.itemCount,
	});
}

// ---------------------------------------------------------------------------------------------
// Control endpoints (no auth, not in the ledger)

const CONTROL_ROUTES = {
	'/healthz': { method: 'GET', handle: () => ({ ok: true }) },
	'/__sandbox/ledger': { method: 'GET', handle: (state) => ledgerReport(state) },
	'/__sandbox/reset': { method: 'POST', handle: (state) => resetState(state) },
	'/__sandbox/catalogue': { method: 'POST', handle: (state, body) => setOverride(state, body) },
	'/__sandbox/faults': { method: 'POST', handle: (state, body) => addFaults(state, body) },
	'/__sandbox/time': { method: 'POST', handle: (state, body) => advanceTime(state, body) },
	'/__sandbox/capacity': {
		method: 'POST',
		handle: (state, body) => state.capacity.configure(body),
	},
};

async function routeControl(req, res, control, context) {
	if (req.method !== control.method) return sendMethodNotAllowed(res, control.method);
	try {
		const body = control.method === 'POST' ? await readJsonBody(req) : undefined;
		sendJson(res, 200, control.handle(context.state, body));
	} catch (error) {
		if (!(error instanceof TypeError)) throw error;
		sendJson(res, 400, errorBody('bad_request', error.message));
	}
}

function ledgerReport(state) {
	const creditsCharged = state.ledger.reduce((sum, entry) => sum + entry.creditsCharged, 0);
	return {
		requests: state.ledger,
		totals: { requests: state.ledger.length, creditsCharged },
		capacity: state.capacity.report(),
	};
}

function resetState(state) {
	state.ledger.length = 0;
	state.nextSeq = 1;
	state.cache.clear();
	state.overrides.clear();
	state.faults.length = 0;
	state.day = 0;
	state.capacity.reset();
	return { ok: true };
}

/**
 * Body: {query, total, platform?, availabilityStatus?}. total may be left out when an
 * availabilityStatus is given (an unavailable query has no matches to count).
 */
function setOverride(state, body) {
	const query = normalizeQuery(typeof body.query === 'string' ? body.query : '');
	if (!query) throw new TypeError('query must be a non-empty string');
	const status = body.availabilityStatus ?? null;
	if (status !== null && (typeof status !== 'string' || status === '')) {
		throw new TypeError('availabilityStatus must be a non-empty string or null');
	}
	const total = body.total ?? (status ? 0 : undefined);
	if (!(Number.isSafeInteger(total) && total >= 0)) {
		throw new TypeError('total must be an integer >= 0');
	}
	if (body.platform !== undefined && !PLATFORMS.includes(body.platform)) {
		throw new TypeError(`platform must be one of ${PLATFORMS.join(', ')}`);
	}
	const platforms = body.platform ? [body.platform] : PLATFORMS;
	for (const platform of platforms) {
		const { added } = state.overrides.get(overrideKey(platform, query)) ?? {};
		state.overrides.set(overrideKey(platform, query), { total, availabilityStatus: status, added });
	}
	// Readings taken before the change would otherwise hide it for a whole cache window.
	state.cache.clear();
	return { ok: true, query, total, availabilityStatus: status, platforms };
}

/**
 * Body: {days?, newSounds?: {query: count}}. Time passes: the clock moves on by `days` (post
 * counts grow) and each query in newSounds gets that many new sounds at the top of its results
 * (both platforms). Readings taken before are dropped from the cache.
 */
function advanceTime(state, body) {
	const days = body.days ?? 0;
	if (!(Number.isInteger(days) && days >= 0)) throw new TypeError('days must be an integer >= 0');
	const newSounds = body.newSounds ?? {};
	if (typeof newSounds !== 'object' || Array.isArray(newSounds)) {
		throw new TypeError('newSounds must be an object of query: count');
	}
	for (const [raw, count] of Object.entries(newSounds)) {
		const query = normalizeQuery(raw);
		if (!query || !(Number.isInteger(count) && count >= 0)) {
			throw new TypeError('newSounds must map non-empty queries to integers >= 0');
		}
		for (const platform of PLATFORMS) addSounds(state.overrides, platform, query, count);
	}
	state.day += days;
	state.cache.clear();
	return { ok: true, day: state.day };
}

function addSounds(overrides, platform, query, count) {
	const current = describeQuery(platform, query, overrides);
	overrides.set(overrideKey(platform, query), { ...current, added: (current.added ?? 0) + count });
}

function addFaults(state, body) {
	state.faults.push(...parseFaults(body.faults));
	return { ok: true, pending: state.faults.length };
}

/**
 * @param {import('node:http').IncomingMessage} req
 * @returns {Promise<Record<string, unknown>>} the parsed object ({} for an empty body)
 */
async function readJsonBody(req) {
	const chunks = [];
	let size = 0;
	for await (const chunk of req) {
		size += chunk.length;
		if (size > MAX_BODY_BYTES) throw new TypeError('body is too large');
		chunks.push(chunk);
	}
	const text = Buffer.concat(chunks).toString('utf8').trim();
	if (text === '') return {};
	let parsed;
	try {
		parsed = JSON.parse(text);
	} catch {
		throw new TypeError('body must be JSON');
	}
	if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
		throw new TypeError('body must be a JSON object');
	}
	return parsed;
}

// ---------------------------------------------------------------------------------------------
// Answers

function errorBody(code, message) {
	return { success: false, error: { code, message } };
}

function sendJson(res, status, body, headers = {}) {
	const data = Buffer.from(JSON.stringify(body), 'utf8');
	// setHeader (not writeHead's object) keeps the headers readable, e.g. by the request log.
	res.setHeader('Content-Type', 'application/json');
	res.setHeader('Content-Length', data.length);
	for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
	res.writeHead(status);
	res.end(data);
}

function sendMethodNotAllowed(res, allowed, headers = {}) {
	const body = errorBody('method_not_allowed', `Use ${allowed} on this endpoint`);
	sendJson(res, 405, body, { Allow: allowed, ...headers });
}

function sendInternalError(res, error) {
	if (res.headersSent) {
		res.destroy(error);
		return;
	}
	const body = errorBody('internal_error', `Sandbox error: ${error.message}`);
	sendJson(res, 500, body, { 'X-Credits-Charged': '0' });
}

module.exports = { createReferenceService, PRICES };
