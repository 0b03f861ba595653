'use strict';

// How the service's answers go on the wire: JSON with its length, the error body every refusal
// but a search's shares (spec 7 leaves its shape open), the free 429 of capacity and quota mode,
// and the 400 for a control body it refuses.

const errorBody = (code, message) => ({ success: false, error: { code, message } });

/** A search refused for its rate (capacity or quota mode): free, headers say when to come back. */
const rateLimited = (message, headers) => ({
	status: 429,
	body: errorBody('rate_limited', message),
	headers,
	outcome: 'rate_limited',
	itemCount: 0,
});

/** @param {import('node:http').ServerResponse} res @param {Record<string, any>} headers */
function send(res, status, data, headers) {
	// setHeader, not writeHead's object: the headers stay readable (the request log reads the
	// credits), and a later name replaces an earlier one whatever its case. undefined: left out.
	for (const [name, value] of Object.entries(headers)) {
		if (value !== undefined) res.setHeader(name, value);
	}
	res.writeHead(status);
	res.end(data);
}

function sendJson(res, status, body, headers = {}) {
	const data = Buffer.from(JSON.stringify(body), 'utf8');
	const json = { 'Content-Type': 'application/json', 'Content-Length': data.length };
	send(res, status, data, { ...json, ...headers });
}

/** A posted body the service cannot take: the TypeError is answered as a 400 with its message. */
function check(ok, message) {
	if (!ok) throw new TypeError(message);
}

/** @returns {value is Record<string, any>} */
const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

module.exports = { errorBody, rateLimited, send, sendJson, check, isObject };
