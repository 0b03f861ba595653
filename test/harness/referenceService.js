'use strict';

// The client tests, demos and the benchmark use: starts the reference service
// (reference-service/server.js) as a child process and drives it over HTTP. A separate process
// keeps the service honest (real sockets, real signals); --parent-pid makes it exit on its own if
// this process dies without stopping it.

const { spawn } = require('node:child_process');
const { once } = require('node:events');
const path = require('node:path');
const readline = require('node:readline');

const SERVER = path.join(__dirname, '..', '..', 'reference-service', 'server.js');
const START_TIMEOUT_MS = 10000;
const KILL_GRACE_MS = 3000;
// Enough of the child's stderr to explain a failed start, without growing without bound.
const STDERR_TAIL_CHARS = 4000;
const FLAGS = {
	keys: '--keys',
	revokedKeys: '--revoked-keys',
	maxPageSize: '--max-page-size',
	defaultPageSize: '--default-page-size',
	cacheSeconds: '--cache-seconds',
	capacity: '--capacity',
	latencyMs: '--latency-ms',
	host: '--host',
};

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
 * @typedef {{status: number, headers: Headers, credits: string | null, text: string, body: any}} SearchAnswer
 * @typedef {{key?: string, authorization?: string | null}} SearchAuth `authorization` replaces
 *   the header whole (null: none); else `Bearer <key>`, the first key by default
 * @typedef {object} ReferenceService
 * @property {string} url base URL, e.g. http://127.0.0.1:40123
 * @property {number} pid the child's process id
 * @property {string[]} keys the valid API keys
 * @property {(platform: string, params?: Record<string, string>, auth?: SearchAuth) =>
 *   Promise<SearchAnswer>} search one search request, its answer read whole
 * @property {() => Promise<{requests: any[], totals: {requests: number, creditsCharged: number},
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
 * Starts the service and resolves once it is listening.
 * @param {ReferenceServiceOptions} [options]
 * @returns {Promise<ReferenceService>}
 */
async function startReferenceService(options = {}) {
	const args = ['--port', '0', '--parent-pid', String(process.pid)];
	if (options.quiet !== false) args.push('--quiet');
	for (const [name, flag] of Object.entries(FLAGS)) {
		const value = options[name];
		if (value !== undefined) args.push(flag, Array.isArray(value) ? value.join(',') : `${value}`);
	}
	const child = spawn(process.execPath, [SERVER, ...args, ...(options.args ?? [])], {
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const exited = once(child, 'exit').then(([code, signal]) => ({ code, signal }));
	let stderr = '';
	child.stderr.setEncoding('utf8').on('data', (chunk) => {
		stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS);
	});
	try {
		const line = await listeningLine(child, exited);
		return handle(line, () => stderr, stop(child, exited));
	} catch (error) {
		await stop(child, exited)();
		throw new Error(`reference service did not start: ${error.message}\n${stderr}`);
	}
}

// The service picks its own port (--port 0), so only the line it prints once listening says
// where it is: wait-on would need a port chosen beforehand, free until the child binds it.
async function listeningLine(child, exited) {
	const lines = readline.createInterface({ input: child.stdout });
	const signal = AbortSignal.timeout(START_TIMEOUT_MS);
	const early = exited.then(({ code, signal: name }) => {
		throw new Error(`exited early (code ${code}, signal ${name})`);
	});
	try {
		const first = once(lines, 'line', { signal }).catch(() => {
			throw new Error(`no listening line in ${START_TIMEOUT_MS} ms`);
		});
		const [line] = await Promise.race([first, early]);
		return JSON.parse(line);
	} finally {
		lines.close();
		child.stdout.resume(); // nothing else is expected there; never let the pipe fill
	}
}

/** SIGTERM, then SIGKILL if the child is still there after KILL_GRACE_MS; once only. */
function stop(child, exited) {
	let stopping;
	return () => {
		if (!stopping && child.exitCode === null && child.signalCode === null) {
			child.kill('SIGTERM');
			const timer = setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS);
			exited.then(() => clearTimeout(timer));
		}
		return (stopping = exited);
	};
}

function handle({ url, pid, keys }, stderr, stopChild) {
	/** GET without a body, else POST it as JSON. */
	const control = async (route, body) => {
		const post = body && { method: 'POST', body: JSON.stringify(body) };
		const response = await fetch(`${url}/__sandbox/${route}`, {
			headers: { 'Content-Type': 'application/json' },
			...post,
		});
		const text = await response.text();
		if (!response.ok) throw new Error(`/__sandbox/${route} answered ${response.status}: ${text}`);
		return JSON.parse(text);
	};
	return {
		url,
		pid,
		keys,
		search: (platform, params = {}, auth = {}) => search(url, keys, platform, params, auth),
		ledger: () => control('ledger'),
		reset: () => control('reset', {}).then(() => {}),
		setCatalogue: (entry) => control('catalogue', entry),
		injectFaults: (faults) => control('faults', { faults }),
		setCapacity: (settings) => control('capacity', settings),
		passTime: (change) => control('time', change),
		stop: stopChild,
		stderr,
	};
}

/** @returns {Promise<SearchAnswer>} */
async function search(url, keys, platform, params, { key = keys[0], authorization }) {
	const address = new URL(`/v1/${platform}/sound/search`, url);
	for (const [name, value] of Object.entries(params)) address.searchParams.set(name, value);
	const header = authorization === undefined ? `Bearer ${key}` : authorization;
	const response = await fetch(address, {
		headers: header === null ? {} : { Authorization: header },
	});
	const text = await response.text();
	let body;
	try {
		body = JSON.parse(text);
	} catch {} // a fault's raw body: `text` has it
	const credits = response.headers.get('x-credits-charged');
	return { status: response.status, headers: response.headers, credits, text, body };
}

/**
 * Runs fn with a started service and always stops it afterwards.
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
