'use strict';

// What `npm start` and the editor check put into n8n: the owner, the credentials (the reference
// service; the fake model for the AI-agent example; the MCP example's token), the demo workflow
// (demo.workflow.json) and the examples/*.json.

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { REPO_ROOT } = require('../packageTarball');
const { n8nId } = require('../n8n/cli');
const DEMO_WORKFLOW = require('./demo.workflow.json');

const PACKAGE_NAME = 'n8n-nodes-sound-search';
const SERVICE_KEY = 'sandbox-key';
/** The credential of the demo workflow and the examples (they refer to this id and name). */
const DEMO_CREDENTIAL = Object.freeze({
	id: 'soundSearchDemo',
	name: 'Sound Search account',
	type: 'soundSearchApi',
});
/** The OpenAI credential of the AI-agent example, pointed at the local fake model (not OpenAI). */
const DEMO_OPENAI_CREDENTIAL = Object.freeze({
	id: 'openAiDemo',
	name: 'OpenAI account',
	type: 'openAiApi',
});
/** The Bearer Auth credential of the MCP example's trigger: the token MCP clients send. */
const DEMO_MCP_CREDENTIAL = Object.freeze({
	id: 'soundSearchMcpToken',
	name: 'Sound Search MCP token',
	type: 'httpBearerAuth',
});
/** The key the fake model accepts (it is no OpenAI key). */
const FAKE_MODEL_KEY = 'fake-model-key';
/** The folder the examples write to, relative to where n8n runs (its user folder here). */
const FILES_FOLDER = '.n8n-files';
/** The owner `npm start` creates (printed on start; local demo only). */
const DEMO_OWNER = Object.freeze({
	email: 'demo@sound-search.local',
	password: 'SoundSearch-Demo1',
	firstName: 'Demo',
	lastName: 'Owner',
});

/**
 * The workflows in examples/*.json (one or an array a file), each with an id (a stable one if it
 * has none: a re-import replaces it) and inactive (spending no credits until published). A file
 * that is not a workflow is reported in `problems`.
 */
function readExampleWorkflows() {
	/** @type {Array<{ file: string, workflow: Record<string, any> }>} */
	const workflows = [];
	/** @type {string[]} */
	const problems = [];
	const dir = path.join(REPO_ROOT, 'examples');
	const names = fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n.endsWith('.json')) : [];
	for (const name of names.sort()) {
		const file = path.join('examples', name);
		try {
			const list = [JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'))].flat();
			list.forEach((workflow, index) => {
				if (!Array.isArray(workflow?.nodes)) throw new Error(`no "nodes" array in entry ${index}`);
				const seed = crypto.createHash('sha256').update(`examples/${name}#${index}`).digest();
				const id = workflow.id || n8nId(seed);
				const title = workflow.name || path.basename(name, '.json');
				const settings = workflow.settings || { executionOrder: 'v1' };
				workflows.push({
					file,
					workflow: { ...workflow, id, name: title, settings, active: false },
				});
			});
		} catch (error) {
			problems.push(`${file}: not a workflow (${/** @type {Error} */ (error).message})`);
		}
	}
	return { workflows, problems };
}

module.exports = {
	PACKAGE_NAME,
	SERVICE_KEY,
	DEMO_CREDENTIAL,
	DEMO_OPENAI_CREDENTIAL,
	DEMO_MCP_CREDENTIAL,
	FAKE_MODEL_KEY,
	FILES_FOLDER,
	DEMO_OWNER,
	DEMO_WORKFLOW,
	DEMO_WORKFLOW_ID: DEMO_WORKFLOW.id,
	readExampleWorkflows,
};
