'use strict';

// The fake OpenAI model of the real-n8n suites (server.js), a child process on 127.0.0.1.

const path = require('node:path');
const { startListeningChild } = require('../listeningChild');

/**
 * @param {{ apiKey?: string, query?: string, toolName?: string, port?: number }} [options] the
 *   key it accepts (any if unset), the query it asks the tool for, the tool it calls, its port
 *   (any free one if unset)
 */
async function startFakeOpenAi({ apiKey, query, toolName, port } = {}) {
	const flags = {
		'--api-key': apiKey,
		'--query': query,
		'--tool-name': toolName,
		'--port': port && String(port),
	};
	const args = Object.entries(flags).flatMap(([flag, value]) => (value ? [flag, value] : []));
	const server = path.join(__dirname, 'server.js');
	const { line, stop, stderr, exited } = await startListeningChild(server, args, 'fake OpenAI');
	/** @param {string} route @param {string} [method] */
	const control = async (route, method = 'GET') => {
		const response = await fetch(new URL(route, line.url), { method });
		if (!response.ok) throw new Error(`fake OpenAI ${method} ${route}: ${response.status}`);
		return /** @type {any} */ (await response.json());
	};
	/** Every request so far: { seq, method, path, authorization, body, status, answer }. */
	const requests = async () => /** @type {any[]} */ ((await control('/__fake/requests')).requests);
	/** Forgets the requests so far (before each test). */
	const reset = async () => void (await control('/__fake/reset', 'POST'));
	/** url: the base URL ending in /v1 (the openAiApi credential's `url`) */
	return {
		...{ url: /** @type {string} */ (line.url), pid: line.pid, requests, reset },
		...{ stop, stderr, exited },
	};
}

module.exports = { startFakeOpenAi };
