'use strict';

// The workflows the queue-mode suite publishes: nodes in a chain, built by one function.

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { REPO_ROOT } = require('../harness/packageTarball');
const { PRICE } = require('./scenarios');

const SEARCH = 'n8n-nodes-sound-search.soundSearch';
const CREDENTIAL = {
	id: 'queueSearchCred1',
	name: 'Sound Search (queue test)',
	type: 'soundSearchApi',
};
const EXAMPLE_FILE = path.join(REPO_ROOT, 'examples', 'scheduled-trend-collection.json');
const credentials = { soundSearchApi: { id: CREDENTIAL.id, name: CREDENTIAL.name } };

/**
 * A workflow whose nodes run one after the other.
 * @param {string} id
 * @param {string} name
 * @param {Array<Record<string, any>>} nodes each { name, type, typeVersion, parameters, ... }
 */
function chain(id, name, nodes) {
	const connections = Object.fromEntries(
		nodes
			.slice(1)
			.map((node, i) => [nodes[i].name, { main: [[{ node: node.name, type: 'main', index: 0 }]] }]),
	);
	const placed = nodes.map((node, i) => ({
		id: crypto.randomUUID(),
		position: [i * 220, 0],
		...node,
	}));
	return { id, name, nodes: placed, connections, settings: { executionOrder: 'v1' } };
}

/** @param {string} webhookPath POST /webhook/<path>, answered by the Respond node */
const webhook = (webhookPath) => ({
	name: 'Webhook',
	type: 'n8n-nodes-base.webhook',
	typeVersion: 2.1,
	webhookId: crypto.randomUUID(),
	parameters: { httpMethod: 'POST', path: webhookPath, responseMode: 'responseNode', options: {} },
});

/** @param {Record<string, unknown>} parameters */
const search = (parameters) => ({
	name: 'Sound Search',
	type: SEARCH,
	typeVersion: 1,
	parameters: { resource: 'sound', operation: 'search', ...parameters },
	credentials,
});

// All the items back to the caller, and the execution id as a header (relayed from the worker).
const respond = {
	name: 'Respond',
	type: 'n8n-nodes-base.respondToWebhook',
	typeVersion: 1.5,
	parameters: {
		respondWith: 'allIncomingItems',
		options: {
			responseHeaders: { entries: [{ name: 'x-execution-id', value: '={{ $execution.id }}' }] },
		},
	},
};

/**
 * Webhook -> Sound Search (platform, keyword, page size and limit from the request body) -> Respond.
 * @param {boolean} returnAll
 */
function searchWorkflow(returnAll) {
	const [id, webhookPath] = returnAll
		? ['QueueSearchAll01', 'queue-search-all']
		: ['QueueSearchLim01', 'queue-search-limit'];
	const parameters = {
		platform: '={{ $json.body.platform }}',
		query: '={{ $json.body.keyword }}',
		returnAll,
		options: { pageSize: '={{ $json.body.pageSize }}' },
		...(!returnAll && { limit: '={{ $json.body.limit }}' }),
	};
	const name = `Queue test: search by webhook (${returnAll ? 'Return All' : 'Limit'})`;
	return chain(id, name, [webhook(webhookPath), search(parameters), respond]);
}

// Webhook with { keywords: [...] } -> one item per keyword -> Sound Search (2 sounds each) -> Respond.
const keywordList = chain('QueueKeywordLst1', 'Queue test: a keyword list in one execution', [
	webhook('queue-keyword-list'),
	{
		name: 'Keywords',
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		parameters: { jsCode: 'return $json.body.keywords.map((keyword) => ({ json: { keyword } }));' },
	},
	search({ query: '={{ $json.keyword }}', limit: 2 }),
	respond,
]);

// The Sound Search Trigger alone, polled again at once whenever it is published.
const trendTrigger = chain('QueueTrendTrig01', 'Queue test: new sounds trigger', [
	{
		name: 'Sound Trends',
		type: 'n8n-nodes-sound-search.soundSearchTrigger',
		typeVersion: 1,
		parameters: {
			pollTimes: { item: [{ mode: 'everyHour' }] },
			keywords: 'queue trend',
			limit: 10,
			options: { minPollInterval: 0 },
		},
		credentials,
	},
]);

/**
 * The scheduled example as a user would publish it, with two settings adapted to the test: the
 * schedule fires every 10 seconds instead of daily, and the CSV goes where workers may write;
 * with what a run must do (rows, service requests, credits), from the example's settings.
 * @param {string} outputFolder
 */
function scheduledExample(outputFolder) {
	const workflow = JSON.parse(fs.readFileSync(EXAMPLE_FILE, 'utf8'));
	const byType = (/** @type {string} */ type) =>
		workflow.nodes.find((/** @type {any} */ n) => n.type === type);
	const [trigger, settings, searchNode] = ['scheduleTrigger', 'set']
		.map((t) => byType(`n8n-nodes-base.${t}`))
		.concat(byType(SEARCH));
	if (!trigger || !settings || !searchNode)
		throw new Error(
			`${EXAMPLE_FILE}: expected a Schedule Trigger, a Set node and a Sound Search node`,
		);
	trigger.parameters = { rule: { interval: [{ field: 'seconds', secondsInterval: 10 }] } };
	const assignments = settings.parameters.assignments.assignments;
	for (const a of assignments) if (a.name === 'outputFolder') a.value = outputFolder;
	const values = Object.fromEntries(assignments.map((/** @type {any} */ a) => [a.name, a.value]));
	if (values.outputFolder !== outputFolder)
		throw new Error(`${EXAMPLE_FILE}: no "outputFolder" setting`);
	const list = (/** @type {string} */ text) =>
		text
			.split(',')
			.map((x) => x.trim())
			.filter(Boolean);
	const [keywords, platforms, perSearch] = [
		list(values.keywords),
		list(values.platforms),
		Number(values.soundsPerSearch),
	];
	const pages = Math.ceil(perSearch / Number(searchNode.parameters?.options?.pageSize ?? 50));
	const expected = {
		rows: keywords.length * platforms.length * perSearch,
		requests: keywords.length * platforms.length * pages,
		credits: keywords.length * platforms.reduce((sum, p) => sum + PRICE[p] * pages, 0),
	};
	return { workflow: { ...workflow, id: 'QueueTrendSched1' }, keywords, expected };
}

module.exports = { CREDENTIAL, searchWorkflow, keywordList, trendTrigger, scheduledExample };
