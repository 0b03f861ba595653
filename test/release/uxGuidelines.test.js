'use strict';
// The checks behind docs/verification.md that come from n8n's UX guidelines for community nodes
// (UI text, Simplify and the AI tool's Output parameter, trigger conventions), on every node the
// package registers; each rule's checker is also shown to fail on a made-up counter-example. The
// other verification checks: verification.test.js.
const { registeredNodes, registeredCredentials } = require('./packageNodes.js');
const { uiTextProblems } = require('./uiText.js');
const { isTrigger, triggerProblems } = require('./triggerConventions.js');
const { simplifyProblems, toolOutputProblems } = require('./outputGuidelines.js');

describe('UI text (UX guidelines: Title Case, Sentence case, "Whether", "e.g.", English)', () => {
	test.each(
		/** @type {Array<[string, any]>} */ (
			registeredNodes().map(({ className, instance }) => [className, instance.description])
		),
	)('node %s', (className, description) => {
		expect(uiTextProblems(description)).toEqual([]);
	});

	test.each(
		/** @type {Array<[string, any]>} */ (
			registeredCredentials().map(({ className, instance }) => [className, instance])
		),
	)('credential %s', (className, credential) => {
		expect(uiTextProblems(credential)).toEqual([]);
	});

	test('the check reports each rule broken, including in collections and computed options', () => {
		const problems = uiTextProblems({
			displayName: 'Sound search',
			description: 'searches sounds',
			properties: [
				{
					displayName: 'Return All',
					name: 'returnAll',
					type: 'boolean',
					default: false,
					description: 'Return everything',
				},
				{ displayName: 'Query', name: 'query', type: 'string', default: '', placeholder: 'lofi' },
				{
					displayName: 'Options',
					name: 'options',
					type: 'collection',
					default: {},
					placeholder: 'add option',
					options: [
						{
							displayName: 'Simplify',
							name: 'simplify',
							type: 'boolean',
							default: false,
							description: 'Flat items',
						},
					],
				},
				{
					displayName: 'Platform',
					name: 'platform',
					type: 'options',
					default: 'a',
					options: [
						{ name: `Short-video ${'platform'}`, value: 'a', description: 'Plateforme vidéo' },
					],
				},
			],
		});
		expect(problems).toEqual([
			'display name: label "Sound search" is not Title Case ("Sound Search")',
			'node description: description does not start with a capital (Sentence case): "searches sounds"',
			'Return All: boolean description does not start with "Whether": "Return everything"',
			'Query: placeholder does not start with "e.g.": "lofi"',
			'Options: label "add option" is not Title Case ("Add Option")',
			'Options > Simplify: boolean description does not start with "Whether": "Flat items"',
			'Platform > Short-video platform: dropdown title "Short-video platform" is not Title Case ("Short-Video Platform")',
			'Platform > Short-video platform: description has characters outside English text: "Plateforme vidéo"',
		]);
	});
});

describe('output (UX guidelines: "Simplifying output fields")', () => {
	const nodes = /** @type {Array<[string, any]>} */ (
		registeredNodes().map(({ className, instance }) => [className, instance.description])
	);
	test.each(nodes)(
		'node %s has a top-level "Simplify" boolean as the guideline words it',
		(_, description) => {
			expect(simplifyProblems(description)).toEqual([]);
		},
	);

	test.each(nodes.filter(([, description]) => description.usableAsTool))(
		'node %s, as an AI tool, has the Output parameter (Simplified, Raw, Selected Fields) in tool use only',
		(className, description) => {
			expect(toolOutputProblems(description)).toEqual([]);
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

	test('the checks report each rule broken', () => {
		const simplify = {
			displayName: 'Simplify Output',
			name: 'simplify',
			type: 'boolean',
			default: false,
			description: 'Whether to return flat items',
		};
		expect(simplifyProblems({ version: 1, properties: [simplify] })).toEqual([
			'label "Simplify Output", not "Simplify"',
			'description "Whether to return flat items", not the guideline\'s',
		]);
		const inOptions = {
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			options: [simplify],
		};
		expect(simplifyProblems({ version: 1, properties: [inOptions] })).toEqual([
			'no top-level "simplify" parameter at the newest version',
		]);
		// Shown at version 1 only, so the newest version (2) has none.
		const v1Only = { ...simplify, displayOptions: { show: { '@version': [1] } } };
		expect(simplifyProblems({ version: [1, 2], defaultVersion: 2, properties: [v1Only] })).toEqual([
			'no top-level "simplify" parameter at the newest version',
		]);
		const output = {
			displayName: 'Output',
			name: 'output',
			type: 'options',
			options: [
				{ name: 'Raw', value: 'raw' },
				{ name: 'Simplified', value: 'simplified' },
			],
		};
		const fields = {
			displayName: 'Fields',
			name: 'fields',
			type: 'multiOptions',
			displayOptions: { show: { '@tool': [true] } },
			description: 'The fields to send',
		};
		expect(toolOutputProblems({ version: 1, properties: [output, fields, simplify] })).toEqual([
			'output modes Raw=raw, Simplified=simplified',
			'output is not limited to tool use',
			'fields is not shown for Selected Fields in tool use only',
			'fields does not say the ID is always sent',
			'simplify still shows in tool use, beside output',
		]);
		expect(toolOutputProblems({ version: 1, properties: [] })).toEqual([
			'no "output" options parameter',
		]);
	});
});

describe('trigger nodes', () => {
	test('every registered trigger follows the conventions; every other node is usable as a tool', () => {
		for (const { className, instance } of registeredNodes()) {
			const { description } = instance;
			if (isTrigger(className, description, instance))
				expect([className, triggerProblems(description)]).toEqual([className, []]);
			else expect([className, description.usableAsTool]).toEqual([className, true]);
		}
	});

	test('the check tells a trigger by how n8n runs it, and reports each convention broken', () => {
		const poller = {
			name: 'soundSearch',
			displayName: 'Sound Search',
			polling: true,
			inputs: ['main'],
			usableAsTool: true,
			group: ['input'],
		};
		expect(isTrigger('SoundSearch', poller, {})).toBe(true);
		expect(isTrigger('SoundSearch', { ...poller, polling: undefined }, { poll() {} })).toBe(true);
		expect(isTrigger('SoundSearch', { ...poller, polling: undefined }, {})).toBe(false);
		expect(triggerProblems(poller)).toEqual([
			'name "soundSearch" does not end with "Trigger"',
			'display name "Sound Search" does not contain "Trigger"',
			'inputs is not []',
			'usableAsTool is set (triggers cannot be AI tools)',
		]);
		const conforming = {
			name: 'soundSearchTrigger',
			displayName: 'Sound Search Trigger',
			polling: true,
			inputs: [],
			group: ['trigger'],
		};
		expect(triggerProblems(conforming)).toEqual([]);
	});
});
