'use strict';

// A fake OpenAI-compatible model for the AI Agent example (a child process of index.js): what n8n's
// OpenAI Chat Model (lmChatOpenAi v1.3, "Use Responses API" off) calls, POST /v1/chat/completions
// (JSON, or server-sent events for `stream: true`) and GET /v1/models; any other /v1 path answers
// an OpenAI-shaped 404 that says so. Messages without a tool result get ONE call of the tool
// (--tool-name) with {"query": <--query>}; with one, the answer is
//   Found <count> sounds for "<query>". The first one is "<title>".
// Every request is recorded: GET /__fake/requests, emptied by POST /__fake/reset.

const http = require('node:http');

const USAGE = { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 };

/** The sounds in a tool result (JSON in any wrapping): the objects with a string `title`. */
function findSounds(/** @type {any} */ value) {
	if (typeof value === 'string' && /^[[{]/.test(value.trim())) {
		try {
			return findSounds(JSON.parse(value));
		} catch {
			return []; // a plain string
		}
	}
	if (Array.isArray(value)) return value.flatMap(findSounds);
	if (value?.constructor !== Object) return []; // only plain objects, as JSON.parse makes them
	return typeof value.title === 'string' ? [value] : Object.values(value).flatMap(findSounds);
}

/** The final answer to a tool result (a string, or content parts with text). */
function finalText(/** @type {string} */ query, /** @type {unknown} */ content) {
	const parts = Array.isArray(content) ? content : [String(content ?? '')];
	const text = parts.map((part) => (typeof part === 'string' ? part : (part?.text ?? ''))).join('');
	const sounds = findSounds(text);
	if (sounds.length === 0) return `I found no sounds for "${query}".`;
	return `Found ${sounds.length} sounds for "${query}". The first one is "${sounds[0].title}".`;
}

/** The scripted assistant message: a tool call first, a final text once a tool result is there. */
function nextMessage(messages, { query, toolName }, callId) {
	const results = messages.filter((m) => m?.role === 'tool');
	if (results.length > 0) {
		return { role: 'assistant', content: finalText(query, results[results.length - 1].content) };
	}
	const call = { name: toolName, arguments: JSON.stringify({ query }) };
	return {
		role: 'assistant',
		content: null,
		tool_calls: [{ id: callId(), type: 'function', function: call }],
	};
}

/** Writes a completion as JSON, or as server-sent events (one delta, a finish chunk, [DONE]). */
function sendCompletion(res, model, message, stream) {
	const finish_reason = message.tool_calls ? 'tool_calls' : 'stop';
	const id = `chatcmpl-fake-${Date.now().toString(36)}`;
	const base = { id, created: Math.floor(Date.now() / 1000), model, usage: USAGE };
	if (!stream) {
		const choices = [{ index: 0, message, logprobs: null, finish_reason }];
		return sendJson(res, 200, { ...base, object: 'chat.completion', choices });
	}
	const toolCalls = message.tool_calls?.map((call, index) => ({ index, ...call }));
	const delta = { ...message, ...(toolCalls && { tool_calls: toolCalls }) };
	res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
	const send = (chunk) =>
		res.write(
			`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', ...chunk })}\n\n`,
		);
	send({ choices: [{ index: 0, delta, finish_reason: null }], usage: null });
	send({ choices: [{ index: 0, delta: {}, finish_reason }] });
	res.end('data: [DONE]\n\n');
}

function sendJson(res, status, body) {
	res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** @param {string} message @param {string | null} [code] */
const openAiError = (message, code = null) => ({
	error: { message, type: 'invalid_request_error', param: null, code },
});

/** What the fake answers (recorded as it is); `message` set for a completion. */
function respond({ method, path, body, authorization }, settings, callId) {
	if (settings.apiKey !== undefined && authorization !== `Bearer ${settings.apiKey}`) {
		return { status: 401, answer: openAiError('Incorrect API key provided.', 'invalid_api_key') };
	}
	if (path === '/v1/models' && method === 'GET') {
		const model = { id: 'gpt-4.1-mini', object: 'model', created: 1_700_000_000, owned_by: 'fake' };
		return { status: 200, answer: { object: 'list', data: [model] } };
	}
	if (path !== '/v1/chat/completions' || method !== 'POST') {
		const what = `The fake OpenAI server implements POST /v1/chat/completions and GET /v1/models only, not ${method} ${path} (set the OpenAI Chat Model's "Use Responses API" off)`;
		return { status: 404, answer: openAiError(what, 'unknown_url') };
	}
	if (!Array.isArray(body?.messages)) {
		return { status: 400, answer: openAiError('messages must be an array') };
	}
	const message = nextMessage(body.messages, settings, callId);
	return { status: 200, answer: { stream: body.stream === true, message }, message };
}

/** @param {{ apiKey?: string, query: string, toolName: string }} settings */
function createFakeOpenAiServer(settings) {
	/** @type {object[]} */
	const requests = [];
	let callSeq = 0;
	return http.createServer(async (req, res) => {
		let raw = '';
		for await (const chunk of req.setEncoding('utf8')) raw += chunk;
		const path = (req.url ?? '').split('?')[0];
		if (path === '/__fake/requests') return sendJson(res, 200, { requests });
		if (path === '/__fake/reset') {
			[requests.length, callSeq] = [0, 0];
			return sendJson(res, 200, { ok: true });
		}
		/** @type {any} */
		let body = raw === '' ? null : raw;
		try {
			body = JSON.parse(raw);
		} catch {
			// not JSON: recorded as text
		}
		const { method, headers } = req;
		const request = { method, path, authorization: headers.authorization ?? null, body };
		const { status, answer, message } = respond(request, settings, () => `call_fake_${++callSeq}`);
		requests.push({ seq: requests.length + 1, ...request, status, answer });
		if (!message) return sendJson(res, status, answer);
		const model = typeof body.model === 'string' ? body.model : 'fake-model';
		sendCompletion(res, model, message, body.stream === true);
	});
}

/** Listens, prints the listening line, exits with its parent (--parent-pid) or on SIGTERM/SIGINT. */
function main() {
	const argv = process.argv.slice(2);
	/** The last one counts (listeningChild.js puts --port 0 first). @param {string} name */
	const flag = (name) =>
		argv.includes(`--${name}`) ? argv[argv.lastIndexOf(`--${name}`) + 1] : undefined;
	const server = createFakeOpenAiServer({
		apiKey: flag('api-key'),
		query: flag('query') ?? 'rainy lofi',
		toolName: flag('tool-name') ?? 'Sound_Search',
	});
	const stop = () => server.close(() => process.exit(0));
	process.on('SIGTERM', stop).on('SIGINT', stop);
	setInterval(() => {
		try {
			process.kill(Number(flag('parent-pid')), 0);
		} catch {
			process.exit(0);
		}
	}, 1000).unref();
	server.listen(Number(flag('port') ?? 0), '127.0.0.1', () => {
		const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
		const url = `http://127.0.0.1:${port}/v1`;
		process.stdout.write(`${JSON.stringify({ event: 'listening', url, pid: process.pid })}\n`);
		process.stderr.write(`fake OpenAI listening on ${url}\n`);
	});
}

if (require.main === module) main();
