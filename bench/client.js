'use strict';

// HTTP from the benchmark process, with undici: n8n's webhooks, the raw floor (d), a plain
// loop that fetches the same pages from the reference service outside n8n, and another client
// sharing a key's quota.

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

/**
 * Another client on the same key: one search (`<prefix> <n>`) every 1000 / perSecond ms, sent
 * without waiting for the answers, until stop(); stop() resolves once all are answered, with
 * how many it sent. Refusals and failures are counted by the service's ledger, not here.
 */
function otherClient({ serviceUrl, apiKey, perSecond, prefix }) {
	const pending = [];
	const send = () => {
		const q = `${prefix} ${pending.length}`;
		const params = new URLSearchParams({ q, limit: '10' });
		const call = request(`${serviceUrl}/v1/shortvideo/sound/search?${params}`, {
			dispatcher: floorAgent,
			headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' },
		}).then(
			(response) => response.body.dump(),
			() => undefined,
		);
		pending.push(call);
	};
	send();
	const timer = setInterval(send, 1000 / perSecond);
	return {
		async stop() {
			clearInterval(timer);
			await Promise.all(pending);
			return { sent: pending.length };
		},
	};
}

const closeClients = () => Promise.allSettled([webhookAgent.close(), floorAgent.close()]);

module.exports = { callWebhook, floorReturnAll, otherClient, closeClients };
