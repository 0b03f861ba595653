'use strict';

// examples/mcp-sound-search.json as an MCP client meets it: imported with its two credentials set
// (the Sound Search key, and the Bearer token its trigger requires, made here as a user makes it
// in the editor), published, and reached with the official TypeScript MCP SDK client over
// streamable HTTP (the transport the MCP Server Trigger serves from version 2 on, at
// /mcp/<path>), with the token. No hand-written protocol: what a desktop assistant or an agent SDK
// would send. Each check reads the reference service's ledger too. The example stays published
// for the tests of this describe only.

const crypto = require('node:crypto');
const n8n = require('../../harness/n8n');
const { TOOL, connectMcp, callSoundSearch } = require('../../harness/mcpClient');
const { page, bySearch } = require('../ledger');
const { KEYS } = require('../scenario');

const EXAMPLE = 'examples/mcp-sound-search.json';
const TRIGGER = 'MCP Server Trigger';
/** A tools/call as any MCP client posts it; refused before n8n reads it when the token is wrong. */
const TOOL_CALL = {
	jsonrpc: '2.0',
	id: 1,
	method: 'tools/call',
	params: { name: TOOL, arguments: { query: 'lofi', platform: 'shortvideo', limit: 5 } },
};
const NEWEST = '[newest n8n line only]';
/** @typedef {import('../scenario').E2eScenario} E2eScenario */

/** @param {E2eScenario} scenario */
function mcpServer(scenario) {
	/** @type {string} */ let workflowId;
	/** @type {string} */ let credentialId;
	/** @type {Awaited<ReturnType<typeof connectMcp>>} */ let mcp;
	const token = crypto.randomBytes(32).toString('base64url');
	/** @type {string} */ let url;

	beforeAll(async () => {
		// As a user imports it: the file as shipped (Bearer auth on), its credentials resolved, the
		// token's made in n8n first; then published.
		const credential = { name: 'MCP token (e2e)', type: 'httpBearerAuth', data: { token } };
		const created = await n8n.dataOf(scenario.rest, 'POST', '/rest/credentials', credential);
		credentialId = created.id;
		const workflow = scenario.workflow(EXAMPLE);
		const trigger = workflow.nodes.find((/** @type {any} */ n) => n.name === TRIGGER);
		expect(trigger.parameters.authentication).toBe('bearerAuth');
		expect(Object.keys(trigger.credentials)).toEqual(['httpBearerAuth']);
		trigger.credentials.httpBearerAuth = { id: credentialId, name: credential.name };
		({ id: workflowId } = await n8n.createWorkflowViaRest(scenario.rest, workflow));
		await n8n.activateWorkflow(scenario.rest, workflowId);
		url = `${scenario.server?.url}/mcp/sound-search`;
		await n8n.untilWebhookServed(url);
		mcp = await connectMcp(url, { token });
	});
	afterAll(async () => {
		await mcp?.client.close();
		if (workflowId) await n8n.deactivateWorkflow(scenario.rest, workflowId);
		if (credentialId)
			await n8n.dataOf(scenario.rest, 'DELETE', `/rest/credentials/${credentialId}`);
	});
	afterEach(() => {
		// Everything the client got, the initialize answer and the tool list included.
		expect(mcp.received.length).toBeGreaterThan(0);
		for (const message of mcp.received) expect(message).not.toContain(KEYS.sound);
	});

	test(`a client without the token, or with a wrong one, is refused (403) before any tool runs, and nothing is spent ${NEWEST}`, async () => {
		// n8n's Bearer check answers 403 "Authorization data is wrong!" to both.
		for (const authorization of [undefined, 'Bearer not-the-token', `Bearer ${token}x`]) {
			const answer = await fetch(url, {
				method: 'POST',
				headers: {
					'Content-Type': 'application/json',
					Accept: 'application/json, text/event-stream',
					...(authorization && { Authorization: authorization }),
				},
				body: JSON.stringify(TOOL_CALL),
			});
			expect([authorization, answer.status]).toEqual([authorization, 403]);
			expect(await answer.text()).not.toContain('lofi');
		}
		// The SDK client cannot even start a session.
		await expect(connectMcp(url)).rejects.toMatchObject({ code: 403 });
		await expect(connectMcp(url, { token: 'not-the-token' })).rejects.toMatchObject({ code: 403 });
		expect(await scenario.ledger()).toEqual([]);
	});

	test(`lists one tool, Sound_Search, described for a model (platforms, prices, limit, what comes back), at no cost ${NEWEST}`, async () => {
		const { tools } = await mcp.client.listTools();

		expect(tools.map((t) => t.name)).toEqual([TOOL]);
		for (const words of ['shortvideo 1 credit', 'photosocial 2', 'at most 4 credits', 'soundId'])
			expect(tools[0].description).toContain(words);
		const properties = Object.keys(tools[0].inputSchema.properties ?? {});
		expect(properties.sort()).toEqual(['limit', 'platform', 'query']);
		expect(await scenario.ledger()).toEqual([]);
	});

	test(`a call returns the sounds, the key sent to the service only ${NEWEST}`, async () => {
		const args = { query: 'rainy lofi', platform: 'photosocial', limit: 10 };
		const answer = await callSoundSearch(mcp.client, args);

		expect(answer.isError).toBe(false);
		const authorization = `Bearer ${KEYS.sound}`;
		expect(await scenario.ledger()).toEqual([
			page({ platform: 'photosocial', q: 'rainy lofi', limit: '10', items: 10, authorization }),
		]);
		expect(answer.sounds.map((s) => s.query)).toEqual(Array(10).fill('rainy lofi'));
	});

	test(`two calls at once each get their own sounds ${NEWEST}`, async () => {
		const [lofi, jazz] = await Promise.all([
			callSoundSearch(mcp.client, { query: 'lofi', platform: 'shortvideo', limit: 5 }),
			callSoundSearch(mcp.client, { query: 'jazz', platform: 'photosocial', limit: 5 }),
		]);

		expect(bySearch(await scenario.ledger())).toEqual([
			page({ platform: 'photosocial', q: 'jazz', limit: '5', items: 5 }),
			page({ platform: 'shortvideo', q: 'lofi', limit: '5', items: 5 }),
		]);
		const sources = (/** @type {any[]} */ sounds) => sounds.map((s) => [s.query, s.platform]);
		expect(sources(lofi.sounds)).toEqual(Array(5).fill(['lofi', 'shortvideo']));
		expect(sources(jazz.sounds)).toEqual(Array(5).fill(['jazz', 'photosocial']));
	});

	test(`a node error (an empty query) reaches the client as a tool error that says so, and no call is made ${NEWEST}`, async () => {
		const answer = await callSoundSearch(mcp.client, {
			query: '',
			platform: 'shortvideo',
			limit: 5,
		});

		expect(answer.isError).toBe(true);
		expect(answer.text).toMatch(/Query/);
		expect(answer.text).toContain('No request was sent and no credits were spent');
		expect(await scenario.ledger()).toEqual([]);
	});
}

module.exports = { mcpServer };
