'use strict';

// HTTP from the benchmark process, with undici: calling n8n's webhooks, and the raw floor (d):
// a plain loop that fetches the same pages from the reference service outside n8n.

const { Agent, request } = require('undici');

const WEBHOOK_TIMEOUT_MS = 300_000;
const PAGE_TIMEOUT_MS = 30_000;

// Keep-alive agents (undici's default), one per role so the two never share sockets.
const webhookAgent = new Agent({
	connections: 16,
	headersTimeout: WEBHOOK_TIMEOUT_MS,
	bodyTimeout: WEBHOOK_TIMEOUT_MS,
});
const floorAgent = new Agent({
	connections: 64,
	headersTimeout: PAGE_TIMEOUT_MS,
	bodyTimeout: PAGE_TIMEOUT_MS,
});

/**
 * Calls a production webhook and waits for the whole answer.
 * @param {string} url
 * @param {{ method?: string, body?: unknown }} [options]
 * @returns {Promise<{ ms: number, status: number, json: any }>}
 */
async function callWebhook(url, { method = 'GET', body } = {}) {
	const t0 = performance.now();
	const response = await request(url, {
		method,
		dispatcher: webhookAgent,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
		signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
	});
	const text = await response.body.text();
	const ms = performance.now() - t0;
	let json;
	try {
		json = JSON.parse(text);
	} catch {
		json = text;
	}
	return { ms, status: response.statusCode, json };
}

/**
 * One page from the search endpoint.
 * @returns {Promise<any>} the parsed body
 */
async function fetchPage(serviceUrl, apiKey, platform, q, limit, cursor, newConnection = false) {
	const params = new URLSearchParams({ q, limit: String(limit) });
	if (cursor) params.set('cursor', cursor);
	const response = await request(`${serviceUrl}/v1/${platform}/sound/search?${params}`, {
		dispatcher: floorAgent,
		// reset: the connection is closed after this request (no keep-alive reuse)
		reset: newConnection,
		headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' },
	});
	const body = /** @type {any} */ (await response.body.json());
	if (response.statusCode !== 200 || body?.success !== true) {
		throw new Error(
			`floor: page answered ${response.statusCode} ${JSON.stringify(body).slice(0, 200)}`,
		);
	}
	return body;
}

/**
 * The raw floor (d): Return All by following nextCursor in a plain loop, one object per sound
 * collected in an array (what the n8n variants output), bounded by maxPages. With newConnection,
 * every page gets its own TCP connection (as n8n's request helper does), for comparison.
 * @returns {Promise<{ ms: number, items: number, pages: number }>}
 */
async function floorReturnAll({
	serviceUrl,
	apiKey,
	platform = 'shortvideo',
	q,
	pageSize,
	maxPages = 1000,
	newConnection = false,
}) {
	const t0 = performance.now();
	const sounds = [];
	let cursor = null;
	let pages = 0;
	do {
		const body = await fetchPage(serviceUrl, apiKey, platform, q, pageSize, cursor, newConnection);
		pages += 1;
		for (const item of body.data.items) sounds.push(item);
		cursor = body.data.nextCursor;
	} while (cursor && pages < maxPages);
	return { ms: performance.now() - t0, items: sounds.length, pages };
}

/**
 * The raw floor for several keywords: one page of `limit` per keyword, all at once (n8n's
 * declarative engine also starts every input item's search at once).
 * @returns {Promise<{ ms: number, items: number, pages: number }>}
 */
async function floorKeywords({ serviceUrl, apiKey, platform = 'shortvideo', keywords, limit }) {
	const t0 = performance.now();
	const bodies = await Promise.all(
		keywords.map((q) => fetchPage(serviceUrl, apiKey, platform, q, limit, null)),
	);
	const sounds = [];
	for (const body of bodies) for (const item of body.data.items) sounds.push(item);
	return { ms: performance.now() - t0, items: sounds.length, pages: bodies.length };
}

async function closeClients() {
	await Promise.allSettled([webhookAgent.close(), floorAgent.close()]);
}

module.exports = { callWebhook, floorReturnAll, floorKeywords, closeClients };
