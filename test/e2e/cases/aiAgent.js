'use strict';

// The Sound Search node (version 2) as an AI Agent's tool in a real n8n, with the fake OpenAI
// model (test/harness/fakeModel/, its requests forgotten before each test): what n8n offers the
// model and what the model gets back from the tool, by default (Simplified). The workflow:
// workflows/ai-agent-v2. Each Output mode's items (Raw, Selected Fields) and their sizes are
// proven in test/engine/output.test.ts.

const { page } = require('../ledger');
const { SIMPLIFIED_FIELDS } = require('../../harness/outputShape');

/** @param {import('../scenario').E2eScenario} scenario (started, with the fake model) */
function aiAgent(scenario) {
	test("the model gets the Simplified sounds; the tool is offered with the $fromAI query only; n8n runs it as the node's custom operation, its cost hint on the tool's run", async () => {
		const run = await scenario.run('ai-agent-v2');
		expect(run.status).toBe('success');
		const calls = await scenario.model.requests();
		expect(calls).toHaveLength(2);

		const [tool] = calls[0].body.tools;
		expect(calls[0].body.tools).toHaveLength(1);
		expect(tool).toMatchObject({ type: 'function', function: { name: 'Sound_Search' } });
		expect(tool.function.description).toMatch(/^Search public sounds/);
		// Only the $fromAI() value is the model's to choose; platform, limit etc. stay fixed.
		expect(Object.keys(tool.function.parameters.properties)).toEqual(['query']);
		expect(await scenario.ledger()).toEqual([
			page({ platform: 'shortvideo', q: 'rainy lofi', limit: '10', credits: 1, items: 10 }),
		]);
		const toolMessage = calls[1].body.messages.find((/** @type {any} */ m) => m.role === 'tool');
		const sounds = JSON.parse(String(toolMessage.content));
		expect(sounds).toHaveLength(10);
		for (const sound of sounds) expect(Object.keys(sound)).toEqual(SIMPLIFIED_FIELDS);
		expect(run.items('AI Agent')).toEqual([
			{ output: `Found 10 sounds for "rainy lofi". The first one is "${sounds[0].title}".` },
		]);
		// Only the custom operation runs in a context that can add hints (the routing path's cannot):
		// what docs/n8n-internals.md read in n8n's code for AI Agent 3, seen at run time.
		const [hint, ...more] = run.runData['Sound Search'][0].hints;
		expect([hint.message, more]).toEqual([
			expect.stringMatching(/^This run cost 1 credit: 1 call/),
			[],
		]);
	});
}

module.exports = { aiAgent };
