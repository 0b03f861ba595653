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
//   node test/harness/fakeOpenAi.js [--port 0] [--host 127.0.0.1] [--api-key K] [--query Q]
//     [--tool-name Sound_Search] [--parent-pid N]
// or from a test:
//   const { startFakeOpenAi } = require('./fakeOpenAi');
//   const model = await startFakeOpenAi({ apiKey: 'k', query: 'rainy lofi' });
//   model.url (base URL ending in /v1, what the openAiApi credential's `url` takes), model.pid,
//   await model.requests(), await model.reset(), await model.stop()
// Control endpoints (no auth): GET /__fake/requests, POST /__fake/reset, GET /healthz.

const http = require('node:http');
const { spawn } = require('node:child_process');
const { parseArgs } = require('node:util');

const START_TIMEOUT_MS = 10_000;
const KILL_GRACE_MS = 3_000;
const STDERR_TAIL_CHARS = 4_000;
const MAX_BODY_BYTES = 8 * 1024 * 1024;

// ---------------------------------------------------------------------------------------------
// The server (runs in the child process)
// ---------------------------------------------------------------------------------------------

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
			requests = [];
			seq = 0;
			callSeq = 0;
			return sendJson(res, 200, { ok: true });
		}

		/** @type {unknown} */
		let body = null;
		if (raw !== '') {
			try {
				body = JSON.parse(raw);
			} catch {
				body = raw;
			}
		}
		const authorization = req.headers.authorization ?? null;
		const record = {
			seq: ++seq,
			method: req.method,
			path,
			authorization,
			body,
			status: 0,
			answer: null,
		};
		requests.push(record);
		/** @param {number} status @param {unknown} answer */
		const reply = (status, answer) => {
			record.status = status;
			record.answer = /** @type {any} */ (answer);
			sendJson(res, status, answer);
		};

		if (settings.apiKey !== null && authorization !== `Bearer ${settings.apiKey}`) {
			return reply(
				401,
				openAiError('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key'),
			);
		}
		if (path === '/v1/models' && req.method === 'GET') {
			return reply(200, {
				object: 'list',
				data: [{ id: 'gpt-4.1-mini', object: 'model', created: 1_700_000_000, owned_by: 'fake' }],
			});
		}
		if (path === '/v1/chat/completions' && req.method === 'POST') {
			if (!isObject(body) || !Array.isArray(body.messages)) {
				return reply(400, openAiError('messages must be an array', 'invalid_request_error'));
			}
			const message = nextMessage(body.messages);
			const model = typeof body.model === 'string' ? body.model : 'fake-model';
			if (body.stream === true) {
				record.status = 200;
				record.answer = /** @type {any} */ ({ stream: true, message });
				return streamCompletion(res, model, message);
			}
			return reply(200, completion(model, message));
		}
		return reply(
			404,
			openAiError(
				`The fake OpenAI server implements POST /v1/chat/completions and GET /v1/models only, not ${req.method} ${path} (set the OpenAI Chat Model's "Use Responses API" off)`,
				'invalid_request_error',
				'unknown_url',
			),
		);
	}

	/**
	 * The scripted assistant message: a tool call first, a final text once a tool result is there.
	 * @param {unknown[]} messages
	 * @returns {{ role: 'assistant', content: string | null, tool_calls?: object[] }}
	 */
	function nextMessage(messages) {
		const toolMessages = messages.filter((m) => isObject(m) && m.role === 'tool');
		if (toolMessages.length === 0) {
			return {
				role: 'assistant',
				content: null,
				tool_calls: [
					{
						id: `call_fake_${++callSeq}`,
						type: 'function',
						function: {
							name: settings.toolName,
							arguments: JSON.stringify({ query: settings.query }),
						},
					},
				],
			};
		}
		const last = /** @type {{ content?: unknown }} */ (toolMessages[toolMessages.length - 1]);
		return { role: 'assistant', content: finalText(settings.query, last.content) };
	}
}

