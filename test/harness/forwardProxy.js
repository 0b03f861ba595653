'use strict';

// A forward HTTP proxy on 127.0.0.1 for the engine tests of n8n's Request Options → Proxy: it
// passes every request on and records its URL. `holdMs` holds a request that long first (a call
// n8n has taken but not sent on yet); one whose client went away meanwhile is not passed on.

const http = require('node:http');
const { setTimeout: sleep } = require('node:timers/promises');

/**
 * @param {{ holdMs?: (url: URL) => number }} [options]
 * @returns {Promise<{ url: string, seen: string[], close: () => Promise<void> }>}
 */
async function startForwardProxy({ holdMs = () => 0 } = {}) {
	/** @type {string[]} */
	const seen = [];
	const server = http.createServer(async (req, res) => {
		seen.push(String(req.url));
		await sleep(holdMs(new URL(String(req.url))));
		if (req.socket.destroyed) return;
		const onward = http.request(String(req.url), { method: req.method, headers: req.headers });
		onward.on('response', (answer) => {
			res.writeHead(answer.statusCode ?? 502, answer.headers);
			answer.pipe(res);
		});
		onward.on('error', () => res.writeHead(502).end());
		req.pipe(onward);
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
	const address = /** @type {import('node:net').AddressInfo} */ (server.address());
	return {
		url: `http://127.0.0.1:${address.port}`,
		seen,
		close: () => {
			// A held call's connection would hold close() open.
			server.closeAllConnections();
			return new Promise((resolve) => server.close(() => resolve(undefined)));
		},
	};
}

module.exports = { startForwardProxy };
