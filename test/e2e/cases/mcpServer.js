'use strict';

// examples/mcp-sound-search.json as an MCP client meets it: imported with only the credential
// set, published, and reached with the official TypeScript MCP SDK client over streamable HTTP
// (the transport the MCP Server Trigger serves from version 2 on, at /mcp/<path>). No hand-written
// protocol: what a desktop assistant or an agent SDK would send. Each check reads the reference
// service's ledger too. The example stays published for the tests of this describe only.

const n8n = require('../../harness/n8n');
const { TOOL, connectMcp, callSoundSearch } = require('../../harness/mcpClient');
const { page, onePageEach } = require('../ledger');
const { KEYS } = require('../scenario');
const { SIMPLIFIED_FIELDS: SIMPLIFIED } = require('../../harness/outputShape');

const EXAMPLE = 'examples/mcp-sound-search.json';
const NEWEST = '[newest n8n line only]';
/** @typedef {import('../scenario').E2eScenario} E2eScenario */

/** @param {E2eScenario} scenario */
function mcpServer(scenario) {
	/** @type {string} */ let workflowId;
	/** @type {Awaited<ReturnType<typeof connectMcp>>} */ let mcp;

	beforeAll(async () => {
		// As a user imports it: the file as shipped, only its credential resolved; then published.
		({ id: workflowId } = await n8n.createWorkflowViaRest(
			scenario.rest,
			scenario.workflow(EXAMPLE),
		));
		await n8n.activateWorkflow(scenario.rest, workflowId);
		const url = `${scenario.server?.url}/mcp/sound-search`;
		await n8n.untilWebhookServed(url);
		mcp = await connectMcp(url);
	});
	afterAll(async () => {
		await mcp?.client.close();
		if (workflowId) await n8n.deactivateWorkflow(scenario.rest, workflowId);
	});
	afterEach(() => {
		// Everything the client got, the initialize answer and the tool list included.
		expect(mcp.received.length).toBeGreaterThan(0);
		for (const message of mcp.received) expect(message).not.toContain(KEYS.sound);
	});

	test(`lists one tool, Sound_Search, described for a model (platforms, prices, limit, what comes back), at no cost ${NEWEST}`, async () => {
		const { tools } = await mcp.client.listTools();

		expect(tools.map((t) => t.name)).toEqual([TOOL]);
		const [tool] = tools;
		for (const words of ['shortvideo 1 credit', 'photosocial 2', 'at most 4 credits', 'soundId'])
			expect(tool.description).toContain(words);
		expect(Object.keys(tool.inputSchema.properties ?? {}).sort()).toEqual([
			'limit',
			'platform',
			'query',
		]);
		expect(await scenario.ledger()).toEqual([]);
	});

	test(`a call returns the sounds in the Output mode set (Simplified) with the credits the call cost ${NEWEST}`, async () => {
		const answer = await callSoundSearch(mcp.client, {
			query: 'rainy lofi',
			platform: 'photosocial',
			limit: 10,
		});

		expect(answer.isError).toBe(false);
		expect(await scenario.ledger()).toEqual([
			page({ platform: 'photosocial', q: 'rainy lofi', limit: '10', credits: 2, items: 10 }),
		]);
		expect(answer.sounds).toHaveLength(10);
		for (const sound of answer.sounds) {
			expect(Object.keys(sound)).toEqual(SIMPLIFIED);
			expect(sound).toMatchObject({
				query: 'rainy lofi',
				platform: 'photosocial',
				creditsCharged: 2,
			});
		}
	});

	test(`two calls at once each get their own sounds ${NEWEST}`, async () => {
		const [lofi, jazz] = await Promise.all([
			callSoundSearch(mcp.client, { query: 'lofi', platform: 'shortvideo', limit: 5 }),
			callSoundSearch(mcp.client, { query: 'jazz', platform: 'photosocial', limit: 5 }),
		]);

		const searches = /** @type {const} */ ([
			{ platform: 'photosocial', q: 'jazz' },
			{ platform: 'shortvideo', q: 'lofi' },
		]);
		const rows = await scenario.ledger();
		expect([...rows].sort((a, b) => a.platform.localeCompare(b.platform))).toEqual(
			onePageEach([...searches], { limit: '5', items: 5 }),
		);
		expect(lofi.sounds.map((s) => [s.query, s.platform])).toEqual(
			Array(5).fill(['lofi', 'shortvideo']),
		);
		expect(jazz.sounds.map((s) => [s.query, s.platform])).toEqual(
			Array(5).fill(['jazz', 'photosocial']),
		);
	});

	test(`an empty query is a tool error that says so, and no call is made ${NEWEST}`, async () => {
		const answer = await callSoundSearch(mcp.client, {
			query: '',
			platform: 'shortvideo',
			limit: 5,
		});

		expect(answer.isError).toBe(true);
		expect(answer.text).toMatch(/Query/);
		expect(answer.text).toMatch(/empty/i);
		expect(answer.text).toContain('No request was sent and no credits were spent');
		expect(await scenario.ledger()).toEqual([]);
	});

	test(`a call that would pass Max Credits (4) stops with an error that says so, having spent 4 ${NEWEST}`, async () => {
		// 150 sounds on photosocial: 3 calls of 50 at 2 credits; the third does not fit.
		const answer = await callSoundSearch(mcp.client, {
			query: 'lofi',
			platform: 'photosocial',
			limit: 150,
		});

		expect(answer.isError).toBe(true);
		expect(answer.text).toMatch(/Max Credits/);
		const rows = await scenario.ledger();
		expect(rows).toEqual([
			page({ platform: 'photosocial', q: 'lofi', credits: 2, items: 50 }),
			page({ platform: 'photosocial', q: 'lofi', credits: 2, items: 50 }),
		]);
		// The service got the key: it is left out of the answer, not missing from the call.
		expect(rows[0].authorization).toBe(`Bearer ${KEYS.sound}`);
	});
}

module.exports = { mcpServer };
