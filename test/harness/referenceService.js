'use strict';

// The reference service (reference-service/server.js) as the tests, demos and the benchmark use
// it: a child process (real sockets, real signals; it exits by itself when this process dies),
// driven over HTTP.

const path = require('node:path');
const { startListeningChild } = require('./listeningChild');

const SERVER = path.join(__dirname, '..', '..', 'reference-service', 'server.js');
// Options passed as the server's flag of the same name: revokedKeys as --revoked-keys.
const FLAGS =
	'keys revokedKeys maxPageSize defaultPageSize cacheSeconds capacity latencyMs host quota bucket';

/**
 * @typedef {{keys?: string[], revokedKeys?: string[], maxPageSize?: number, host?: string,
 *   defaultPageSize?: number, cacheSeconds?: number, capacity?: number, latencyMs?: number,
 *   quota?: string, bucket?: string, quiet?: boolean, args?: string[]}} ReferenceServiceOptions the server's flags (its README);
 *   by default any free port on 127.0.0.1, key `sandbox-key`, quiet; args: raw flags appended
 * @typedef {Awaited<ReturnType<typeof startReferenceService>>} ReferenceService
 */

/** Starts the service; resolves once it listens. @param {ReferenceServiceOptions} [options] */
async function startReferenceService(options = {}) {
	const args = options.quiet === false ? [] : ['--quiet'];
	for (const name of FLAGS.split(' ').filter((flag) => options[flag] !== undefined)) {
		const flag = `--${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
		args.push(flag, [options[name]].flat().join(','));
	}
	args.push(...(options.args ?? []));
	const { line, ...child } = await startListeningChild(SERVER, args, 'reference service');
	/** @type {{ url: string, pid: number, keys: string[] }} */
	const { url, pid, keys } = /** @type {any} */ (line);
	return { url, pid, keys, ...controls(url, keys), ...child };
}

/** search() and the control endpoints (reference-service/README.md) of a service at `url`. */
function controls(url, keys) {
	/** GET without a body, else POST it as JSON; resolves the endpoint's JSON answer. */
	const control = async (/** @type {string} */ route, /** @type {object} */ body = undefined) => {
		const post = body ? { method: 'POST', body: JSON.stringify(body) } : {};
		const headers = { 'Content-Type': 'application/json' };
		const response = await fetch(`${url}/__sandbox/${route}`, { headers, ...post });
		const text = await response.text();
		if (!response.ok) throw new Error(`/__sandbox/${route} answered ${response.status}: ${text}`);
		return JSON.parse(text);
	};
	return {
		search: search.bind(null, url, keys),
		/** @returns {Promise<{requests: any[], totals: {requests: number, creditsCharged: number},
		 *   capacity: Record<string, number>, quota: Record<string, number>,
		 *   bucket: Record<string, number>}>} */
		ledger: () => control('ledger'),
		reset: async () => void (await control('reset', {})),
		setCatalogue: (entry) => control('catalogue', entry),
		injectFaults: (/** @type {object[]} */ faults) => control('faults', { faults }),
		setCapacity: (settings) => control('capacity', settings),
		/** @param {{limit?: number, windowMs?: number, headers?: boolean}} settings */
		setQuota: (settings) => control('quota', settings),
		/** @param {{size?: number, refillPerSecond?: number}} settings */
		setBucket: (settings) => control('bucket', settings),
		passTime: (change) => control('time', change),
		setTrend: (script) => control('trends', script),
	};
}

/**
 * One search, its answer read whole (`body` undefined when not JSON). `authorization` replaces the
 * header (null: none); else it is `Bearer <key>`, the service's first key by default.
 * @param {string} url
 * @param {string[]} keys
 * @param {string} platform
 * @param {Record<string, string>} [params]
 * @param {{key?: string, authorization?: string | null}} [auth]
 * @returns {Promise<{ status: number, headers: Headers, credits: string | null, text: string,
 *   body: any }>}
 */
async function search(url, keys, platform, params = {}, { key = keys[0], authorization } = {}) {
	const address = new URL(`/v1/${platform}/sound/search?${new URLSearchParams(params)}`, url);
	const header = authorization === undefined ? `Bearer ${key}` : authorization;
	const response = await fetch(address, {
		headers: header === null ? {} : { Authorization: header },
	});
	const { status, headers } = response;
	const text = await response.text();
	let body;
	try {
		body = JSON.parse(text);
	} catch {} // a fault's raw body: `text` has it
	return { status, headers, credits: headers.get('x-credits-charged'), text, body };
}

/**
 * Runs fn with a started service, stopped afterwards.
 * @template T
 * @param {ReferenceServiceOptions} options
 * @param {(service: ReferenceService) => Promise<T>} fn
 * @returns {Promise<T>}
 */
async function withReferenceService(options, fn) {
	const service = await startReferenceService(options);
	try {
		return await fn(service);
	} finally {
		await service.stop();
	}
}

module.exports = { startReferenceService, withReferenceService, controls };
