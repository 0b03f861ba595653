#!/usr/bin/env node
'use strict';

// CLI of the reference service. Prints one JSON "listening" line on stdout (the port is the one the
// system picked for --port 0: test/harness/referenceService.js and the commands test read it),
// logs to stderr, and never outlives its parent when asked.

const { parseArgs } = require('node:util');
const { parseQuota } = require('./quota');
const { parseBucket } = require('./bucket');
const { createReferenceService } = require('./service');

const USAGE = `Usage: node reference-service/server.js [--port 0] [--host 127.0.0.1] [--keys k1,k2]
  [--revoked-keys k3] [--max-page-size 50] [--default-page-size 20] [--cache-seconds 60]
  [--capacity 0] [--latency-ms 0] [--retry-after 1] [--quota 10/s|60/min|20/10s]
  [--quota-headers] [--bucket SIZE:RATE/s] [--refusal-status 200|400|422] [--parent-pid N]
  [--quiet]
Env fallbacks: SOUND_SEARCH_SANDBOX_PORT, SOUND_SEARCH_SANDBOX_KEYS`;

// The statuses real services refuse a bad query with (the spec gives none).
const REFUSAL_STATUSES = [200, 400, 422];

/** @type {import('node:util').ParseArgsOptionsConfig} */
const OPTIONS = {
	port: { type: 'string' },
	host: { type: 'string', default: '127.0.0.1' },
	keys: { type: 'string' },
	'revoked-keys': { type: 'string', default: '' },
	'max-page-size': { type: 'string', default: '50' },
	'default-page-size': { type: 'string', default: '20' },
	'cache-seconds': { type: 'string', default: '60' },
	capacity: { type: 'string', default: '0' },
	'latency-ms': { type: 'string', default: '0' },
	'retry-after': { type: 'string', default: '1' },
	quota: { type: 'string', default: '0' },
	'quota-headers': { type: 'boolean', default: false },
	bucket: { type: 'string', default: '0' },
	'refusal-status': { type: 'string', default: '200' },
	'parent-pid': { type: 'string' },
	quiet: { type: 'boolean', default: false },
	help: { type: 'boolean', default: false },
};

/**
 * @param {string[]} argv the arguments after the script's name
 * @param {NodeJS.ProcessEnv} env
 * @returns {Record<string, any>} the settings, or {help: true}; throws on a bad flag or value
 */
function readSettings(argv, env) {
	/** @type {Record<string, any>} */
	const values = parseArgs({ args: argv, options: OPTIONS }).values;
	if (values.help) return { help: true };
	const int = (flag, min, text = values[flag]) => {
		if (/^\d+$/.test(text) && Number(text) >= min) return Number(text);
		throw new Error(`--${flag} must be an integer >= ${min} (got "${text}")`);
	};
	const oneOf = (flag, allowed, text = values[flag]) => {
		if (allowed.map(String).includes(text)) return Number(text);
		throw new Error(`--${flag} must be one of ${allowed.join(', ')} (got "${text}")`);
	};
	const list = (text) =>
		text
			.trim()
			.split(/\s*,\s*/)
			.filter(Boolean);
	return {
		port: int('port', 0, values.port ?? env.SOUND_SEARCH_SANDBOX_PORT ?? '0'),
		host: values.host,
		keys: list(values.keys ?? env.SOUND_SEARCH_SANDBOX_KEYS ?? 'sandbox-key'),
		revokedKeys: list(values['revoked-keys']),
		maxPageSize: int('max-page-size', 1),
		defaultPageSize: int('default-page-size', 1),
		cacheSeconds: int('cache-seconds', 0),
		capacity: int('capacity', 0),
		latencyMs: int('latency-ms', 0),
		retryAfterSeconds: int('retry-after', 0),
		quota: { ...parseQuota(values.quota), headers: values['quota-headers'] },
		bucket: parseBucket(values.bucket),
		refusalStatus: oneOf('refusal-status', REFUSAL_STATUSES),
		parentPid: values['parent-pid'] === undefined ? null : int('parent-pid', 1),
		quiet: values.quiet,
	};
}

function start(settings) {
	const { server } = createReferenceService(settings);
	if (!settings.quiet) logRequests(server);
	let stopping = false;
	const shutdown = () => {
		// A second signal while closing is ignored, not the default (killed by the signal).
		if (stopping) return;
		stopping = true;
		server.close(() => process.exit(0));
		// Keep-alive and delayed (fault) connections would hold close() open.
		server.closeAllConnections();
	};
	process.on('SIGTERM', shutdown);
	process.on('SIGINT', shutdown);
	if (settings.parentPid !== null) watchParent(settings.parentPid, shutdown);
	server.on('error', (error) => {
		process.stderr.write(`sound-search sandbox: ${error.message}\n`);
		process.exit(1);
	});
	server.listen(settings.port, settings.host, () => {
		const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
		const host = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
		const url = `http://${host}:${port}`;
		const line = { event: 'listening', url, pid: process.pid, keys: settings.keys };
		process.stdout.write(`${JSON.stringify(line)}\n`);
		process.stderr.write(`sound-search sandbox listening on ${url} (pid ${process.pid})\n`);
	});
}

/** Method, path, status and credits of each request; never the Authorization header. */
function logRequests(server) {
	server.on('request', (req, res) => {
		// 'close' also fires when a fault drops the connection, which 'finish' would miss.
		res.on('close', () => {
			const path = (req.url ?? '').split('?')[0];
			const status = res.headersSent ? res.statusCode : 'dropped';
			const credits = res.getHeader('X-Credits-Charged') ?? '-';
			process.stderr.write(`${req.method} ${path} ${status} credits=${credits}\n`);
		});
	});
}

/** Exits when the parent process is gone, so a crashed test run leaves no service behind. */
function watchParent(parentPid, shutdown) {
	const timer = setInterval(() => {
		try {
			process.kill(parentPid, 0);
		} catch (error) {
			// EPERM means the process exists but belongs to someone else: still alive.
			if (error.code === 'ESRCH') shutdown();
		}
	}, 1000);
	timer.unref();
}

if (require.main === module) {
	let settings;
	try {
		settings = readSettings(process.argv.slice(2), process.env);
	} catch (error) {
		process.stderr.write(`${error.message}\n${USAGE}\n`);
		process.exit(2);
	}
	if (settings.help) process.stdout.write(`${USAGE}\n`);
	else start(settings);
}

module.exports = { readSettings };
