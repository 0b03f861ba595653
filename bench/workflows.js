'use strict';

// The workflows the benchmark imports into n8n, and the credentials they use. Every workflow
// starts with a production Webhook (called by the benchmark over HTTP once the workflow is
// active) and answers with the first item of its last node, so a run's answer is small and
// the same size for every variant: a Summarize item that counts the sounds (and the distinct
// sound ids) that came out, which the benchmark checks after every run.
//
// Variants (same pages, same items out: one item per sound):
//   node    Webhook -> Sound Search (Return All) -> Summarize
//   http    Webhook -> HTTP Request (pagination on nextCursor) -> Split Out (data.items) -> Summarize
//   noop    Webhook -> No Operation (n8n's own floor: webhook + execution, no work)
// plus the scale, credit-matrix and multi-keyword workflows below; keywordScale.js builds those
// of the keyword lists at service scale with the same collector and keyword chains.

const crypto = require('node:crypto');

const PACKAGE_NAME = 'n8n-nodes-sound-search';
const NODE_TYPE = `${PACKAGE_NAME}.soundSearch`;
/** The HTTP Request version a user adding the node today gets (defaultVersion in n8n 2.41.1). */
const HTTP_REQUEST_VERSION = 4.5;
const WEBHOOK_VERSION = 2;

/** Workflow settings: production runs not stored (see BENCHMARKS.md, Method), v1 order. */
const SETTINGS = {
	executionOrder: 'v1',
	saveDataSuccessExecution: 'none',
	saveDataErrorExecution: 'all',
	saveManualExecutions: false,
	saveExecutionProgress: false,
	callerPolicy: 'workflowsFromSameOwner',
};

/** A stable id in n8n's format (16 alphanumerics) derived from a name. */
function idFor(name) {
	const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
	return Array.from(
		crypto.createHash('sha256').update(name).digest().subarray(0, 16),
		(b) => alphabet[b % alphabet.length],
	).join('');
}

