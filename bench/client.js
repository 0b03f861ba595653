'use strict';

// HTTP from the benchmark process, with undici: n8n's webhooks, and the raw floor (d), a plain
// loop that fetches the same pages from the reference service outside n8n.

const { Agent, request } = require('undici');

const WEBHOOK_TIMEOUT_MS = 300_000;
const agent = (timeout) => new Agent({ headersTimeout: timeout, bodyTimeout: timeout });
// Keep-alive agents, one per role so that the two never share sockets.
const webhookAgent = agent(WEBHOOK_TIMEOUT_MS);
const floorAgent = agent(30_000);

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

/** The raw floor (d): Return All by following nextCursor, the sounds collected in an array. */
async function floorReturnAll({ serviceUrl, apiKey, q, pageSize }) {
	const t0 = performance.now();
	const sounds = [];
	let cursor = null;
	do {
		const params = new URLSearchParams({ q, limit: String(pageSize), ...(cursor && { cursor }) });
		const response = await request(`${serviceUrl}/v1/shortvideo/sound/search?${params}`, {
			dispatcher: floorAgent,
			headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' },
		});
		const body = /** @type {any} */ (await response.body.json());
		if (response.statusCode !== 200 || body?.success !== true)
			throw new Error(`floor: ${response.statusCode} ${JSON.stringify(body).slice(0, 200)}`);
		sounds.push(...body.data.items);
		cursor = body.data.nextCursor;
	} while (cursor);
	return { ms: performance.now() - t0, items: sounds.length };
}

const closeClients = () => Promise.allSettled([webhookAgent.close(), floorAgent.close()]);

module.exports = { callWebhook, floorReturnAll, closeClients };
