'use strict';

// The fake OpenAI model of the real-n8n suites (server.js, its script in script.js), started as
// a child process on 127.0.0.1 from a test; it exits by itself if the test process dies.

const path = require('node:path');
const { startListeningChild } = require('../listeningChild');
const { createFakeOpenAiServer } = require('./server');
const { finalText } = require('./script');

const SERVER_JS = path.join(__dirname, 'server.js');

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
	/** @type {string[]} */
	const args = [];
	if (options.apiKey !== undefined) args.push('--api-key', options.apiKey);
	if (options.query !== undefined) args.push('--query', options.query);
	if (options.toolName !== undefined) args.push('--tool-name', options.toolName);
	if (options.host !== undefined) args.push('--host', options.host);
	const { line, stop, stderr } = await startListeningChild(SERVER_JS, args, 'fake OpenAI');

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
		stderr,
	};
}

module.exports = { startFakeOpenAi, createFakeOpenAiServer, finalText };
