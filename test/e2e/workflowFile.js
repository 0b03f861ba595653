'use strict';

// The workflow files the scenario tests run, read and filled in. A test names a file of workflows/
// ('lofi': workflows/lofi.workflow.json, as n8n exports a workflow) or an example as users get it
// ('examples/trend-history.json', reused, not copied). Filled in on loading: "$credential" (the
// Sound Search credential to use), /home/node/.n8n-files (the folder n8n's Docker image lets
// workflows use: this run's files folder), and what a test changes: Settings fields, parameters.

const fs = require('node:fs');
const path = require('node:path');
const n8n = require('../harness/n8n');
const { REPO_ROOT } = require('../harness/packageTarball');

const EXAMPLES_FILES_DIR = '/home/node/.n8n-files';

/**
 * @typedef {object} LoadOptions
 * @property {Record<string, unknown>} [settings] examples/: Settings node field -> value
 * @property {Record<string, unknown>} [set] 'Node name.parameter.path' -> value, e.g.
 *   { 'Sound Search.options.maxRetries': 1 }
 */

/** @param {any} workflow @param {string} name */
function nodeNamed(workflow, name) {
	const node = workflow.nodes.find((/** @type {any} */ n) => n.name === name);
	if (!node) throw new Error(`${workflow.name}: no node ${name}`);
	return node;
}

/** @param {any} workflow @param {LoadOptions} options */
function applyOptions(workflow, { settings = {}, set = {} }) {
	for (const [name, value] of Object.entries(settings)) {
		const field = nodeNamed(workflow, 'Settings').parameters.assignments.assignments.find(
			(/** @type {any} */ a) => a.name === name,
		);
		if (!field) throw new Error(`${workflow.name}: no Settings field ${name}`);
		field.value = value;
	}
	for (const [dotted, value] of Object.entries(set)) {
		const [node, ...keys] = dotted.split('.');
		const last = /** @type {string} */ (keys.pop());
		let target = nodeNamed(workflow, node).parameters;
		for (const key of keys) target = target[key] ??= {};
		target[last] = value;
	}
	return workflow;
}

/**
 * A finished run, the same whether n8n ran it from the CLI or through REST.
 * @param {string} status 'success' | 'error'
 * @param {any} data the run's data: { resultData: { runData, error? } }
 */
function outcome(status, data) {
	const { runData, error } = data.resultData;
	/** @param {string} node @returns {Record<string, any>[]} its output items (json) */
	const items = (node) => n8n.nodeOutputItems({ data }, node);
	return { status, error, runData, items };
}

/**
 * @param {string} name 'lofi' (workflows/) or 'examples/<file>.json'
 * @param {LoadOptions & { credential: { id: string, name: string }, filesDir: string }} options
 */
function loadWorkflow(name, options) {
	const file = name.startsWith('examples/')
		? path.join(REPO_ROOT, name)
		: path.join(__dirname, 'workflows', `${name}.workflow.json`);
	const text = fs.readFileSync(file, 'utf8').split(EXAMPLES_FILES_DIR).join(options.filesDir);
	const fill = (/** @type {string} */ _key, /** @type {unknown} */ value) =>
		value === '$credential' ? options.credential : value;
	return applyOptions(JSON.parse(text, fill), options);
}

module.exports = { loadWorkflow, outcome };
