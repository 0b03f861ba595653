'use strict';

// The reference implementation of the Sound Search service (the spec), on plain node:http: the two
// search endpoints, and the control endpoints tests use to steer it. Where each thing is decided:
// search.js what a search answers, pricing.js what it costs, control.js the /__sandbox/* endpoints,
// capacity.js the 429s and latency of capacity mode, faults.js the scripted failures.

const http = require('node:http');
const { setTimeout: delay } = require('node:timers/promises');
const { errorBody, sendJson } = require('./answers');
const { bearerKey } = require('./auth');
const { createCache } = require('./cache');
const { createCapacity, rateLimitedAnswer } = require('./capacity');
const { PLATFORMS } = require('./catalogue');
const { CONTROL_ROUTES, readJsonBody } = require('./control');
const { sendFault } = require('./faults');
const { PRICES, priceOf } = require('./pricing');
const { readSearchRequest, decideSearch } = require('./search');

const SEARCH_PATH = /^\/v1\/([^/]+)\/sound\/search$/;

/**
 * @typedef {object} ServiceOptions
 * @property {string[]} [keys] valid API keys
 * @property {string[]} [revokedKeys] keys answered with 403
 * @property {number} [maxPageSize] larger limits are capped to this
 * @property {number} [defaultPageSize] page size when no limit is sent
 * @property {number} [cacheSeconds] window in which identical requests are cache hits (0: off)
 * @property {number} [capacity] most search calls in flight per key, 429 beyond (0: no limit)
 * @property {number} [latencyMs] added before every normal answer
 * @property {number} [retryAfterSeconds] Retry-After of a capacity 429
 * @property {() => number} [now] clock in ms since epoch (tests may inject one)
 */
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
 * Builds the service. The server is not listening yet; the caller picks host and port.
 * @param {ServiceOptions} [options]
 */
function createReferenceService(options = {}) {
	const defined = Object.entries(options).filter(([, value]) => value !== undefined);
	/** @type {Required<ServiceOptions>} */
	const config = { ...DEFAULTS, ...Object.fromEntries(defined) };
	const state = {
		config,
		/** @type {object[]} one record per search; its seq is its place, from 1 */
		ledger: [],
		cache: createCache(config.cacheSeconds),
		/** @type {Map<string, import('./catalogue').QueryEntry>} set by control endpoints */
		overrides: new Map(),
		/** @type {import('./faults').Fault[]} pending injected faults */
		faults: [],
		/** The service clock in days: post counts grow with it (catalogue.js). */
		day: 0,
		capacity: createCapacity(config),
	};
	const server = http.createServer((req, res) => {
		route(req, res, state).catch((error) => sendInternalError(res, error));
	});
	return { server, state };
}

/** @typedef {ReturnType<typeof createReferenceService>['state']} ServiceState */

async function route(req, res, state) {
	const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
	const platform = SEARCH_PATH.exec(url.pathname)?.[1];
	if (platform && PLATFORMS.includes(platform)) return search(req, res, url, platform, state);
	const control = CONTROL_ROUTES[url.pathname];
	if (control) return controlCall(req, res, control, state);
	sendJson(res, 404, errorBody('not_found', `No such endpoint: ${url.pathname}`));
}

async function search(req, res, url, platform, state) {
	if (req.method !== 'GET') {
		// Not a search, so not in the ledger; still reports its (zero) price like every answer here.
		return sendMethodNotAllowed(res, 'GET', { 'X-Credits-Charged': '0' });
	}
	const request = readSearchRequest(req, url, platform, state.config.now());
	const { capacity } = state;
	const admission = capacity.enter(bearerKey(request.authorization) ?? '');
	try {
		const answer = admission.refused
			? rateLimitedAnswer(capacity.settings)
			: decideSearch(request, state);
		const { status, outcome, itemCount, fault } = answer;
		const credits = priceOf(platform, outcome, fault?.creditsCharged);
		const seq = state.ledger.length + 1;
		state.ledger.push({ seq, ...request, status, creditsCharged: credits, outcome, itemCount });
		if (fault) return await sendFault(req, res, fault);
		if (!admission.refused && capacity.settings.latencyMs > 0) {
			await delay(capacity.settings.latencyMs);
		}
		if (res.destroyed) return;
		const headers = { ...answer.headers, 'X-Credits-Charged': String(credits) };
		sendJson(res, /** @type {number} */ (status), answer.body, headers);
	} finally {
		admission.leave();
	}
}

async function controlCall(req, res, control, state) {
	if (req.method !== control.method) return sendMethodNotAllowed(res, control.method);
	try {
		const body = control.method === 'POST' ? await readJsonBody(req) : undefined;
		sendJson(res, 200, control.handle(state, body));
	} catch (error) {
		if (!(error instanceof TypeError)) throw error;
		sendJson(res, 400, errorBody('bad_request', error.message));
	}
}

function sendMethodNotAllowed(res, allowed, headers = {}) {
	const body = errorBody('method_not_allowed', `Use ${allowed} on this endpoint`);
	sendJson(res, 405, body, { Allow: allowed, ...headers });
}

function sendInternalError(res, error) {
	if (res.headersSent) return void res.destroy(error);
	const body = errorBody('internal_error', `Sandbox error: ${error.message}`);
	sendJson(res, 500, body, { 'X-Credits-Charged': '0' });
}

module.exports = { createReferenceService, PRICES };
