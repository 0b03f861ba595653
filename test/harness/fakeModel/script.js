'use strict';

// What the fake model says: one tool call first, then a final text built from the tool's result
// (the whole script is described in server.js).

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

/** @param {unknown} value @returns {value is Record<string, any>} */
function isObject(value) {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The scripted assistant message: a tool call first, a final text once a tool result is there.
 * @param {unknown[]} messages
 * @param {{ query: string, toolName: string }} settings
 * @param {() => string} callId the id of a new tool call (counted only when one is made)
 * @returns {{ role: 'assistant', content: string | null, tool_calls?: object[] }}
 */
function nextMessage(messages, settings, callId) {
	const toolMessages = messages.filter((m) => isObject(m) && m.role === 'tool');
	if (toolMessages.length === 0) {
		return {
			role: 'assistant',
			content: null,
			tool_calls: [
				{
					id: callId(),
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

module.exports = { finalText, nextMessage, completion, streamCompletion, isObject };
