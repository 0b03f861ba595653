'use strict';

// HTTP from the benchmark process, with undici: n8n's webhooks, and the raw floor (d), a plain
// loop that fetches the same pages from the reference service outside n8n.

const { Agent, request } = require('undici');

const WEBHOOK_TIMEOUT_MS = 300_000;
const agent = (connections, timeout) =>
	new Agent({ connections, headersTimeout: timeout, bodyTimeout: timeout });
// Keep-alive agents, one per role so that the two never share sockets.
const webhookAgent = agent(16, WEBHOOK_TIMEOUT_MS);
const floorAgent = agent(64, 30_000);

/**
 * Calls a production webhook and waits for the whole answer.
 * @param {string} url @param {{ method?: string, body?: unknown }} [options]
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
	try {
		return { ms, status: response.statusCode, json: JSON.parse(text) };
	} catch {
		return { ms, status: response.statusCode, json: text };
	}
}

/** One page of the search endpoint, its parsed body; `reset` closes the connection after it. */
async function fetchPage({ serviceUrl, apiKey, q, limit, cursor = null, reset = false }) {
	const params = new URLSearchParams({ q, limit: String(limit) });
	if (cursor) params.set('cursor', cursor);
	const response = await request(`${serviceUrl}/v1/shortvideo/sound/search?${params}`, {
		dispatcher: floorAgent,
		reset,
		headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' },
	});
	const body = /** @type {any} */ (await response.body.json());
	if (response.statusCode !== 200 || body?.success !== true)
		throw new Error(
			`floor: page answered ${response.statusCode} ${JSON.stringify(body).slice(0, 200)}`,
		);
	return body;
}

/**
 * The raw floor (d): Return All by following nextCursor, the sounds collected in an array (what
 * the n8n variants output). With newConnection, a new TCP connection per page, as n8n's request
 * helper makes them.
 */
async function floorReturnAll({ serviceUrl, apiKey, q, pageSize, newConnection = false }) {
	const t0 = performance.now();
	const sounds = [];
	let [cursor, pages] = [null, 0];
	do {
		const page = { serviceUrl, apiKey, q, limit: pageSize, cursor, reset: newConnection };
		const body = await fetchPage(page);
		pages += 1;
		sounds.push(...body.data.items);
		cursor = body.data.nextCursor;
	} while (cursor && pages < 1000);
	return { ms: performance.now() - t0, items: sounds.length, pages };
}

/** The raw floor for several keywords: one page each, all at once, as n8n's engine starts them. */
async function floorKeywords({ serviceUrl, apiKey, keywords, limit }) {
	const t0 = performance.now();
	const bodies = await Promise.all(
		keywords.map((q) => fetchPage({ serviceUrl, apiKey, q, limit })),
	);
	const sounds = bodies.flatMap((body) => body.data.items);
	return { ms: performance.now() - t0, items: sounds.length, pages: bodies.length };
}

const closeClients = () => Promise.allSettled([webhookAgent.close(), floorAgent.close()]);

module.exports = { callWebhook, floorReturnAll, floorKeywords, closeClients };
