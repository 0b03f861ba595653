'use strict';
// The checks behind docs/verification.md that come from n8n's UX guidelines for community nodes
// (UI text, Simplify and the AI tool's Output parameter, trigger conventions), on every node the
// package registers, as n8n loads it. The other verification checks: verification.test.js.
const { registeredNodes, registeredCredentials } = require('./packageNodes.js');
const { uiTextProblems } = require('./uiText.js');
const { expectSimplify, expectToolOutput } = require('./outputGuidelines.js');

/** @type {Array<[string, any]>} */
const nodes = registeredNodes().map(({ className, instance }) => [className, instance.description]);

describe('UI text (UX guidelines: Title Case, Sentence case, "Whether", "e.g.", English)', () => {
	test.each(nodes)('node %s', (_, description) => {
		expect(uiTextProblems(description)).toEqual([]);
	});

	test.each(
		/** @type {Array<[string, any]>} */ (
			registeredCredentials().map(({ className, instance }) => [className, instance])
		),
	)('credential %s', (_, credential) => {
		expect(uiTextProblems(credential)).toEqual([]);
	});
});

describe('output (UX guidelines: "Simplifying output fields")', () => {
	test.each(nodes)(
		'node %s has a top-level "Simplify" boolean as the guideline words it',
		(_, d) => {
			expectSimplify(d);
		},
	);

	test.each(nodes.filter(([, description]) => description.usableAsTool))(
		'node %s, as an AI tool, has the Output parameter (Simplified, Raw, Selected Fields) in tool use only',
		(_, description) => {
			expectToolOutput(description);
		},
	);

	test.each([
		['Sound Search', require('../../nodes/shared/description').SIMPLIFIED_FIELDS],
		[
			'Sound Search Trigger',
			require('../../nodes/SoundSearchTrigger/trendItems').TREND_SIMPLIFIED_FIELDS,
		],
	])('%s: Simplify keeps at most 10 fields, the sound ID first', (_, fields) => {
		expect(fields.length).toBeLessThanOrEqual(10);
		expect(fields[0]).toBe('soundId');
		expect(new Set(fields).size).toBe(fields.length);
	});
});

// Lint's @n8n/community-nodes rules (trigger-node-conventions, node-usable-as-tool) recognise a
// trigger by its class name only; here by what n8n runs it as, on the runtime description.
test('every registered trigger follows the conventions; every other node is usable as a tool', () => {
	for (const { className, instance } of registeredNodes()) {
		const { description: d } = instance;
		const trigger =
			/Trigger$/.test(className) ||
			/Trigger$/.test(d.name) ||
			d.polling === true ||
			(d.group || []).includes('trigger') ||
			['poll', 'trigger', 'webhook'].some((method) => typeof instance[method] === 'function');
		if (!trigger) expect([className, d.usableAsTool]).toEqual([className, true]);
		else
			expect([className, d.name, d.displayName, d.inputs, Boolean(d.usableAsTool)]).toEqual([
				className,
				expect.stringMatching(/Trigger$/),
				expect.stringContaining('Trigger'),
				[],
				false,
			]);
	}
});
