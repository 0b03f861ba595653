'use strict';
// The workflows a user meets use each node of this package at the version a new node gets (its
// defaultVersion): an older version gives an older output shape than the README describes, and a
// user sees that shape first. They are what `npm start` imports (its demo workflow and
// examples/*.json) and any other workflow file outside test/, whose workflows are test fixtures
// (some stay at version 1 on purpose: saved workflows keep their version). The versions come from
// the node descriptions the package registers, read from their sources.
const fs = require('node:fs');
const path = require('node:path');
const { REPO_ROOT, pkg, registeredNodes, filesUnder } = require('./packageNodes.js');
const { DEMO_WORKFLOW, readExampleWorkflows } = require('../harness/stack/demo.js');

const DEMO_FILE = path.relative(REPO_ROOT, require.resolve('../harness/stack/demo.workflow.json'));
/** Folders whose JSON files no user opens as a workflow (installs, builds, test fixtures). */
const NOT_SHIPPED = new Set(['node_modules', 'dist', 'test', 'artifacts', 'coverage', 'reports']);

/**
 * Each node type of this package as workflows name it (its tool variant too), with the version a
 * new node gets and the versions the node knows.
 * @returns {Map<string, { defaultVersion: number, versions: number[] }>}
 */
function ourNodeTypes() {
	const types = new Map();
	for (const { instance } of registeredNodes()) {
		const { name, version, defaultVersion, usableAsTool } = instance.description;
		const versions = [version].flat();
		const current = { defaultVersion: defaultVersion ?? Math.max(...versions), versions };
		types.set(`${pkg.name}.${name}`, current);
		if (usableAsTool) types.set(`${pkg.name}.${name}Tool`, current);
	}
	return types;
}
const TYPES = ourNodeTypes();

/** @param {{ nodes: Array<Record<string, any>> }} workflow */
const ourNodes = (workflow) => workflow.nodes.filter((n) => n.type.startsWith(`${pkg.name}.`));

/**
 * What is wrong with the versions of this package's nodes in a workflow, one sentence each.
 * @param {{ nodes: Array<Record<string, any>> }} workflow
 */
function versionProblems(workflow) {
	return ourNodes(workflow).flatMap(({ name, type, typeVersion }) => {
		const known = TYPES.get(type);
		if (!known) return [`"${name}": ${type} is no node of ${pkg.name}`];
		if (typeVersion >= known.defaultVersion && known.versions.includes(typeVersion)) return [];
		return [
			`"${name}" (${type}) is at version ${typeVersion}; new nodes get ${known.defaultVersion}`,
		];
	});
}

/** Workflow files (JSON with a nodes array, or an array of such) outside NOT_SHIPPED folders. */
function otherWorkflowFiles() {
	const folders = fs
		.readdirSync(REPO_ROOT, { withFileTypes: true })
		.filter((e) => e.isDirectory() && !e.name.startsWith('.') && !NOT_SHIPPED.has(e.name));
	return folders
		.flatMap((folder) => filesUnder(folder.name))
		.filter((file) => file.endsWith('.json'))
		.flatMap((file) => {
			const text = fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
			if (!text.includes('"nodes"')) return [];
			const workflows = [JSON.parse(text)].flat();
			return workflows
				.filter((w) => Array.isArray(w?.nodes))
				.map((workflow) => ({ file, workflow }));
		});
}

/** Every shipped workflow, once, by the file it comes from. */
function shippedWorkflows() {
	const { workflows, problems } = readExampleWorkflows();
	const all = [{ file: DEMO_FILE, workflow: DEMO_WORKFLOW }, ...workflows, ...otherWorkflowFiles()];
	const seen = new Set();
	const unique = all.filter(({ file, workflow }) => {
		const key = `${file}#${workflow.name}`;
		return !seen.has(key) && seen.add(key);
	});
	return { shipped: unique, problems };
}

const { shipped, problems } = shippedWorkflows();

describe('shipped workflows use the default version of each node of the package', () => {
	test('they are found: the demo of npm start and every example, with nodes of the package', () => {
		expect(problems).toEqual([]);
		const files = shipped.map(({ file }) => file);
		expect(files).toContain(DEMO_FILE);
		const examples = fs.readdirSync(path.join(REPO_ROOT, 'examples'));
		for (const name of examples.filter((n) => n.endsWith('.json')))
			expect(files).toContain(path.join('examples', name));
		// Both nodes and the tool variant are among them, so each kind is checked.
		const types = new Set(shipped.flatMap(({ workflow }) => ourNodes(workflow).map((n) => n.type)));
		expect([...types].sort()).toEqual([...TYPES.keys()].sort());
	});

	test.each(shipped.map(({ file, workflow }) => [`${file} (${workflow.name})`, workflow]))(
		'%s',
		(_name, workflow) => {
			expect(versionProblems(workflow)).toEqual([]);
		},
	);

	test('the check reports a node below its default version, a version the node does not know and a type it does not have', () => {
		const at = (type, typeVersion) => ({ name: type, type: `${pkg.name}.${type}`, typeVersion });
		const workflow = {
			nodes: [
				at('soundSearch', 1),
				at('soundSearchTool', 1),
				at('soundSearchTrigger', 1),
				at('soundSearch', 99),
				at('soundSearchWidget', 1),
				{ name: 'n8n', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1 },
			],
		};
		const search = TYPES.get(`${pkg.name}.soundSearch`);
		expect(search?.defaultVersion).toBeGreaterThan(1);
		expect(versionProblems(workflow)).toEqual([
			`"soundSearch" (${pkg.name}.soundSearch) is at version 1; new nodes get ${search?.defaultVersion}`,
			expect.stringMatching(/^"soundSearchTool" .* is at version 1; new nodes get \d/),
			expect.stringMatching(/^"soundSearchTrigger" .* is at version 1; new nodes get \d/),
			expect.stringMatching(/^"soundSearch" .* is at version 99;/),
			`"soundSearchWidget": ${pkg.name}.soundSearchWidget is no node of ${pkg.name}`,
		]);
	});
});
