'use strict';

// Starts the reference service (reference-service/server.js) as a child process for tests and scripts, and drives its
// control endpoints over HTTP. A separate process keeps the service honest (real sockets, real
// signals) and --parent-pid makes it exit on its own if this process dies without stopping it.

const { spawn } = require('node:child_process');
const path = require('node:path');

const SERVER_SCRIPT = path.resolve(__dirname, '..', '..', 'reference-service', 'server.js');
const START_TIMEOUT_MS = 10000;
const KILL_GRACE_MS = 3000;
// Enough of the child's stderr to explain a failed start, without growing without bound.
const STDERR_TAIL_CHARS = 4000;

/**
 * @typedef {object} ReferenceServiceOptions
 * @property {string[]} [keys] valid API keys (default: the server's ['sandbox-key'])
 * @property {string[]} [revokedKeys] keys answered with 403
 * @property {number} [maxPageSize]
 * @property {number} [defaultPageSize]
 * @property {number} [cacheSeconds]
 * @property {number} [capacity] most calls in flight per key, 429 beyond (0: no limit)
 * @property {number} [latencyMs] added to every normal answer
 * @property {string} [host] bind address (default 127.0.0.1)
 * @property {boolean} [quiet] false to keep the per-request log on stderr (see stderr())
 * @property {string[]} [args] extra raw CLI arguments, appended (a repeated flag: the last wins)
 */

/**
 * @typedef {object} ReferenceService
 * @property {string} url base URL, e.g. http://127.0.0.1:40123
 * @property {number} pid the child's process id
 * @property {string[]} keys the valid API keys
 * @property {() => Promise<{requests: object[], totals: {requests: number, creditsCharged: number},
 *   capacity: {capacity: number, latencyMs: number, retryAfterSeconds: number, inFlight: number,
 *   mostInFlight: number, rateLimited: number}}>} ledger requests, totals and capacity counters
 * @property {() => Promise<void>} reset clears ledger, cache, catalogue overrides and faults
 * @property {(entry: {query: string, total?: number, platform?: string,
 *   availabilityStatus?: string | null}) => Promise<object>} setCatalogue
 * @property {(faults: object[]) => Promise<object>} injectFaults
 * @property {(settings: {capacity?: number, latencyMs?: number,
 *   retryAfterSeconds?: number}) => Promise<object>} setCapacity until the next reset
 * @property {(change: {days?: number, newSounds?: Record<string, number>}) => Promise<object>}
 *   passTime post counts grow by `days`; new sounds appear for the queries in newSounds
 * @property {() => Promise<{code: number | null, signal: string | null}>} stop
 * @property {() => string} stderr the last few KB the child wrote to stderr
 */

/**
 * @param {ReferenceServiceOptions} options
 * @returns {string[]} CLI arguments
 */
function cliArgs(options) {
	const args = ['--port', '0', '--parent-pid', String(process.pid)];
	if (options.quiet !== false) args.push('--quiet');
	const flags = {
		'--keys': options.keys?.join(','),
		'--revoked-keys': options.revokedKeys?.join(','),
		'--max-page-size': options.maxPageSize,
		'--default-page-size': options.defaultPageSize,
		'--cache-seconds': options.cacheSeconds,
		'--capacity': options.capacity,
		'--latency-ms': options.latencyMs,
		'--host': options.host,
	};
	for (const [flag, value] of Object.entries(flags)) {
		if (value !== undefined) args.push(flag, String(value));
	}
	return [...args, ...(options.args ?? [])];
}

/**
 * Starts the sandbox and resolves once it is listening.
 * @param {ReferenceServiceOptions} [options]
 * @returns {Promise<ReferenceService>}
 */
