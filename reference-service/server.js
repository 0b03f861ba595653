#!/usr/bin/env node
'use strict';

// CLI entry of the sandbox. Prints one JSON "listening" line on stdout (machine-readable, read by
// test/harness/referenceService.js), logs to stderr, and never outlives its parent when asked.

const { parseArgs } = require('node:util');
const { createReferenceService } = require('./service');

const USAGE = `Usage: node reference-service/server.js [--port 0] [--host 127.0.0.1] [--keys k1,k2]
  [--revoked-keys k3] [--max-page-size 50] [--default-page-size 20] [--cache-seconds 60]
  [--capacity 0] [--latency-ms 0] [--retry-after 1] [--parent-pid N] [--quiet]
Env fallbacks: SOUND_SEARCH_SANDBOX_PORT, SOUND_SEARCH_SANDBOX_KEYS`;

const OPTION_SPEC = {
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
	'parent-pid': { type: 'string' },
	quiet: { type: 'boolean', default: false },
	help: { type: 'boolean', default: false },
};

/**
 * Parses argv and the environment into settings.
 * @param {string[]} argv arguments after the script name
 * @param {NodeJS.ProcessEnv} env
 * @returns {object} settings, or {help: true}
 * @throws {Error} on an unknown option or a bad value
 */
function readSettings(argv, env) {
	const { values } = parseArgs({ args: argv, options: OPTION_SPEC, strict: true });
	if (values.help) return { help: true };
	const parentPid = values['parent-pid'];
	return {
		port: integer('port', values.port ?? env.SOUND_SEARCH_SANDBOX_PORT ?? '0', 0),
		host: values.host,
		keys: list(values.keys ?? env.SOUND_SEARCH_SANDBOX_KEYS ?? 'sandbox-key'),
		revokedKeys: list(values['revoked-keys']),
		maxPageSize: integer('max-page-size', values['max-page-size'], 1),
		defaultPageSize: integer('default-page-size', values['default-page-size'], 1),
		cacheSeconds: integer('cache-seconds', values['cache-seconds'], 0),
		capacity: integer('capacity', values.capacity, 0),
		latencyMs: integer('latency-ms', values['latency-ms'], 0),
		retryAfterSeconds: integer('retry-after', values['retry-after'], 0),
		parentPid: parentPid === undefined ? null : integer('parent-pid', parentPid, 1),
		quiet: values.quiet,
	};
}

function integer(name, text, min) {
	if (!/^\d+$/.test(text) || Number(text) < min) {
		throw new Error(`--${name} must be an integer >= ${min} (got "${text}")`);
	}
	return Number(text);
}

function list(text) {
	return text
		.split(',')
		.map((item) => item.trim())
		.filter(Boolean);
}

/**
 * Logs method, path, status and credits of each request. Never the Authorization header.
 * @param {import('node:http').Server} server
 */
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

/**
 * Exits when the parent process is gone, so a crashed test run leaves no sandbox behind.
 * @param {number} parentPid
 * @param {() => void} shutdown
 */
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

function urlFor(host, port) {
	return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

function start(settings) {
	const { server } = createReferenceService(settings);
	if (!settings.quiet) logRequests(server);
	let stopping = false;
	const shutdown = () => {
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
		const url = urlFor(settings.host, server.address().port);
		const line = { event: 'listening', url, pid: process.pid, keys: settings.keys };
		process.stdout.write(`${JSON.stringify(line)}\n`);
		process.stderr.write(`sound-search sandbox listening on ${url} (pid ${process.pid})\n`);
	});
}

function main() {
	let settings;
	try {
		settings = readSettings(process.argv.slice(2), process.env);
	} catch (error) {
		process.stderr.write(`${error.message}\n${USAGE}\n`);
		process.exit(2);
	}
	if (settings.help) {
		process.stdout.write(`${USAGE}\n`);
		return;
	}
	start(settings);
}

if (require.main === module) main();

module.exports = { readSettings };
