'use strict';

// A tiny OpenAI-compatible server that plays the model of an AI Agent, for the real-n8n suites.
// Built-ins only. It implements what n8n's OpenAI Chat Model (lmChatOpenAi v1.3) sends with
// `responsesApiEnabled: false`: POST /v1/chat/completions (JSON, or server-sent events when the
// body asks for `stream: true`), plus GET /v1/models (the editor's model list and the openAiApi
// credential test). Every other /v1 path answers 404 with an OpenAI-shaped error that says so
// (n8n's default, the Responses API at POST /v1/responses, is deliberately not played).
//
// The script: a completion whose messages carry no `role: "tool"` message is answered with ONE
// tool call of the configured tool (default `Sound_Search`) with `{"query": <configured query>}`;
// a completion that carries a tool result is answered with a final text built from that result:
//   Found <count> sounds for "<query>". The first one is "<title>".
// (count = the number of sounds in the tool result, title = the first sound's title). Every request
// is recorded (method, path, authorization header, parsed body) for the test to assert on.
//
// Run as a script (a child process; prints one JSON "listening" line on stdout first):
//   node test/harness/fakeModel/server.js [--port 0] [--host 127.0.0.1] [--api-key K] [--query Q]
//     [--tool-name Sound_Search] [--parent-pid N]
// or from a test:
//   const { startFakeOpenAi } = require('./fakeModel');
//   const model = await startFakeOpenAi({ apiKey: 'k', query: 'rainy lofi' });
//   model.url (base URL ending in /v1, what the openAiApi credential's `url` takes), model.pid,
//   await model.requests(), await model.reset(), await model.stop()
// Control endpoints (no auth): GET /__fake/requests, POST /__fake/reset, GET /healthz.

const http = require('node:http');
const { parseArgs } = require('node:util');
const { completion, streamCompletion, isObject, nextMessage } = require('./script');

const MAX_BODY_BYTES = 8 * 1024 * 1024;

/**
 * @typedef {object} FakeSettings
 * @property {string | null} apiKey when set, other Bearer keys get 401
 * @property {string} query the query the "model" asks the tool for
 * @property {string} toolName the tool it calls
 */

/**
 * @param {FakeSettings} settings
 * @returns {import('node:http').Server}
 */
function createFakeOpenAiServer(settings) {
	/** @type {object[]} */
	let requests = [];
	let seq = 0;
	let callSeq = 0;

	return http.createServer((req, res) => {
		readBody(req).then(
			(raw) => handle(req, res, raw),
			(error) => sendJson(res, 400, openAiError(String(error.message), 'invalid_request_error')),
		);
	});

	/**
	 * @param {import('node:http').IncomingMessage} req
	 * @param {import('node:http').ServerResponse} res
	 * @param {string} raw
	 */
	function handle(req, res, raw) {
		const path = (req.url ?? '').split('?')[0];
		if (path === '/healthz') return sendJson(res, 200, { ok: true });
		if (path === '/__fake/requests' && req.method === 'GET')
			return sendJson(res, 200, { requests });
		if (path === '/__fake/reset' && req.method === 'POST') {
			[requests, seq, callSeq] = [[], 0, 0];
			return sendJson(res, 200, { ok: true });
		}
		const body = parseBody(raw);
		const authorization = req.headers.authorization ?? null;
		const { status, answer, stream } = respond(String(req.method), path, body, authorization);
		requests.push({ seq: ++seq, method: req.method, path, authorization, body, status, answer });
		if (stream) return streamCompletion(res, stream.model, stream.message);
		return sendJson(res, status, answer);
	}

	/**
	 * What the fake answers a request (recorded as it is; a stream is recorded as its message).
	 * @param {string} method
	 * @param {string} path
	 * @param {any} body
	 * @param {string | null} authorization
	 * @returns {{ status: number, answer: unknown, stream?: { model: string, message: any } }}
	 */
	function respond(method, path, body, authorization) {
		if (settings.apiKey !== null && authorization !== `Bearer ${settings.apiKey}`) {
			const error = openAiError(
				'Incorrect API key provided.',
				'invalid_request_error',
				'invalid_api_key',
			);
			return { status: 401, answer: error };
		}
		if (path === '/v1/models' && method === 'GET') {
			const model = {
				id: 'gpt-4.1-mini',
				object: 'model',
				created: 1_700_000_000,
				owned_by: 'fake',
			};
			return { status: 200, answer: { object: 'list', data: [model] } };
		}
		if (path !== '/v1/chat/completions' || method !== 'POST') {
			const what = `The fake OpenAI server implements POST /v1/chat/completions and GET /v1/models only, not ${method} ${path} (set the OpenAI Chat Model's "Use Responses API" off)`;
			return { status: 404, answer: openAiError(what, 'invalid_request_error', 'unknown_url') };
		}
		if (!isObject(body) || !Array.isArray(body.messages))
			return {
				status: 400,
				answer: openAiError('messages must be an array', 'invalid_request_error'),
			};
		const message = nextMessage(body.messages, settings, () => `call_fake_${++callSeq}`);
		const model = typeof body.model === 'string' ? body.model : 'fake-model';
		if (body.stream === true)
			return { status: 200, answer: { stream: true, message }, stream: { model, message } };
		return { status: 200, answer: completion(model, message) };
	}
}

