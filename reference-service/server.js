#!/usr/bin/env node
'use strict';

// CLI of the reference service. Prints one JSON "listening" line on stdout (its port is the one
// the system picked for --port 0: test/harness/referenceService.js and the commands test read it),
// logs to stderr, and never outlives its parent when asked.

const { parseArgs } = require('node:util');
const { createReferenceService } = require('./service');

const USAGE = `Usage: node reference-service/server.js [--port 0] [--host 127.0.0.1] [--keys k1,k2]
  [--revoked-keys k3] [--max-page-size 50] [--default-page-size 20] [--cache-seconds 60]
  [--capacity 0] [--latency-ms 0] [--retry-after 1] [--parent-pid N] [--quiet]
Env fallbacks: SOUND_SEARCH_SANDBOX_PORT, SOUND_SEARCH_SANDBOX_KEYS`;

/** Integer flags: [setting, default, minimum]. Port's default comes from the environment. */
const INTEGERS = {
	port: ['port', undefined, 0],
	'max-page-size': ['maxPageSize', '50', 1],
	'default-page-size': ['defaultPageSize', '20', 1],
	'cache-seconds': ['cacheSeconds', '60', 0],
	capacity: ['capacity', '0', 0],
	'latency-ms': ['latencyMs', '0', 0],
	'retry-after': ['retryAfterSeconds', '1', 0],
	'parent-pid': ['parentPid', undefined, 1],
};

/** @type {import('node:util').ParseArgsOptionsConfig} */
const OPTIONS = {
	...Object.fromEntries(
		Object.entries(INTEGERS).map(([flag, [, fallback]]) => [
			flag,
			{ type: 'string', default: fallback },
		]),
	),
	host: { type: 'string', default: '127.0.0.1' },
	keys: { type: 'string' },
	'revoked-keys': { type: 'string', default: '' },
	quiet: { type: 'boolean', default: false },
	help: { type: 'boolean', default: false },
};

/**
 * @param {string[]} argv arguments after the script name
 * @param {NodeJS.ProcessEnv} env
 * @returns {Record<string, any>} the settings, or {help: true}
 * @throws {Error} on an unknown option or a bad value
 */
function readSettings(argv, env) {
	const { values } = parseArgs({ args: argv, options: OPTIONS, strict: true });
	if (values.help) return { help: true };
	values.port ??= env.SOUND_SEARCH_SANDBOX_PORT ?? '0';
	const settings = {
		host: values.host,
		keys: list(values.keys ?? env.SOUND_SEARCH_SANDBOX_KEYS ?? 'sandbox-key'),
		revokedKeys: list(values['revoked-keys']),
		parentPid: null,
		quiet: values.quiet,
	};
	for (const [flag, [name, , min]] of Object.entries(INTEGERS)) {
		const text = values[flag];
		if (text === undefined) continue;
		if (!/^\d+$/.test(text) || Number(text) < min) {
			throw new Error(`--${flag} must be an integer >= ${min} (got "${text}")`);
		}
		settings[name] = Number(text);
	}
	return settings;
}

const list = (text) =>
	text
		.split(',')
		.map((item) => item.trim())
		.filter(Boolean);

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

function main() {
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

if (require.main === module) main();

module.exports = { readSettings };
