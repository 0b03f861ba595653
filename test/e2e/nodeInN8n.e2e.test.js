'use strict';

// The Sound Search node's own cases in a real n8n of each line, on an n8n of their own beside
// sharedN8n.e2e.test.js (the examples, the trigger and MCP): the package installed by the README's
// own lines for a release not yet on the registry (`npm install --legacy-peer-deps <tarball>` in
// ~/.n8n/nodes, test/harness/n8n/readmeInstall.js), the credential, the node as an AI
// Agent's tool (the fake OpenAI model) and 200 keywords against a quota across two executions. Two
// files per line run side by side (two jest workers; their n8n starts take turns,
// test/harness/n8n/startLock.js): the layer's time is then the longer file's, not the sum.

const fs = require('node:fs');
const path = require('node:path');
const { useN8n } = require('./scenario');
const { credentials } = require('./cases/credentials');
const { aiAgent } = require('./cases/aiAgent');
const { rateLimits } = require('./cases/rateLimits');

const scenario = useN8n({ model: true, readmeInstall: true });

test("installed by the README's lines (npm install --legacy-peer-deps <tarball> in ~/.n8n/nodes), n8n loads both nodes and the credential, with its own n8n-workflow", async () => {
	const nodes = path.join(scenario.userFolder, '.n8n', 'nodes', 'node_modules');
	expect(fs.readdirSync(nodes).filter((name) => !name.startsWith('.'))).toEqual([
		'n8n-nodes-sound-search',
	]);
	const types = async (/** @type {string} */ file) =>
		(await scenario.rest('GET', `/types/${file}`)).body.map((/** @type {any} */ t) => t.name);
	expect(await types('nodes.json')).toEqual(
		expect.arrayContaining([
			'n8n-nodes-sound-search.soundSearch',
			'n8n-nodes-sound-search.soundSearchTrigger',
		]),
	);
	expect(await types('credentials.json')).toContain('soundSearchApi');
});

describe('the Sound Search credential', () => credentials(scenario));
describe('the Sound Search tool (version 2) in an AI Agent', () => aiAgent(scenario));
describe('rate limits', () => rateLimits(scenario));
