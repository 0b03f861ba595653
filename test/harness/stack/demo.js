'use strict';

// What `npm start` and the editor check put into n8n: the owner, the credential pointing at the
// reference service, the ready-to-run "Sound Search demo" workflow and the examples/*.json.

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { REPO_ROOT } = require('../packageTarball');

const PACKAGE_NAME = 'n8n-nodes-sound-search';
const NODE_TYPE = `${PACKAGE_NAME}.soundSearch`;
const CREDENTIAL_TYPE = 'soundSearchApi';
const SERVICE_KEY = 'sandbox-key';
const EXAMPLES_DIR = path.join(REPO_ROOT, 'examples');

/** The credential the examples and the demo workflow use (examples/ refer to this id and name). */
const DEMO_CREDENTIAL = Object.freeze({
	id: 'soundSearchDemo',
	name: 'Sound Search account',
	type: CREDENTIAL_TYPE,
});

/** The ready-to-run workflow: Manual Trigger -> Sound Search (short-video platform, lofi, 10). */
const DEMO_WORKFLOW_ID = 'SoundSearchDemo1';
const DEMO_WORKFLOW_NAME = 'Sound Search demo';

/** The owner `npm start` creates (printed on start; local demo only). */
const DEMO_OWNER = Object.freeze({
	email: 'demo@sound-search.local',
	password: 'SoundSearch-Demo1',
	firstName: 'Demo',
	lastName: 'Owner',
});

/**
 * @param {{ id: string, name: string }} credential
 * @returns {Record<string, any>} the demo workflow, as n8n's import:workflow takes it
 */
function demoWorkflow(credential = DEMO_CREDENTIAL) {
	return {
		id: DEMO_WORKFLOW_ID,
		name: DEMO_WORKFLOW_NAME,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: '5d1f0c2e-7a51-4a55-9d43-6f0d5e1a0001',
				name: 'When clicking ‘Execute workflow’',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: '5d1f0c2e-7a51-4a55-9d43-6f0d5e1a0002',
				name: 'Sound Search',
				type: NODE_TYPE,
				typeVersion: 1,
				position: [240, 0],
				parameters: {
					resource: 'sound',
					operation: 'search',
					platform: 'shortvideo',
					query: 'lofi',
					limit: 10,
					options: {},
				},
				credentials: { [CREDENTIAL_TYPE]: { id: credential.id, name: credential.name } },
			},
		],
		connections: {
			'When clicking ‘Execute workflow’': {
				main: [[{ node: 'Sound Search', type: 'main', index: 0 }]],
			},
		},
		pinData: {},
	};
}

/**
 * A stable n8n-style id (16 alphanumerics) for an example file without one, so that re-imports
 * replace the workflow instead of adding a copy.
 * @param {string} seed
 */
function stableId(seed) {
	const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
	const digest = crypto.createHash('sha256').update(seed).digest();
	return Array.from(digest.subarray(0, 16), (b) => alphabet[b % alphabet.length]).join('');
}

/**
 * The workflows in examples/*.json as they are right now (a file may hold one workflow or an
 * array). Files that are not workflows are reported, not fatal.
 * @returns {{ workflows: Array<{ file: string, workflow: Record<string, any> }>, problems: string[] }}
 */
function readExampleWorkflows() {
	/** @type {Array<{ file: string, workflow: Record<string, any> }>} */
	const workflows = [];
	/** @type {string[]} */
	const problems = [];
	if (!fs.existsSync(EXAMPLES_DIR)) return { workflows, problems };
	const files = fs
		.readdirSync(EXAMPLES_DIR)
		.filter((name) => name.endsWith('.json'))
		.sort();
	for (const name of files) {
		const file = path.join('examples', name);
		let parsed;
		try {
			parsed = JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, name), 'utf8'));
		} catch (error) {
			problems.push(`${file}: not JSON (${/** @type {Error} */ (error).message})`);
			continue;
		}
		const list = Array.isArray(parsed) ? parsed : [parsed];
		list.forEach((workflow, index) => {
			if (!workflow || typeof workflow !== 'object' || !Array.isArray(workflow.nodes)) {
				problems.push(
					`${file}${list.length > 1 ? `[${index}]` : ''}: not a workflow (no "nodes" array)`,
				);
				return;
			}
			const copy = { ...workflow };
			if (!copy.id) copy.id = stableId(`examples/${name}#${index}`);
			if (!copy.name) copy.name = path.basename(name, '.json');
			if (!copy.settings) copy.settings = { executionOrder: 'v1' };
			// Imported inactive: a scheduled example must not spend credits until someone publishes it.
			copy.active = false;
			workflows.push({ file, workflow: copy });
		});
	}
	return { workflows, problems };
}

module.exports = {
	PACKAGE_NAME,
	NODE_TYPE,
	SERVICE_KEY,
	DEMO_CREDENTIAL,
	DEMO_WORKFLOW_ID,
	DEMO_WORKFLOW_NAME,
	DEMO_OWNER,
	demoWorkflow,
	readExampleWorkflows,
};
