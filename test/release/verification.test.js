'use strict';
// The checks behind docs/verification.md that neither `n8n-node lint` (strict) nor n8n's
// community-package scanner makes, or makes only on what it can see in the source text. Each
// rule's checker is also shown to fail on a made-up counter-example.
const fs = require('node:fs');
const path = require('node:path');
const {
	REPO_ROOT,
	pkg,
	sourceOf,
	registeredNodes,
	registeredCredentials,
	filesUnder,
} = require('./packageNodes.js');
const { uiTextProblems } = require('./uiText.js');
const { accessProblems } = require('./sourceAccess.js');
const { isTrigger, triggerProblems } = require('./triggerConventions.js');
const { simplifyProblems, toolOutputProblems } = require('./outputGuidelines.js');
const { githubRepository } = require('../../scripts/check-release-tag.js');

const read = (file) => fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');

describe('licence', () => {
	test('is MIT in package.json and in the LICENSE file that ships', () => {
		expect(pkg.license).toBe('MIT');
		const licence = read('LICENSE');
		expect(licence).toMatch(/^MIT License\n/);
		expect(licence).toContain(
			'Permission is hereby granted, free of charge, to any person obtaining a copy',
		);
		expect(licence).toContain('THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND');
	});
});

describe('dependencies', () => {
	test('none at run time, of any kind (lint only looks at "dependencies")', () => {
		for (const field of [
			'dependencies',
			'optionalDependencies',
			'bundleDependencies',
			'bundledDependencies',
		]) {
			expect([field, Object.keys(pkg[field] || {})]).toEqual([field, []]);
		}
	});

	test('peerDependencies is exactly n8n-workflow "*"', () => {
		expect(pkg.peerDependencies).toEqual({ 'n8n-workflow': '*' });
	});
});

describe('package.json for the community-node repository', () => {
	test('name, keyword and the n8n section (API version 1, strict)', () => {
		expect(pkg.name).toMatch(/^(@[a-z0-9][\w.-]*\/)?n8n-nodes-/);
		expect(pkg.keywords).toContain('n8n-community-node-package');
		expect(pkg.n8n).toMatchObject({ n8nNodesApiVersion: 1, strict: true });
	});

	test('registers every node and credential in the source, each from an existing file', () => {
		const registered = [...pkg.n8n.nodes, ...pkg.n8n.credentials].map(sourceOf);
		const sources = [...filesUnder('nodes'), ...filesUnder('credentials')]
			.filter((file) => /\.(node|credentials)\.ts$/.test(file))
			.map((file) => path.join(REPO_ROOT, file));
		expect(registered.sort()).toEqual(sources.sort());
	});

	test('repository, homepage and bugs name one GitHub repository', () => {
		const repository = githubRepository(pkg.repository.url);
		expect(repository).not.toBeNull();
		expect(pkg.homepage.toLowerCase()).toBe(`https://github.com/${repository}#readme`);
		expect(pkg.bugs.url.toLowerCase()).toBe(`https://github.com/${repository}/issues`);
		expect(pkg.author.name).toBeTruthy();
		expect(pkg.author.email).toMatch(/@/);
	});

	test("strict lint runs n8n's own config, unchanged", () => {
		const normalised = read('eslint.config.mjs').replace(/\s+/g, ' ').trim();
		expect(normalised).toBe(
			"import { config } from '@n8n/node-cli/eslint'; export default config;",
		);
	});
});

