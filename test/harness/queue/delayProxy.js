'use strict';

// A pass-through HTTP proxy on 127.0.0.1 in front of the reference service that forwards every
// request at once and holds each answer `delayMs` (settable) before passing it on: network latency
// on the way back. Executions then last long enough to be caught mid-flight by a worker's SIGTERM
// or SIGKILL, and a call the service has already answered (and charged) can be lost with a killed
// worker, as on a real network. Hand-written: proxy libraries forward at once, none holds answers.

const http = require('node:http');

/**
 * @typedef {object} DelayProxy
 * @property {string} url
 * @property {(ms: number) => void} setDelay
 * @property {() => { requests: number, inFlight: number, maxInFlight: number, undelivered: number }} stats
 *   undelivered: answers the client was gone for (e.g. its worker was killed)
 * @property {() => void} resetStats
 * @property {() => Promise<void>} stop
 */

/**
 * @param {string} target e.g. http://127.0.0.1:40123
 * @param {{ delayMs: number }} options
 * @returns {Promise<DelayProxy>}
 */
async function startDelayProxy(target, { delayMs }) {
	const to = new URL(target);
	let delay = delayMs;
	const stats = { requests: 0, inFlight: 0, maxInFlight: 0, undelivered: 0 };
	const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
	const server = http.createServer((req, res) => {
		stats.requests += 1;
		stats.maxInFlight = Math.max(stats.maxInFlight, ++stats.inFlight);
		res.once('close', () => {
			stats.inFlight -= 1;
			if (!res.writableFinished) stats.undelivered += 1;
		});
		const headers = { ...req.headers, host: to.host };
		const options = {
			host: to.hostname,
			port: to.port,
			method: req.method,
			path: req.url,
			headers,
			agent,
		};
		const upstream = http.request(options, (answer) => {
			const body = /** @type {Buffer[]} */ ([]);
			answer.on('data', (chunk) => body.push(chunk));
			answer.on('end', () => {
				const timer = setTimeout(() => {
					if (res.destroyed) return;
					res.writeHead(answer.statusCode ?? 502, answer.headers).end(Buffer.concat(body));
				}, delay);
				res.on('close', () => clearTimeout(timer));
			});
		});
		upstream.on('error', () => res.destroy());
		req.pipe(upstream);
	});
	await new Promise((resolve, reject) =>
		server.once('error', reject).listen(0, '127.0.0.1', () => resolve(undefined)),
	);
	const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
	return {
		url: `http://127.0.0.1:${port}`,
		setDelay: (ms) => void (delay = ms),
		stats: () => ({ ...stats }),
		resetStats: () =>
			Object.assign(stats, { requests: 0, maxInFlight: stats.inFlight, undelivered: 0 }),
		stop: () =>
			new Promise((done) => {
				server.closeAllConnections();
				agent.destroy();
				server.close(() => done());
			}),
	};
}

module.exports = { startDelayProxy };
