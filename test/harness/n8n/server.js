'use strict';

// `n8n start` on 127.0.0.1: free ports, readiness (wait-on), stop by pid.

const net = require('node:net');
const waitOn = require('wait-on');
const { n8nEnv, superviseN8n } = require('./install');
const { deadlineMs, timedOut } = require('../deadlines');
const { until } = require('../poll');
const { inTurn } = require('./startLock');

const STOP_GRACE_MS = 10_000;

/**
 * A TCP port free on 127.0.0.1 a moment ago: `preferred` when it is free, else any.
 * @param {number} [preferred]
 * @returns {Promise<number>}
 */
function getFreePort(preferred = 0) {
	return new Promise((resolve, reject) => {
		const server = net.createServer().unref();
		server.once('error', (error) => (preferred ? resolve(getFreePort()) : reject(error)));
		server.listen(preferred, '127.0.0.1', () => {
			const { port } = /** @type {net.AddressInfo} */ (server.address());
			server.close(() => resolve(port));
		});
	});
}

/**
 * `n8n start` on 127.0.0.1 (free ports unless given), resolved once /healthz/readiness and
 * /rest/settings answer 200 (n8n 1.x is "ready" before its REST routes exist); on failure stopped
 * and rejected with its logs. Takes turns with every n8n start on the machine (startLock.js).
 * @param {string} userFolder
 * @param {{ port?: number, brokerPort?: number, env?: Record<string, string | undefined>,
 *   readyTimeoutMs?: number }} [options]
 */
const startN8n = (userFolder, options = {}) => inTurn(() => startNow(userFolder, options));

/** @param {string} userFolder @param {Parameters<typeof startN8n>[1]} options */
async function startNow(
	userFolder,
	{ port, brokerPort, env = {}, readyTimeoutMs = deadlineMs('n8nReady') } = {},
) {
	port ??= await getFreePort();
	brokerPort ??= await getFreePort();
	const url = `http://127.0.0.1:${port}`;
	const run = superviseN8n(['start'], n8nEnv(userFolder, port, brokerPort, env), userFolder, {
		tailOnly: true,
		graceMs: STOP_GRACE_MS,
	});
	const logs = () => `--- stdout ---\n${run.stdout()}\n--- stderr ---\n${run.stderr()}`;
	/** SIGTERM, SIGKILL of its group after 10 s; resolves its exit. Safe to call twice. */
	const stop = async () => {
		await run.stop(STOP_GRACE_MS);
		return run.exited;
	};
	try {
		await untilReady(run, [`${url}/healthz/readiness`, `${url}/rest/settings`], readyTimeoutMs);
	} catch (error) {
		await stop();
		throw new Error(`n8n start at ${url}: ${/** @type {Error} */ (error).message}\n${logs()}`);
	}
	const pid = await run.childPid;
	return { url, pid, port, brokerPort, stop, logs, exited: run.exited };
}

/**
 * Resolves when every URL answers 200; rejects at once when the process exits first, or when the
 * time is up (with the machine's load). For `n8n start` and the queue-mode main and workers.
 * @param {ReturnType<typeof superviseN8n>} run
 * @param {string[]} urls
 * @param {number} timeoutMs
 */
async function untilReady(run, urls, timeoutMs) {
	const resources = urls.map((url) => url.replace(/^http:/, 'http-get:'));
	const ready = waitOn({ resources, timeout: timeoutMs, interval: 250, httpTimeout: 2_000 }).catch(
		() => {
			throw timedOut(`200 from ${urls.join(' and ')}`, timeoutMs);
		},
	);
	const exitedEarly = run.exited.then((exit) => {
		throw new Error(`exited early (code ${exit.code}, signal ${exit.signal})`);
	});
	await Promise.race([ready, exitedEarly]);
}

/**
 * Waits until n8n serves a just-published production webhook (registered a moment after the
 * activation answered), probing with a CORS preflight, which runs nothing: n8n answers 204 with
 * the path's methods once registered. Resolves how long it took.
 * @param {string} url
 */
async function untilWebhookServed(url, method = 'POST') {
	const t0 = Date.now();
	const headers = { origin: 'http://127.0.0.1', 'access-control-request-method': method };
	const registered = async () => {
		const response = await fetch(url, { method: 'OPTIONS', headers }).catch(() => undefined);
		const allowed = response?.headers.get('access-control-allow-methods') ?? '';
		return response?.status === 204 && allowed.split(',').some((m) => m.trim() === method);
	};
	await until(`${method} ${url} registered`, registered, Boolean, deadlineMs('webhook'));
	return Date.now() - t0;
}

/** @typedef {Awaited<ReturnType<typeof startN8n>>} N8nServer */

module.exports = { getFreePort, startN8n, untilReady, untilWebhookServed };
