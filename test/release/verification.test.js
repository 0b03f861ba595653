'use strict';
// The checks behind docs/verification.md that neither `n8n-node lint` (strict) nor n8n's
// community-package scanner makes, or makes only on what it can see in the source text. Each
// rule's checker is also shown to fail on a made-up counter-example. The UX guidelines' checks:
// uxGuidelines.test.js.
const fs = require('node:fs');
const path = require('node:path');
const { REPO_ROOT, pkg, sourceOf, filesUnder } = require('./packageNodes.js');
const { accessProblems } = require('./sourceAccess.js');
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
