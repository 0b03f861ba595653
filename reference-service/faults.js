'use strict';

// Injected faults: scripted answers (402/429/5xx, non-JSON bodies, slow or dropped connections)
// that replace the normal answer of matching searches, so a client's retry and error handling can
// be tested against real HTTP. The format is in README.md; credits go through pricing.js.

const { setTimeout: delay } = require('node:timers/promises');
const { PLATFORMS, normalizeQuery } = require('./catalogue');
const { send, check, isObject } = require('./answers');

/** @typedef {ReturnType<typeof parseFaults>[number]} Fault */
/** @typedef {Fault['response']} FaultResponse */

/** Validates and normalizes the faults posted to the control endpoint. */
function parseFaults(list) {
	check(Array.isArray(list), 'faults must be an array');
	return list.map((fault, index) => {
		const where = `faults[${index}]`;
		check(isObject(fault), `${where} must be an object`);
		const match = parseMatch(fault.match ?? {}, `${where}.match`);
		const times = fault.times ?? 1;
		const remaining = times === 'always' ? Infinity : positive(times, `${where}.times`);
		const response = parseResponse(fault.response, `${where}.response`);
		// `seen` counts matching requests, so `nth` means the nth since injection.
		return { match, remaining, seen: 0, response };
	});
}

function parseMatch(match, where) {
	check(isObject(match), `${where} must be an object`);
	const { platform, query, cursor = 'any' } = match;
	const known = platform === undefined || PLATFORMS.includes(platform);
	check(known, `${where}.platform must be one of ${PLATFORMS.join(', ')}`);
	check(query === undefined || typeof query === 'string', `${where}.query must be a string`);
	check(typeof cursor === 'string', `${where}.cursor must be 'any', 'none' or a cursor string`);
	// The query is compared with the request's normalized one, so normalized the same way.
	const normalized = query === undefined ? null : normalizeQuery(query);
	const nth = positive(match.nth ?? 1, `${where}.nth`);
	return { platform: platform ?? null, query: normalized, cursor, nth };
}

function parseResponse(response, where) {
	check(isObject(response), `${where} must be an object`);
	// `??` where a posted null means the default; a null creditsCharged means "no header".
	const { status = null, creditsCharged = 0, body } = response;
	const [headers, delayMs] = [response.headers ?? {}, response.delayMs ?? 0];
	const destroy = response.destroy === true;
	const isStatus = Number.isInteger(status) && status >= 100 && status <= 599;
	check(destroy || isStatus, `${where}.status must be an HTTP status (100-599)`);
	const isCredits =
		creditsCharged === null || (Number.isInteger(creditsCharged) && creditsCharged >= 0);
	check(isCredits, `${where}.creditsCharged must be an integer >= 0 or null`);
	check(typeof delayMs === 'number' && delayMs >= 0, `${where}.delayMs must be a number >= 0`);
	check(isObject(headers), `${where}.headers must be an object`);
	for (const [name, value] of Object.entries(headers)) {
		const ok = typeof value === 'string' || typeof value === 'number';
		check(ok, `${where}.headers.${name} must be a string or a number`);
		headers[name] = String(value);
	}
	return { status, headers, body, delayMs, creditsCharged, destroy };
}

function positive(value, where) {
	check(Number.isInteger(value) && value >= 1, `${where} must be an integer >= 1`);
	return value;
}

/**
 * Uses once the first fault that applies to a search (used-up faults leave the list).
 * @param {Fault[]} faults
 * @param {{platform: string, query: string, cursor: string | null}} request
 * @returns {FaultResponse | null}
 */
function takeFault(faults, request) {
	const matching = faults.filter(({ match }) => matches(match, request));
	for (const fault of matching) fault.seen += 1;
	const chosen = matching.find((fault) => fault.seen >= fault.match.nth);
	if (!chosen) return null;
	chosen.remaining -= 1;
	if (chosen.remaining <= 0) faults.splice(faults.indexOf(chosen), 1);
	return chosen.response;
}

function matches({ platform, query, cursor }, request) {
	if (platform !== null && platform !== request.platform) return false;
	if (query !== null && query !== request.query) return false;
	if (cursor === 'none') return request.cursor === null;
	return cursor === 'any' || cursor === request.cursor;
}

/** Plays a fault response on the wire. @param {FaultResponse} response */
async function sendFault(req, res, response) {
	const { status, headers, body, delayMs, creditsCharged, destroy } = response;
	if (delayMs > 0) await delay(delayMs);
	// The client may have given up (its timeout) or the server may be closing meanwhile.
	if (res.destroyed) return;
	if (destroy) return void req.socket.destroy();
	const raw = typeof body === 'string';
	const data = Buffer.from(body === undefined ? '' : raw ? body : JSON.stringify(body), 'utf8');
	const type =
		body === undefined ? undefined : raw ? 'text/plain; charset=utf-8' : 'application/json';
	send(res, status, data, {
		'Content-Type': type,
		'Content-Length': data.length,
		'X-Credits-Charged': creditsCharged === null ? undefined : String(creditsCharged),
		...headers, // last, so scripted headers replace the defaults
	});
}

module.exports = { parseFaults, takeFault, sendFault };