/** @param {string} raw a request body: JSON when it parses, else the text */
function parseBody(raw) {
	if (raw === '') return null;
	try {
		return JSON.parse(raw);
	} catch {
		return raw;
	}
}

/**
 * @param {string} message
 * @param {string} type
 * @param {string | null} [code]
 */
function openAiError(message, type, code = null) {
	return { error: { message, type, param: null, code } };
}

/**
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {unknown} body
 */
function sendJson(res, status, body) {
	const text = JSON.stringify(body);
	res.writeHead(status, {
		'content-type': 'application/json',
		'content-length': Buffer.byteLength(text),
	});
	res.end(text);
}

/**
 * @param {import('node:http').IncomingMessage} req
 * @returns {Promise<string>}
 */
function readBody(req) {
	return new Promise((resolve, reject) => {
		/** @type {Buffer[]} */
		const chunks = [];
		let size = 0;
		req.on('data', (chunk) => {
			size += chunk.length;
			if (size > MAX_BODY_BYTES) {
				reject(new Error('request body too large'));
				req.destroy();
				return;
			}
			chunks.push(chunk);
		});
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', reject);
	});
}

/** The CLI entry: listen, print the listening line, exit with the parent or on SIGTERM/SIGINT. */
function main() {
	const { values } = parseArgs({
		args: process.argv.slice(2),
		options: {
			port: { type: 'string', default: '0' },
			host: { type: 'string', default: '127.0.0.1' },
			'api-key': { type: 'string' },
			query: { type: 'string', default: 'rainy lofi' },
			'tool-name': { type: 'string', default: 'Sound_Search' },
			'parent-pid': { type: 'string' },
		},
		strict: true,
	});
	const server = createFakeOpenAiServer({
		apiKey: values['api-key'] ?? null,
		query: values.query,
		toolName: values['tool-name'],
	});
	const stop = () => server.close(() => process.exit(0));
	process.on('SIGTERM', stop);
	process.on('SIGINT', stop);
	if (values['parent-pid'] !== undefined) {
		const parentPid = Number(values['parent-pid']);
		setInterval(() => {
			try {
				process.kill(parentPid, 0);
			} catch {
				process.exit(0);
			}
		}, 1000).unref();
	}
	server.listen(Number(values.port), values.host, () => {
		const address = /** @type {import('node:net').AddressInfo} */ (server.address());
		const origin = `http://${values.host}:${address.port}`;
		process.stdout.write(
			`${JSON.stringify({ event: 'listening', url: `${origin}/v1`, origin, pid: process.pid })}\n`,
		);
		process.stderr.write(`fake OpenAI listening on ${origin}/v1\n`);
	});
}

if (require.main === module) main();

module.exports = { createFakeOpenAiServer };