/**
 * "Found N sounds for "q". The first one is "title"." from a tool result (a JSON string of the
 * tool's items, in whatever wrapping: the sounds are the objects that have a `title`).
 * @param {string} query
 * @param {unknown} content
 * @returns {string}
 */
function finalText(query, content) {
	const text = Array.isArray(content)
		? content
				.map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : ''))
				.join('')
		: String(content ?? '');
	/** @type {unknown} */
	let parsed = text;
	try {
		parsed = JSON.parse(text);
	} catch {
		// not JSON: no sounds found in it
	}
	const sounds = findSounds(parsed);
	if (sounds.length === 0) return `I found no sounds for "${query}".`;
	return `Found ${sounds.length} sounds for "${query}". The first one is "${sounds[0].title}".`;
}

/**
 * The objects with a string `title`, depth first, not descending into them.
 * @param {unknown} value
 * @returns {{ title: string }[]}
 */
function findSounds(value) {
	/** @type {{ title: string }[]} */
	const found = [];
	/** @param {unknown} node */
	const walk = (node) => {
		if (typeof node === 'string' && /^[[{]/.test(node.trim())) {
			try {
				walk(JSON.parse(node));
			} catch {
				// a plain string
			}
			return;
		}
		if (Array.isArray(node)) return node.forEach(walk);
		if (!isObject(node)) return;
		if (typeof node.title === 'string')
			return void found.push(/** @type {{ title: string }} */ (node));
		Object.values(node).forEach(walk);
	};
	walk(value);
	return found;
}

/**
 * @param {string} model
 * @param {{ role: string, content: string | null, tool_calls?: object[] }} message
 */
function completion(model, message) {
	return {
		id: `chatcmpl-fake-${Date.now().toString(36)}`,
		object: 'chat.completion',
		created: Math.floor(Date.now() / 1000),
		model,
		choices: [
			{
				index: 0,
				message,
				logprobs: null,
				finish_reason: message.tool_calls ? 'tool_calls' : 'stop',
			},
		],
		usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
	};
}

/**
 * The same message as server-sent events (one delta chunk, a finish chunk, [DONE]).
 * @param {import('node:http').ServerResponse} res
 * @param {string} model
 * @param {{ role: string, content: string | null, tool_calls?: object[] }} message
 */
function streamCompletion(res, model, message) {
	const base = {
		id: `chatcmpl-fake-${Date.now().toString(36)}`,
		object: 'chat.completion.chunk',
		created: Math.floor(Date.now() / 1000),
		model,
	};
	const delta = message.tool_calls
		? {
				role: 'assistant',
				content: null,
				tool_calls: message.tool_calls.map((call, index) => ({ index, ...call })),
			}
		: { role: 'assistant', content: message.content };
	res.writeHead(200, {
		'content-type': 'text/event-stream',
		'cache-control': 'no-cache',
		connection: 'keep-alive',
	});
	const send = (/** @type {unknown} */ chunk) => res.write(`data: ${JSON.stringify(chunk)}\n\n`);
	send({ ...base, choices: [{ index: 0, delta, finish_reason: null }] });
	send({
		...base,
		choices: [{ index: 0, delta: {}, finish_reason: message.tool_calls ? 'tool_calls' : 'stop' }],
		usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
	});
	res.end('data: [DONE]\n\n');
}

/**
 * @param {string} message
 * @param {string} type
 * @param {string | null} [code]
 */
function openAiError(message, type, code = null) {
	return { error: { message, type, param: null, code } };
}

/** @param {unknown} value @returns {value is Record<string, any>} */
function isObject(value) {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
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

// ---------------------------------------------------------------------------------------------
// The harness side (runs in the test process)
// ---------------------------------------------------------------------------------------------

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
	const args = [__filename, '--port', '0', '--parent-pid', String(process.pid)];
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

if (require.main === module) main();

module.exports = { startFakeOpenAi, createFakeOpenAiServer, finalText };
