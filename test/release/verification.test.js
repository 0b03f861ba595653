'use strict';
// The checks behind docs/verification.md that neither `n8n-node lint` (strict) nor n8n's
// community-package scanner makes, or makes only on what it can see in the source text. The UX
// guidelines' checks: uxGuidelines.test.js.
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
		const kinds = ['dependencies', 'optionalDependencies', 'bundleDependencies'];
		for (const field of [...kinds, 'bundledDependencies'])
			expect([field, Object.keys(pkg[field] || {})]).toEqual([field, []]);
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
});

describe('documentation', () => {
	const readme = read('README.md');
	const headings = readme.split('\n').filter((line) => /^##+ /.test(line));

	test('the README covers install, credentials, usage, examples and compatibility; CONTRIBUTING.md releasing', () => {
		for (const heading of ['Install in n8n', 'Credentials', 'Parameters', 'Output', 'Examples'])
			expect(headings).toContain(`## ${heading}`);
		expect(headings).toContain('### Compatibility');
		expect(read('CONTRIBUTING.md').split('\n')).toContain('## Releasing');
		for (const link of [
			'CONTRIBUTING.md',
			'docs/verification.md',
			'CHANGELOG.md',
			'examples/README.md',
		])
			expect(readme).toContain(`(${link})`);
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
});
