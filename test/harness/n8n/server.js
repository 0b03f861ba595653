'use strict';

// `n8n start` on 127.0.0.1: free ports, readiness, stop by pid.

const net = require('node:net');
const { n8nEnv } = require('./install');
const { superviseN8n } = require('./process');

const READY_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 10_000;

/**
 * A TCP port that was free on 127.0.0.1 a moment ago.
 * @returns {Promise<number>}
 */
function getFreePort() {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			const port = typeof address === 'object' && address ? address.port : 0;
			server.close(() => resolve(port));
		});
	});
}

/**
 * @typedef {object} N8nServer
 * @property {string} url e.g. http://127.0.0.1:40123
 * @property {number} pid n8n's own pid
 * @property {number} port
 * @property {number} brokerPort
 * @property {() => Promise<{code: number | null, signal: string | null}>} stop SIGTERM, SIGKILL
 *   after 10 s; waits for the exit. Safe to call twice.
 * @property {() => string} logs the last ~20 KB of its stdout and stderr
 */

/**
 * Whether a starting n8n serves its REST API: /healthz/readiness answers 200 (n8n 1.x says so as
 * soon as its database is migrated, before its REST routes exist) and so does GET /rest/settings.
 * @param {string} url
 * @returns {Promise<boolean>}
 */
async function isReady(url) {
	for (const route of ['/healthz/readiness', '/rest/settings']) {
		try {
			const response = await fetch(url + route, { signal: AbortSignal.timeout(2_000) });
			await response.arrayBuffer();
			if (response.status !== 200) return false;
		} catch {
			return false; // not listening yet
		}
	}
	return true;
}

/**
 * `n8n start` on 127.0.0.1, resolved once GET /healthz/readiness and GET /rest/settings answer 200 (or rejected
 * after 60 s, the server then stopped). Ports default to free ones. Call stop() when done.
 * @param {string} userFolder
 * @param {{ port?: number, brokerPort?: number, env?: Record<string, string | undefined>,
 *   readyTimeoutMs?: number }} [options]
 * @returns {Promise<N8nServer>}
 */
async function startN8n(
	userFolder,
	{ port, brokerPort, env = {}, readyTimeoutMs = READY_TIMEOUT_MS } = {},
) {
	const serverPort = port ?? (await getFreePort());
	const serverBrokerPort = brokerPort ?? (await getFreePort());
	const url = `http://127.0.0.1:${serverPort}`;
	const run = superviseN8n(
		['start'],
		n8nEnv(userFolder, serverPort, serverBrokerPort, env),
		userFolder,
		{
			tailOnly: true,
			graceMs: STOP_GRACE_MS,
		},
	);
	const logs = () => `--- stdout ---\n${run.stdout()}\n--- stderr ---\n${run.stderr()}`;
	/** @type {{code: number | null, signal: string | null} | undefined} */
	let exit;
	void run.exited.then((e) => (exit = e));
	const stop = async () => {
		await run.stop(STOP_GRACE_MS);
		return run.exited;
	};

	const deadline = Date.now() + readyTimeoutMs;
	for (;;) {
		if (exit) {
			throw new Error(
				`n8n start exited early (code ${exit.code}, signal ${exit.signal})\n${logs()}`,
			);
		}
		if (Date.now() > deadline) {
			await stop();
			throw new Error(
				`n8n start: ${url}/healthz/readiness not ready after ${readyTimeoutMs} ms\n${logs()}`,
			);
		}
		if (await isReady(url)) break;
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	const pid = await run.childPid;
	return { url, pid, port: serverPort, brokerPort: serverBrokerPort, stop, logs };
}

/**
 * Whether a TCP port is free on 127.0.0.1 right now.
 * @param {number} port
 * @returns {Promise<boolean>}
 */
function portIsFree(port) {
	return new Promise((resolve) => {
		const server = net.createServer();
		server.unref();
		server.once('error', () => resolve(false));
		server.listen({ port, host: '127.0.0.1', exclusive: true }, () =>
			server.close(() => resolve(true)),
		);
	});
}

/**
 * The preferred port when it is free, else any free one.
 * @param {number | undefined} preferred
 * @param {number[]} [avoid] ports already picked for something else
 * @returns {Promise<number>}
 */
async function pickPort(preferred, avoid = []) {
	if (preferred !== undefined && !avoid.includes(preferred) && (await portIsFree(preferred)))
		return preferred;
	for (;;) {
		const port = await getFreePort();
		if (!avoid.includes(port)) return port;
	}
}

module.exports = { getFreePort, portIsFree, pickPort, startN8n };
