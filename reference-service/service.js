'use strict';

// The reference implementation of the Sound Search service (the spec), on plain node:http: the two
// search endpoints, and the control endpoints tests use to steer it. Where each thing is decided:
// search.js what a search answers, pricing.js what it costs, control.js the /__sandbox/* endpoints,
// capacity.js the 429s and latency of capacity mode, quota.js and bucket.js the 429s of a quota,
// faults.js the scripted failures.

const http = require('node:http');
const { setTimeout: delay } = require('node:timers/promises');
const { errorBody, sendJson } = require('./answers');
const { bearerKey } = require('./auth');
const { createCache } = require('./cache');
const { createCapacity, rateLimitedAnswer } = require('./capacity');
const { createQuota } = require('./quota');
const { createBucket } = require('./bucket');
const { PLATFORMS } = require('./catalogue');
const { CONTROL_ROUTES, readJsonBody } = require('./control');
const { sendFault } = require('./faults');
const { priceOf } = require('./pricing');
const { readSearchRequest, decideSearch } = require('./search');

const SEARCH_PATH = /^\/v1\/([^/]+)\/sound\/search$/;
// The server's flags (README.md) as options; `now` lets a test set the clock.
const DEFAULTS = {
	...{ keys: ['sandbox-key'], revokedKeys: [], maxPageSize: 50, defaultPageSize: 20 },
	refusalStatus: 200,
	...{ cacheSeconds: 60, capacity: 0, latencyMs: 0, retryAfterSeconds: 1, now: Date.now },
	quota: { limit: 0, windowMs: 1000, headers: false },
	bucket: { size: 0, refillPerSecond: 1 },
};

/**
 * Builds the service. The server is not listening yet; the caller picks host and port.
 * @param {Partial<typeof DEFAULTS>} [options]
 */
function createReferenceService(options = {}) {
	const defined = Object.entries(options).filter(([, value]) => value !== undefined);
	/** @type {typeof DEFAULTS} */
	const config = { ...DEFAULTS, ...Object.fromEntries(defined) };
	const state = {
		config,
		/** @type {any[]} one record per search; its seq is its place, from 1 */
		ledger: [],
		cache: createCache(config.cacheSeconds),
		/** @type {Map<string, import('./catalogue').QueryEntry>} set by control endpoints */
		overrides: new Map(),
		/** @type {import('./faults').Fault[]} */
		faults: [],
		/** @type {Map<string, import('./trendControl').TrendScript>} set by /__sandbox/trends */
		trends: new Map(),
		day: 0, // the service clock: post counts grow with it (catalogue.js)
		capacity: createCapacity(config),
		quota: createQuota(config.quota),
		bucket: createBucket(config.bucket),
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

/** @param {ServiceState} state */
async function search(req, res, url, platform, state) {
	// Not a search, so not in the ledger; still reports its (zero) price like every answer here.
	if (req.method !== 'GET') return sendMethodNotAllowed(res, 'GET', { 'X-Credits-Charged': '0' });
	const request = readSearchRequest(req, url, platform, state.config.now());
	const { capacity, ledger } = state;
	const key = bearerKey(request.authorization) ?? '';
	const admission = capacity.enter(key);
	// A call over the key's quota (quota.js) or with its bucket empty (bucket.js) is refused before
	// it is looked at, like one over capacity.
	const overQuota = admission.refused ? null : (state.quota.admit(key) ?? state.bucket.admit(key));
	try {
		/** @type {import('./search').Answer} */
		const answer = admission.refused
			? rateLimitedAnswer(capacity.settings)
			: (overQuota ?? decideSearch(request, state));
		const { status, outcome, itemCount, fault } = answer;
		const creditsCharged = priceOf(platform, outcome, fault?.creditsCharged);
		ledger.push({ seq: ledger.length + 1, ...request, status, creditsCharged, outcome, itemCount });
		if (fault) return await sendFault(req, res, fault);
		const { latencyMs } = capacity.settings;
		if (!admission.refused && !overQuota && latencyMs > 0) await delay(latencyMs);
		if (res.destroyed) return;
		const quotaHeaders = state.quota.headers(key, Date.now());
		const headers = {
			...quotaHeaders,
			...answer.headers,
			'X-Credits-Charged': String(creditsCharged),
		};
		sendJson(res, status, answer.body, headers);
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

module.exports = { createReferenceService };
