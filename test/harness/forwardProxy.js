'use strict';

// A forward HTTP proxy on 127.0.0.1 for the engine tests of n8n's Request Options → Proxy: it
// passes every request on and records its URL.

const http = require('node:http');

/** @returns {Promise<{ url: string, seen: string[], close: () => Promise<void> }>} */
async function startForwardProxy() {
	/** @type {string[]} */
	const seen = [];
	const server = http.createServer((req, res) => {
		seen.push(String(req.url));
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
		close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
	};
}

module.exports = { startForwardProxy };