async function startReferenceService(options = {}) {
	const child = spawn(process.execPath, [SERVER_SCRIPT, ...cliArgs(options)], {
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const exited = new Promise((resolve) => {
		child.once('exit', (code, signal) => resolve({ code, signal }));
	});
	const stderr = collectTail(child.stderr);
	try {
		const line = await waitForListening(child, exited, stderr);
		return handleFor(child, exited, line, stderr);
	} catch (error) {
		await stopChild(child, exited);
		throw error;
	}
}

function collectTail(stream) {
	const tail = { text: '' };
	stream.setEncoding('utf8');
	stream.on('data', (chunk) => {
		tail.text = (tail.text + chunk).slice(-STDERR_TAIL_CHARS);
	});
	return tail;
}

/**
 * Resolves with the parsed first stdout line; rejects on exit or after START_TIMEOUT_MS.
 */
function waitForListening(child, exited, stderr) {
	return new Promise((resolve, reject) => {
		let timer;
		const fail = (why) => {
			clearTimeout(timer);
			reject(new Error(`sandbox did not start: ${why}\n${stderr.text}`));
		};
		timer = setTimeout(() => fail(`no listening line in ${START_TIMEOUT_MS} ms`), START_TIMEOUT_MS);
		exited.then(({ code, signal }) => fail(`exited early (code ${code}, signal ${signal})`));
		let buffered = '';
		child.stdout.setEncoding('utf8');
		child.stdout.on('data', (chunk) => {
			if (buffered === null) return; // past the first line: nothing else is expected
			buffered += chunk;
			const newline = buffered.indexOf('\n');
			if (newline === -1) return;
			const first = buffered.slice(0, newline);
			buffered = null;
			clearTimeout(timer);
			try {
				resolve(JSON.parse(first));
			} catch {
				fail(`unexpected first line: ${first}`);
			}
		});
	});
}

function handleFor(child, exited, line, stderr) {
	const control = (method, route, body) => callControl(line.url, method, route, body);
	let stopping = null;
	return {
		url: line.url,
		pid: line.pid,
		keys: line.keys,
		ledger: () => control('GET', '/__sandbox/ledger'),
		reset: async () => {
			await control('POST', '/__sandbox/reset');
		},
		setCatalogue: (entry) => control('POST', '/__sandbox/catalogue', entry),
		injectFaults: (faults) => control('POST', '/__sandbox/faults', { faults }),
		setCapacity: (settings) => control('POST', '/__sandbox/capacity', settings),
		passTime: (change) => control('POST', '/__sandbox/time', change),
		stop: () => {
			stopping ??= stopChild(child, exited);
			return stopping;
		},
		stderr: () => stderr.text,
	};
}

async function callControl(baseUrl, method, route, body) {
	const response = await fetch(`${baseUrl}${route}`, {
		method,
		headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	if (!response.ok) {
		throw new Error(`sandbox ${method} ${route} answered ${response.status}: ${text}`);
	}
	return JSON.parse(text);
}

/**
 * SIGTERM, then SIGKILL if the child is still there after KILL_GRACE_MS.
 * @returns {Promise<{code: number | null, signal: string | null}>} how it exited
 */
async function stopChild(child, exited) {
	if (child.exitCode !== null || child.signalCode !== null) return exited;
	signal(child.pid, 'SIGTERM');
	const timer = setTimeout(() => signal(child.pid, 'SIGKILL'), KILL_GRACE_MS);
	try {
		return await exited;
	} finally {
		clearTimeout(timer);
	}
}

function signal(pid, name) {
	try {
		process.kill(pid, name);
	} catch (error) {
		// Already gone between the check and the signal: that is what we wanted.
		if (error.code !== 'ESRCH') throw error;
	}
}

/**
 * Runs fn with a started sandbox and always stops it afterwards.
 * @template T
 * @param {ReferenceServiceOptions} options
 * @param {(service: ReferenceService) => Promise<T>} fn
 * @returns {Promise<T>}
 */
async function withReferenceService(options, fn) {
	const service = await startReferenceService(options);
	try {
		return await fn(service);
	} finally {
		await service.stop();
	}
}

module.exports = { startReferenceService, withReferenceService };
