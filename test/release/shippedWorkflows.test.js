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

/** npm start's demo workflow, in test/ with the code that imports it. */
const DEMO_FILE = 'test/harness/stack/demo.workflow.json';
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

/** The demo, and every workflow file (JSON with a nodes array, or an array of such) outside NOT_SHIPPED folders. */
function shippedWorkflows() {
	const folders = fs
		.readdirSync(REPO_ROOT, { withFileTypes: true })
		.filter((e) => e.isDirectory() && !e.name.startsWith('.') && !NOT_SHIPPED.has(e.name));
	return [DEMO_FILE, ...folders.flatMap((folder) => filesUnder(folder.name))]
		.filter((file) => file.endsWith('.json'))
		.flatMap((file) => {
			const text = fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
			if (!text.includes('"nodes"')) return [];
			const workflows = [JSON.parse(text)].flat().filter((w) => Array.isArray(w?.nodes));
			return workflows.map((workflow) => ({ file, workflow }));
		});
}

const shipped = shippedWorkflows();

describe('shipped workflows use the default version of each node of the package', () => {
	test('they are found: the demo of npm start and every example, with nodes of the package', () => {
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
});
