'use strict';

// Injected faults: scripted answers (402/429/5xx, non-JSON bodies, slow or dropped connections)
// that replace the normal answer of matching search requests, so client retry and error handling
// can be tested against real HTTP.

const { setTimeout: delay } = require('node:timers/promises');
const { PLATFORMS, normalizeQuery } = require('./catalogue');

/**
 * @typedef {object} FaultResponse
 * @property {number | null} status HTTP status (null only when destroy is set)
 * @property {Record<string, string>} headers extra or overriding response headers
 * @property {unknown} body string sent raw, anything else sent as JSON, undefined for no body
 * @property {number} delayMs wait before answering (or destroying)
 * @property {number | null} creditsCharged X-Credits-Charged value; null omits the header
 * @property {boolean} destroy drop the connection instead of answering
 */

/**
 * @typedef {object} Fault
 * @property {{platform: string | null, query: string | null, cursor: string, nth: number}} match
 * @property {number} remaining uses left (Infinity for 'always')
 * @property {number} seen matching requests seen so far (drives `nth`)
 * @property {FaultResponse} response
 */

/**
 * Validates and normalizes faults posted to the control endpoint.
 * @param {unknown} list
 * @returns {Fault[]}
 * @throws {TypeError} with a message fit for a 400 answer
 */
function parseFaults(list) {
	if (!Array.isArray(list)) throw new TypeError('faults must be an array');
	return list.map((fault, index) => {
		if (!isObject(fault)) throw new TypeError(`faults[${index}] must be an object`);
		return {
			match: parseMatch(fault.match ?? {}, index),
			remaining: parseTimes(fault.times, index),
			seen: 0,
			response: parseResponse(fault.response, index),
		};
	});
}

function parseMatch(match, index) {
	const where = `faults[${index}].match`;
	if (!isObject(match)) throw new TypeError(`${where} must be an object`);
	if (match.platform !== undefined && !PLATFORMS.includes(match.platform)) {
		throw new TypeError(`${where}.platform must be one of ${PLATFORMS.join(', ')}`);
	}
	if (match.query !== undefined && typeof match.query !== 'string') {
		throw new TypeError(`${where}.query must be a string`);
	}
	if (match.cursor !== undefined && typeof match.cursor !== 'string') {
		throw new TypeError(`${where}.cursor must be 'any', 'none' or a cursor string`);
	}
	return {
		platform: match.platform ?? null,
		// Compared with the request's normalized query, so normalize it the same way.
		query: match.query === undefined ? null : normalizeQuery(match.query),
		cursor: match.cursor ?? 'any',
		nth: positiveInteger(match.nth ?? 1, `${where}.nth`),
	};
}

function parseTimes(times, index) {
	if (times === 'always') return Infinity;
	return positiveInteger(times ?? 1, `faults[${index}].times`);
}

function parseResponse(response, index) {
	const where = `faults[${index}].response`;
	if (!isObject(response)) throw new TypeError(`${where} must be an object`);
	const destroy = response.destroy === true;
	const status = response.status ?? null;
	if (!destroy && !(Number.isInteger(status) && status >= 100 && status <= 599)) {
		throw new TypeError(`${where}.status must be an HTTP status (100-599)`);
	}
	const credits = response.creditsCharged === undefined ? 0 : response.creditsCharged;
	if (credits !== null && !(Number.isInteger(credits) && credits >= 0)) {
		throw new TypeError(`${where}.creditsCharged must be an integer >= 0 or null`);
	}
	const delayMs = response.delayMs ?? 0;
	if (!(typeof delayMs === 'number' && delayMs >= 0)) {
		throw new TypeError(`${where}.delayMs must be a number >= 0`);
	}
	return {
		status,
		headers: parseHeaders(response.headers ?? {}, where),
		body: response.body,
		delayMs,
		creditsCharged: credits,
		destroy,
	};
}

function parseHeaders(headers, where) {
	if (!isObject(headers)) throw new TypeError(`${where}.headers must be an object`);
	const parsed = {};
	for (const [name, value] of Object.entries(headers)) {
		if (typeof value !== 'string' && typeof value !== 'number') {
			throw new TypeError(`${where}.headers.${name} must be a string or a number`);
		}
		parsed[name] = String(value);
	}
	return parsed;
}

function positiveInteger(value, where) {
	if (!(Number.isInteger(value) && value >= 1)) {
		throw new TypeError(`${where} must be an integer >= 1`);
	}
	return value;
}

function isObject(value) {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * @param {Fault['match']} match
 * @param {{platform: string, query: string, cursor: string | null}} request
 */
function matches(match, request) {
	if (match.platform !== null && match.platform !== request.platform) return false;
	if (match.query !== null && match.query !== request.query) return false;
	if (match.cursor === 'any') return true;
	if (match.cursor === 'none') return request.cursor === null;
	return match.cursor === request.cursor;
}

/**
 * Finds the first fault that applies to a request and consumes one of its uses. Every fault whose
 * criteria match counts the request, so `nth` means "the nth matching request since injection".
 * @param {Fault[]} faults mutated: counters move, used-up faults are removed
 * @param {{platform: string, query: string, cursor: string | null}} request
 * @returns {FaultResponse | null}
 */
function takeFault(faults, request) {
	let chosen = null;
	for (const fault of faults) {
		if (!matches(fault.match, request)) continue;
		fault.seen += 1;
		if (!chosen && fault.seen >= fault.match.nth) chosen = fault;
	}
	if (!chosen) return null;
	chosen.remaining -= 1;
	if (chosen.remaining <= 0) faults.splice(faults.indexOf(chosen), 1);
	return chosen.response;
}

/**
 * Plays a fault response on the wire.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {FaultResponse} response
 * @returns {Promise<void>}
 */
async function sendFault(req, res, response) {
	if (response.delayMs > 0) await delay(response.delayMs);
	// The client may have given up (its timeout) or the server may be closing meanwhile.
	if (res.destroyed) return;
	if (response.destroy) {
		req.socket.destroy();
		return;
	}
	const payload = encodeBody(response.body);
	if (payload.type) res.setHeader('Content-Type', payload.type);
	res.setHeader('Content-Length', payload.data.length);
	if (response.creditsCharged !== null) {
		res.setHeader('X-Credits-Charged', String(response.creditsCharged));
	}
	// setHeader is case-insensitive, so scripted headers replace the defaults above.
	for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
	res.writeHead(response.status);
	res.end(payload.data);
}

/**
 * @param {unknown} body
 * @returns {{data: Buffer, type: string | null}}
 */
function encodeBody(body) {
	if (body === undefined) return { data: Buffer.alloc(0), type: null };
	if (typeof body === 'string') {
		return { data: Buffer.from(body, 'utf8'), type: 'text/plain; charset=utf-8' };
	}
	return { data: Buffer.from(JSON.stringify(body), 'utf8'), type: 'application/json' };
}

/**
 * Credits a fault answer reports, for the ledger (an omitted header counts as 0).
 * @param {FaultResponse} response
 * @returns {number}
 */
function faultCredits(response) {
	return response.creditsCharged ?? 0;
}

module.exports = { parseFaults, takeFault, sendFault, faultCredits };
