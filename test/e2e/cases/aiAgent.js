'use strict';

// The Sound Search node (version 2) as an AI Agent's tool in a real n8n, with the fake OpenAI
// model (test/harness/fakeModel/, its requests forgotten before each test): what the model
// receives as the tool's result in each mode of the tool-only Output parameter. The workflow:
// workflows/ai-agent-v2.

const { page } = require('../ledger');
const { SIMPLIFIED_FIELDS: SIMPLIFIED } = require('../../harness/outputShape');

const WORKFLOW = 'ai-agent-v2';
/** @typedef {import('../scenario').E2eScenario} E2eScenario */

/**
 * Runs the agent with the tool's parameters set as given; returns what the model got back from
 * the tool (the parsed sounds and the text's size in bytes) and the run.
 * @param {E2eScenario} scenario @param {Record<string, unknown>} toolParameters
 */
async function agentRun(scenario, toolParameters) {
	const set = Object.fromEntries(
		Object.entries(toolParameters).map(([name, value]) => [`Sound Search.${name}`, value]),
	);
	const run = await scenario.run(WORKFLOW, { set });
	expect(run.status).toBe('success');
	const calls = await scenario.model.requests();
	expect(calls).toHaveLength(2);
	const toolMessage = calls[1].body.messages.find((/** @type {any} */ m) => m.role === 'tool');
	const content = String(toolMessage.content);
	return { run, sounds: JSON.parse(content), bytes: Buffer.byteLength(content) };
}

/**
 * The three Output modes, each one test; `measured` collects the bytes of each tool result.
 * @param {E2eScenario} scenario @param {Record<string, number>} measured
 */
function outputModes(scenario, measured) {
	test("by default the model gets the Simplified sounds (10 flat fields each); the tool is offered with the $fromAI query only; n8n runs it as the node's custom operation, its cost hint on the tool's run", async () => {
		const { run, sounds, bytes } = await agentRun(scenario, {});
		measured.simplified = bytes;

		const [first] = await scenario.model.requests();
		const [tool] = first.body.tools;
		expect(first.body.tools).toHaveLength(1);
		expect(tool).toMatchObject({ type: 'function', function: { name: 'Sound_Search' } });
		expect(tool.function.description).toMatch(/^Search public sounds/);
		// Only the $fromAI() value is the model's to choose; platform, limit etc. stay fixed.
		expect(Object.keys(tool.function.parameters.properties)).toEqual(['query']);
		expect(await scenario.ledger()).toEqual([
			page({ platform: 'shortvideo', q: 'rainy lofi', limit: '10', credits: 1, items: 10 }),
		]);
		expect(sounds).toHaveLength(10);
		for (const sound of sounds) expect(Object.keys(sound)).toEqual(SIMPLIFIED);
		expect(sounds[0]).toMatchObject({ query: 'rainy lofi', platform: 'shortvideo' });
		expect(typeof sounds[0].audioUrl).toBe('string');
		expect(run.items('AI Agent')).toEqual([
			{ output: `Found 10 sounds for "rainy lofi". The first one is "${sounds[0].title}".` },
		]);
		// Only the custom operation runs in a context that can add hints (the routing path's cannot):
		// what docs/n8n-internals.md read in n8n's code for AI Agent 3, seen at run time.
		expect(run.runData['Sound Search'][0].hints).toEqual([
			expect.objectContaining({
				message: expect.stringMatching(/^This run cost 1 credit: 1 call/),
			}),
		]);
	});

	test('with Selected Fields, the tool result holds the sound ID and exactly the selected fields', async () => {
		const { run, sounds, bytes } = await agentRun(scenario, {
			output: 'selected',
			fields: ['title', 'postCount'],
		});
		measured.selectedTitlePostCount = bytes;

		expect(sounds).toHaveLength(10);
		for (const sound of sounds)
			expect(Object.keys(sound)).toEqual(['soundId', 'title', 'postCount']);
		// What the tool node put out is what the model got.
		const toolItems = run.runData['Sound Search'][0].data.ai_tool[0].map(
			(/** @type {any} */ item) => item.json,
		);
		expect(sounds).toEqual(toolItems);
		expect(run.items('AI Agent')[0].output).toBe(
			`Found 10 sounds for "rainy lofi". The first one is "${sounds[0].title}".`,
		);
	});

	test('with Raw, the model gets every field of the service, media objects included', async () => {
		const { sounds, bytes } = await agentRun(scenario, { output: 'raw' });
		measured.raw = bytes;

		expect(sounds).toHaveLength(10);
		expect(Object.keys(sounds[0])).toEqual([
			...['soundId', 'title', 'authorName', 'postCount', 'durationSeconds', 'url', 'coverUrl'],
			...['fetchedAt', 'cached', 'cacheAgeSeconds', 'creditsCharged', 'page'],
		]);
		expect(measured.simplified).toBeLessThan(bytes / 2);
	});
}

/**
 * The Output modes, and the bytes of each tool result printed after them.
 * @param {E2eScenario} scenario (started, with the fake model)
 */
function aiAgent(scenario) {
	/** @type {Record<string, number>} */
	const measured = {};
	afterAll(() => {
		// The figures docs/output.md quotes (Limit 10, the short-video platform).
		process.stdout.write(
			`[aiAgent] bytes of the tool result per mode: ${JSON.stringify(measured)}\n`,
		);
	});
	outputModes(scenario, measured);
}

module.exports = { aiAgent };