/** A stable UUID-shaped id derived from a name (node ids, webhook ids). */
function uuidFor(name) {
	const h = crypto.createHash('sha256').update(name).digest('hex');
	return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * @param {{ serviceUrl: string, apiKey: string, tag: string }} service
 * @returns {{ soundSearch: object, headerAuth: object }} credentials for import:credentials
 */
function credentialsFor(service) {
	return {
		soundSearch: {
			id: idFor(`cred-sound-${service.tag}`),
			name: `Bench Sound Search (${service.tag})`,
			type: 'soundSearchApi',
			data: { apiKey: service.apiKey, baseUrl: service.serviceUrl },
		},
		headerAuth: {
			id: idFor(`cred-header-${service.tag}`),
			name: `Bench Bearer header (${service.tag})`,
			type: 'httpHeaderAuth',
			data: { name: 'Authorization', value: `Bearer ${service.apiKey}` },
		},
	};
}

function webhookNode(wfName, method, path) {
	return {
		id: uuidFor(`${wfName}/webhook`),
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: WEBHOOK_VERSION,
		position: [0, 0],
		webhookId: uuidFor(`${wfName}/webhookId`),
		parameters: {
			httpMethod: method,
			path,
			responseMode: 'lastNode',
			responseData: 'firstEntryJson',
			options: {},
		},
	};
}

function summarizeNode(wfName, x) {
	return {
		id: uuidFor(`${wfName}/summarize`),
		name: 'Summarize',
		type: 'n8n-nodes-base.summarize',
		typeVersion: 1.1,
		position: [x, 0],
		parameters: {
			fieldsToSummarize: {
				values: [
					{ aggregation: 'count', field: 'soundId' },
					{ aggregation: 'countUnique', field: 'soundId' },
				],
			},
			options: {},
		},
	};
}

function splitOutNode(wfName, name, field, x, destination) {
	return {
		id: uuidFor(`${wfName}/${name}`),
		name,
		type: 'n8n-nodes-base.splitOut',
		typeVersion: 1,
		position: [x, 0],
		parameters: {
			fieldToSplitOut: field,
			include: 'noOtherFields',
			options: destination ? { destinationFieldName: destination } : {},
		},
	};
}

/**
 * @param {string} wfName
 * @param {object} cred soundSearchApi credential
 * @param {Record<string, unknown>} parameters Sound Search parameters
 */
function soundSearchNode(wfName, cred, parameters, x) {
	return {
		id: uuidFor(`${wfName}/sound`),
		name: 'Sound Search',
		type: NODE_TYPE,
		typeVersion: 1,
		position: [x, 0],
		parameters: { resource: 'sound', operation: 'search', ...parameters },
		credentials: { soundSearchApi: { id: cred.id, name: cred.name } },
	};
}

/**
 * HTTP Request against the search endpoint; with `paginate`, the built-in pagination follows
 * data.nextCursor ("Update a Parameter in Each Request", query cursor) until it is null.
 */
function httpRequestNode(
	wfName,
	cred,
	{ serviceUrl, platform = 'shortvideo', q, limit, paginate, maxPages = 1000, batching },
	x,
) {
	/** @type {Record<string, unknown>} */
	const options = {};
	// Batching (Options > Batching): batchSize items' requests, then batchInterval ms, and so on.
	if (batching) options.batching = { batch: batching };
	if (paginate) {
		options.pagination = {
			pagination: {
				paginationMode: 'updateAParameterInEachRequest',
				parameters: {
					parameters: [
						{ type: 'qs', name: 'cursor', value: '={{ $response.body.data.nextCursor }}' },
					],
				},
				paginationCompleteWhen: 'other',
				completeExpression: '={{ !$response.body.data.nextCursor }}',
				limitPagesFetched: true,
				maxRequests: maxPages,
			},
		};
	}
	return {
		id: uuidFor(`${wfName}/http`),
		name: 'HTTP Request',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: HTTP_REQUEST_VERSION,
		position: [x, 0],
		parameters: {
			url: `${serviceUrl}/v1/${platform}/sound/search`,
			authentication: 'genericCredentialType',
			genericAuthType: 'httpHeaderAuth',
			sendQuery: true,
			queryParameters: {
				parameters: [
					{ name: 'q', value: q },
					{ name: 'limit', value: String(limit) },
				],
			},
			options,
		},
		credentials: { httpHeaderAuth: { id: cred.id, name: cred.name } },
	};
}

function chain(nodes) {
	/** @type {Record<string, any>} */
	const connections = {};
	for (let i = 0; i + 1 < nodes.length; i++) {
		connections[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	}
	return connections;
}

function workflow(name, nodes) {
	return {
		id: idFor(`wf-${name}`),
		name: `Bench: ${name}`,
		active: false,
		settings: SETTINGS,
		nodes,
		connections: chain(nodes),
	};
}

/**
 * All benchmark workflows.
 * @param {{ timing: {serviceUrl: string, creds: any}, billing: {serviceUrl: string, creds: any},
 *   pagesQuery: string, pagesPageSize: number }} config
 * @returns {{ workflows: object[], paths: Record<string, string> }} paths: webhook path by key
 */
function buildWorkflows({ timing, billing, pagesQuery, pagesPageSize }) {
	const T = timing.creds;
	const B = billing.creds;
	const { workflows, paths, add } = collector();

	// Time: the same Return All over 100 pages of pagesPageSize items.
	add('node', 'GET', (n, hook) => [
		hook,
		soundSearchNode(
			n,
			T.soundSearch,
			{
				platform: 'shortvideo',
				query: pagesQuery,
				returnAll: true,
				options: { pageSize: pagesPageSize },
			},
			220,
		),
		summarizeNode(n, 440),
	]);
	add('http', 'GET', (n, hook) => [
		hook,
		httpRequestNode(
			n,
			T.headerAuth,
			{ serviceUrl: timing.serviceUrl, q: pagesQuery, limit: pagesPageSize, paginate: true },
			220,
		),
		splitOutNode(n, 'Split Out', 'data.items', 440),
		summarizeNode(n, 660),
	]);
	add('noop', 'GET', (n, hook) => [
		hook,
		{
			id: uuidFor(`${n}/noop`),
			name: 'No Operation',
			type: 'n8n-nodes-base.noOp',
			typeVersion: 1,
			position: [220, 0],
			parameters: {},
		},
	]);

	// Scale: Return All of ?q= (catalogue overrides set the totals), pages of 50 (the service cap).
	add('scale-node', 'GET', (n, hook) => [
		hook,
		soundSearchNode(
			n,
			T.soundSearch,
			{
				platform: 'shortvideo',
				query: '={{ $json.query.q }}',
				returnAll: true,
				options: { pageSize: 50, maxPages: 1000 },
			},
			220,
		),
		summarizeNode(n, 440),
	]);
	add('scale-http', 'GET', (n, hook) => [
		hook,
		httpRequestNode(
			n,
			T.headerAuth,
			{ serviceUrl: timing.serviceUrl, q: '={{ $json.query.q }}', limit: 50, paginate: true },
			220,
		),
		splitOutNode(n, 'Split Out', 'data.items', 440),
		summarizeNode(n, 660),
	]);

	// Credits: Limit (or Return All) x platform x page size from the webhook's query string.
	for (const platform of ['shortvideo', 'photosocial']) {
		add(`credits-limit-${platform}`, 'GET', (n, hook) => [
			hook,
			soundSearchNode(
				n,
				B.soundSearch,
				{
					platform,
					query: '={{ $json.query.q }}',
					returnAll: false,
					limit: '={{ Number($json.query.limit) }}',
					options: { pageSize: '={{ Number($json.query.pageSize) }}', maxPages: 1000 },
				},
				220,
			),
			summarizeNode(n, 440),
		]);
		add(`credits-all-${platform}`, 'GET', (n, hook) => [
			hook,
			soundSearchNode(
				n,
				B.soundSearch,
				{
					platform,
					query: '={{ $json.query.q }}',
					returnAll: true,
					options: { pageSize: '={{ Number($json.query.pageSize) }}', maxPages: 1000 },
				},
				220,
			),
			summarizeNode(n, 440),
		]);
	}

	// Several input items: POST {"keywords": [...]} -> one item per keyword -> one search each
	// (Limit 50, the default; one page per keyword).
	add('keywords-node', 'POST', (n, hook) =>
		keywordsNodeChain(n, hook, B.soundSearch, { limit: 50 }),
	);
	add('keywords-http', 'POST', (n, hook) =>
		keywordsHttpChain(n, hook, B.headerAuth, { serviceUrl: billing.serviceUrl, limit: 50 }),
	);
	return { workflows, paths };
}

/**
 * A list of workflows and their webhook paths; add(key, method, build) appends one, whose
 * webhook answers on `bench-<key>` (build gets the workflow's name and its Webhook node).
 */
function collector() {
	/** @type {Record<string, string>} */
	const paths = {};
	/** @type {object[]} */
	const workflows = [];
	const add = (key, method, build) => {
		const path = `bench-${key}`;
		paths[key] = path;
		workflows.push(workflow(key, build(key, webhookNode(key, method, path))));
	};
	return { workflows, paths, add };
}

/**
 * POST {"keywords": [...]} -> one item per keyword -> Sound Search, one search each (Limit
 * `limit`, Options `options` when given) -> Summarize.
 */
function keywordsNodeChain(n, hook, cred, { limit, options }) {
	const parameters = {
		platform: 'shortvideo',
		query: '={{ $json.keyword }}',
		returnAll: false,
		limit,
		...(options ? { options } : {}),
	};
	return [
		hook,
		splitOutNode(n, 'Keywords', 'body.keywords', 220, 'keyword'),
		soundSearchNode(n, cred, parameters, 440),
		summarizeNode(n, 660),
	];
}

/** The same with HTTP Request (one request per item) and Split Out on data.items. */
function keywordsHttpChain(n, hook, cred, { serviceUrl, limit, batching }) {
	return [
		hook,
		splitOutNode(n, 'Keywords', 'body.keywords', 220, 'keyword'),
		httpRequestNode(
			n,
			cred,
			{ serviceUrl, q: '={{ $json.keyword }}', limit, paginate: false, batching },
			440,
		),
		splitOutNode(n, 'Split Out', 'data.items', 660),
		summarizeNode(n, 880),
	];
}

module.exports = {
	buildWorkflows,
	collector,
	keywordsNodeChain,
	keywordsHttpChain,
	credentialsFor,
	PACKAGE_NAME,
	NODE_TYPE,
	HTTP_REQUEST_VERSION,
	WEBHOOK_VERSION,
	SETTINGS,
};
