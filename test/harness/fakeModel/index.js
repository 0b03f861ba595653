'use strict';

// The fake OpenAI model of the real-n8n suites (server.js, its script in script.js), started as
// a child process on 127.0.0.1 from a test; it exits by itself if the test process dies.

const path = require('node:path');
const { spawn } = require('node:child_process');
const { createFakeOpenAiServer } = require('./server');
const { finalText } = require('./script');

const SERVER_JS = path.join(__dirname, 'server.js');
const START_TIMEOUT_MS = 10_000;
const KILL_GRACE_MS = 3_000;
const STDERR_TAIL_CHARS = 4_000;

/**
 * @typedef {object} FakeOpenAiRequest
 * @property {number} seq
 * @property {string} method
 * @property {string} path e.g. /v1/chat/completions
 * @property {string | null} authorization
 * @property {any} body the parsed JSON body
 * @property {number} status
 * @property {any} answer what was sent back ({ stream: true, message } for a streamed one)
 */

/**
 * @typedef {object} FakeOpenAi
 * @property {string} url base URL ending in /v1 (the openAiApi credential's `url`)
 * @property {string} origin
 * @property {number} pid
 * @property {() => Promise<FakeOpenAiRequest[]>} requests
 * @property {() => Promise<void>} reset
 * @property {() => Promise<{ code: number | null, signal: string | null }>} stop SIGTERM, then
 *   SIGKILL after 3 s; safe to call twice
 * @property {() => string} stderr
 */

/**
 * Starts the fake as a child process on 127.0.0.1 (it exits by itself if this process dies).
 * @param {{ apiKey?: string, query?: string, toolName?: string, host?: string }} [options]
 * @returns {Promise<FakeOpenAi>}
 */
async function startFakeOpenAi(options = {}) {
	const args = [SERVER_JS, '--port', '0', '--parent-pid', String(process.pid)];
	if (options.apiKey !== undefined) args.push('--api-key', options.apiKey);
	if (options.query !== undefined) args.push('--query', options.query);
	if (options.toolName !== undefined) args.push('--tool-name', options.toolName);
	if (options.host !== undefined) args.push('--host', options.host);
	const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
	/** @type {Promise<{ code: number | null, signal: string | null }>} */
	const exited = new Promise((resolve) =>
		child.once('exit', (code, signal) => resolve({ code, signal })),
	);
	let stderr = '';
	child.stderr
		.setEncoding('utf8')
		.on('data', (chunk) => (stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS)));

	/** @type {Promise<{ code: number | null, signal: string | null }> | undefined} */
	let stopping;
	const stop = () => {
		stopping ??= (async () => {
			if (child.exitCode !== null || child.signalCode !== null) return exited;
			signal(/** @type {number} */ (child.pid), 'SIGTERM');
			const timer = setTimeout(
				() => signal(/** @type {number} */ (child.pid), 'SIGKILL'),
				KILL_GRACE_MS,
			);
			try {
				return await exited;
			} finally {
				clearTimeout(timer);
			}
		})();
		return stopping;
	};

	/** @type {{ url: string, origin: string, pid: number }} */
	let line;
	try {
		line = await new Promise((resolve, reject) => {
			const timer = setTimeout(
				() => reject(new Error(`fake OpenAI did not start in ${START_TIMEOUT_MS} ms\n${stderr}`)),
				START_TIMEOUT_MS,
			);
			void exited.then(({ code, signal: sig }) => {
				clearTimeout(timer);
				reject(new Error(`fake OpenAI exited early (code ${code}, signal ${sig})\n${stderr}`));
			});
			let buffered = '';
			child.stdout.setEncoding('utf8').on('data', (chunk) => {
				buffered += chunk;
				const newline = buffered.indexOf('\n');
				if (newline < 0) return;
				clearTimeout(timer);
				try {
					resolve(JSON.parse(buffered.slice(0, newline)));
				} catch {
					reject(new Error(`fake OpenAI: unexpected first line ${buffered.slice(0, newline)}`));
				}
			});
		});
	} catch (error) {
		await stop();
		throw error;
	}

	/** @param {string} method @param {string} route */
	const control = async (method, route) => {
		const response = await fetch(line.origin + route, { method });
		if (!response.ok) throw new Error(`fake OpenAI ${method} ${route}: ${response.status}`);
		return response.json();
	};
	return {
		url: line.url,
		origin: line.origin,
		pid: line.pid,
		requests: async () => /** @type {any} */ (await control('GET', '/__fake/requests')).requests,
		reset: async () => void (await control('POST', '/__fake/reset')),
		stop,
		stderr: () => stderr,
	};
}

/** @param {number} pid @param {NodeJS.Signals} name */
function signal(pid, name) {
	try {
		process.kill(pid, name);
	} catch (error) {
		if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'ESRCH') throw error;
	}
}
module.exports = { startFakeOpenAi, createFakeOpenAiServer, finalText };
