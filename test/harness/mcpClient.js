'use strict';

// The official MCP SDK client (@modelcontextprotocol/sdk) on the transport n8n's MCP Server
// Trigger serves from version 2 on: streamable HTTP at /mcp/<path> of a published workflow.

const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const {
	StreamableHTTPClientTransport,
} = require('@modelcontextprotocol/sdk/client/streamableHttp.js');

/** The tool name n8n gives the "Sound Search" node (characters outside [a-zA-Z0-9_-] become _). */
const TOOL = 'Sound_Search';

/**
 * A connected client, and every text n8n sent it (a test looks for the API key in all of it).
 * `token`: sent as `Authorization: Bearer <token>` on every request.
 * @param {string} url @param {{ token?: string }} [auth]
 */
async function connectMcp(url, { token } = {}) {
	const received = /** @type {string[]} */ ([]);
	/** @type {typeof fetch} */
	const recordingFetch = async (input, init) => {
		const response = await fetch(input, init);
		if (!response.body) return response;
		const [forClient, forRecord] = response.body.tee();
		void (async () => {
			const decoder = new TextDecoder();
			for await (const chunk of forRecord) received.push(decoder.decode(chunk, { stream: true }));
		})().catch(() => {});
		const { status, statusText, headers } = response;
		return new Response(forClient, { status, statusText, headers });
	};
	const requestInit = token === undefined ? {} : { headers: { Authorization: `Bearer ${token}` } };
	const transport = new StreamableHTTPClientTransport(new URL(url), {
		fetch: recordingFetch,
		requestInit,
	});
	const client = new Client({ name: 'sound-search-test', version: '1.0.0' });
	await client.connect(transport);
	return { client, received };
}

/**
 * One call of the Sound Search tool: its text (answer or error) and, when no error, the sounds.
 * @param {Client} client @param {{ query: string, platform: string, limit: number }} args
 */
async function callSoundSearch(client, args) {
	const result = /** @type {any} */ (await client.callTool({ name: TOOL, arguments: args }));
	const text = result.content.map((/** @type {any} */ c) => c.text).join('\n');
	const isError = result.isError === true;
	return { isError, text, sounds: /** @type {any[]} */ (isError ? [] : JSON.parse(text)) };
}

module.exports = { TOOL, connectMcp, callSoundSearch };