describe('node and credential code', () => {
	const sources = [...filesUnder('nodes'), ...filesUnder('credentials')];

	test('is TypeScript (no hand-written JavaScript)', () => {
		expect(sources.filter((file) => /\.(c|m)?js$/.test(file))).toEqual([]);
		expect(sources.filter((file) => file.endsWith('.ts')).length).toBeGreaterThan(5);
	});

	test('reaches no environment variable, file, process or module beyond n8n-workflow', () => {
		const problems = sources
			.filter((file) => file.endsWith('.ts'))
			.flatMap((file) => accessProblems(read(file), file));
		expect(problems).toEqual([]);
	});

	test('the check catches env and file-system access, and ignores the same words as text', () => {
		const bad = [
			"import { readFileSync } from 'node:fs';",
			"import type { Agent } from 'undici';",
			"export * from 'n8n-core';",
			'const key = process.env.SOUND_KEY;',
			"const fs = require('fs');",
			"const cp = await import('child_process');",
			'const g = globalThis;',
		].join('\n');
		expect(accessProblems(bad, 'bad.ts')).toEqual([
			"bad.ts:1: imports 'node:fs'",
			"bad.ts:2: imports 'undici'",
			"bad.ts:3: imports 'n8n-core'",
			'bad.ts:4: uses process',
			'bad.ts:5: uses require',
			"bad.ts:6: imports 'child_process'",
			'bad.ts:7: uses globalThis',
		]);
		const fine =
			"import { sleep } from 'n8n-workflow';\nimport { a } from './a';\nconst s = 'process.env and fs'; // process\nconst o = { process: 1 }; o.process;";
		expect(accessProblems(fine, 'fine.ts')).toEqual([]);
	});
});

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
		['Sound Search', require('../../nodes/SoundSearch/shared/soundItems').SIMPLIFIED_FIELDS],
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

describe('documentation', () => {
	const readme = read('README.md');
	const headings = readme.split('\n').filter((line) => /^##+ /.test(line));

	test('the README covers install, credentials, usage, examples and compatibility; CONTRIBUTING.md releasing', () => {
		for (const heading of [
			'## Install in n8n',
			'## Credentials',
			'## Parameters',
			'## Output',
			'## Examples',
			'### Compatibility',
		]) {
			expect(headings).toContain(heading);
		}
		expect(read('CONTRIBUTING.md').split('\n')).toContain('## Releasing');
		expect(readme).toContain('(CONTRIBUTING.md)');
		expect(readme).toContain('(docs/verification.md)');
		expect(readme).toContain('(CHANGELOG.md)');
	});

	test('the example workflows the README points to exist', () => {
		const examples = fs
			.readdirSync(path.join(REPO_ROOT, 'examples'))
			.filter((file) => file.endsWith('.json'));
		expect(examples.length).toBeGreaterThanOrEqual(3);
		expect(readme).toContain('(examples/README.md)');
	});

	test('every check the checklist names exists', () => {
		const checklist = read('docs/verification.md');
		const named = [...checklist.matchAll(/`(test\/[\w/.-]+|scripts\/[\w/.-]+)`/g)].map(
			(match) => match[1],
		);
		expect(named.length).toBeGreaterThan(5);
		expect(named.filter((file) => !fs.existsSync(path.join(REPO_ROOT, file)))).toEqual([]);
	});
});

describe("@n8n/node-cli's release contract, which the publish workflow relies on", () => {
	// The installed version (its exports map hides package.json from require.resolve).
	const cli = path.join(REPO_ROOT, 'node_modules', '@n8n', 'node-cli');
	const source = (file) => fs.readFileSync(path.join(cli, 'dist', 'commands', file), 'utf8');

	test('in GitHub Actions, n8n-node release publishes with provenance and RELEASE_MODE', () => {
		const release = source('release.js');
		expect(release).toMatch(/const isCI = Boolean\(process\.env\.GITHUB_ACTIONS\)/);
		expect(release).toMatch(
			/runCommand\)\('npm', \['publish'\], \{[^}]*env: \{\s*RELEASE_MODE: 'true',\s*NPM_CONFIG_PROVENANCE: 'true',/,
		);
	});

	test('n8n-node prerelease refuses to go on without RELEASE_MODE', () => {
		expect(source('prerelease.js')).toMatch(
			/if \(!process\.env\.RELEASE_MODE\) \{\s*this\.log\([^;]*;\s*process\.exit\(1\);/,
		);
	});
});
