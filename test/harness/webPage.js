'use strict';

// Where a credential's Base URL may wrongly point, for the credential Test's checks: a web server
// answering every path with an HTML page (200), counting requests, and a port nothing listens on.

const http = require('node:http');

/** @returns {Promise<{ port: number, url: string, hits: () => number, close: () => Promise<void> }>} */
async function startWebPage() {
	let hits = 0;
	const server = http.createServer((_req, res) => {
		hits += 1;
		res.writeHead(200, { 'content-type': 'text/html' });
		res.end('<html><body>Welcome</body></html>');
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
	const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
	return {
		port,
		url: `http://127.0.0.1:${port}`,
		hits: () => hits,
		close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
	};
}

/** A port on 127.0.0.1 that was free a moment ago and has nothing listening now. */
async function closedPort() {
	const page = await startWebPage();
	await page.close();
	return page.port;
}

module.exports = { startWebPage, closedPort };
