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
// plus the scale, credit-matrix, several-keywords and keyword-list workflows below.

const crypto = require('node:crypto');
const { n8nId } = require('../test/harness/n8n/cli');

const PACKAGE_NAME = 'n8n-nodes-sound-search';
/** The HTTP Request version a user adding the node today gets (defaultVersion in n8n 2.41.1). */
const HTTP_REQUEST_VERSION = 4.5;
const WEBHOOK_VERSION = 2;

/** Keyword lists at service scale (phases/keylists.js): the set-up of its workflows. */
const KEYLISTS = {
	LIMIT: 10,
	LATENCY_MS: 150,
	CAPACITY: 4,
	// 96 beside the powers of two: about the most calls n8n had in flight at once with every
	// item's request started together (HTTP Request untuned), and about the largest bound whose
	// first contact (bound - 4 refused calls) keeps 429s within 10 % of 1,000 keywords.
	SWEEP: [16, 32, 64, 96, 128, 256],
	// HTTP Request's Batching only paces the starts (batchSize requests, then batchInterval ms,
	// not waiting for answers), so an interval under the latency plus n8n's jitter overlaps two
	// batches and one 429 fails the run. Tried in order until one completes.
	BATCH_INTERVALS_MS: [180, 250],
};

/** Workflow settings: production runs not stored (see BENCHMARKS.md, Method), v1 order. */
const SETTINGS = {
	executionOrder: 'v1',
	saveDataSuccessExecution: 'none',
	saveDataErrorExecution: 'all',
	saveManualExecutions: false,
	saveExecutionProgress: false,
	callerPolicy: 'workflowsFromSameOwner',
};

const hash = (name) => crypto.createHash('sha256').update(name);
/** A stable id in n8n's format (16 alphanumerics) derived from a name. */
const idFor = (name) => n8nId(hash(name).digest());
/** A stable UUID-shaped id derived from a name (node ids, webhook ids). */
function uuidFor(name) {
	const h = hash(name).digest('hex');
	return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** @param {{ serviceUrl: string, apiKey: string, tag: string }} service */
function credentialsFor({ serviceUrl, apiKey, tag }) {
	return {
		soundSearch: {
			id: idFor(`cred-sound-${tag}`),
			name: `Bench Sound Search (${tag})`,
			type: 'soundSearchApi',
			data: { apiKey, baseUrl: serviceUrl },
		},
		headerAuth: {
			id: idFor(`cred-header-${tag}`),
			name: `Bench Bearer header (${tag})`,
			type: 'httpHeaderAuth',
			data: { name: 'Authorization', value: `Bearer ${apiKey}` },
		},
	};
}

/** A node of n8n-nodes-base (or `type` in full) with the given name, version and parameters. */
const node = (name, type, typeVersion, parameters, extra = {}) => ({
	name,
	type: type.includes('.') ? type : `n8n-nodes-base.${type}`,
	typeVersion,
	parameters,
	...extra,
});

const summarize = () =>
	node('Summarize', 'summarize', 1.1, {
		fieldsToSummarize: {
			values: ['count', 'countUnique'].map((aggregation) => ({ aggregation, field: 'soundId' })),
		},
		options: {},
	});
const splitOut = (name, field, destination = '') =>
	node(name, 'splitOut', 1, {
		fieldToSplitOut: field,
		include: 'noOtherFields',
		options: destination ? { destinationFieldName: destination } : {},
	});
const soundSearch = (cred, parameters) =>
	node(
		'Sound Search',
		`${PACKAGE_NAME}.soundSearch`,
		1,
		{ resource: 'sound', operation: 'search', ...parameters },
		{ credentials: { soundSearchApi: { id: cred.id, name: cred.name } } },
	);

/** HTTP Request's pagination on data.nextCursor ("Update a Parameter in Each Request"). */
const PAGINATION = {
	pagination: {
		paginationMode: 'updateAParameterInEachRequest',
		parameters: {
			parameters: [{ type: 'qs', name: 'cursor', value: '={{ $response.body.data.nextCursor }}' }],
		},
		paginationCompleteWhen: 'other',
		completeExpression: '={{ !$response.body.data.nextCursor }}',
		limitPagesFetched: true,
		maxRequests: 1000,
	},
};

/** HTTP Request against the search endpoint: paginated, or with Batching (Options > Batching). */
function httpRequest(cred, serviceUrl, q, limit, how) {
	const options = how.paginate
		? { pagination: PAGINATION }
		: how.batching
			? { batching: { batch: how.batching } }
			: {};
	const queryParameters = {
		parameters: [
			{ name: 'q', value: q },
			{ name: 'limit', value: String(limit) },
		],
	};
	const parameters = {
		url: `${serviceUrl}/v1/shortvideo/sound/search`,
		authentication: 'genericCredentialType',
		genericAuthType: 'httpHeaderAuth',
		sendQuery: true,
		queryParameters,
		options,
	};
	return node('HTTP Request', 'httpRequest', HTTP_REQUEST_VERSION, parameters, {
		credentials: { httpHeaderAuth: { id: cred.id, name: cred.name } },
	});
}

/** A workflow named for `key`, answering on `bench-<key>`: Webhook, then `nodes` in a chain. */
function workflow(key, method, nodes) {
	const webhook = node(
		'Webhook',
		'webhook',
		WEBHOOK_VERSION,
		{
			httpMethod: method,
			path: `bench-${key}`,
			responseMode: 'lastNode',
			responseData: 'firstEntryJson',
			options: {},
		},
		{ webhookId: uuidFor(`${key}/webhookId`) },
	);
	const all = [webhook, ...nodes].map((n, i) => ({
		id: uuidFor(`${key}/${n.name}`),
		position: [220 * i, 0],
		...n,
	}));
	const next = (i) => ({
		main: [[{ node: all[i + 1].name, type: 'main', index: 0 }]],
	});
	const connections = Object.fromEntries(all.slice(0, -1).map((n, i) => [n.name, next(i)]));
	return {
		id: idFor(`wf-${key}`),
		name: `Bench: ${key}`,
		active: false,
		settings: SETTINGS,
		nodes: all,
		connections,
	};
}

const Q = '={{ $json.query.q }}';
const FROM_QUERY = (name) => `={{ Number($json.query.${name}) }}`;

/** Sound Search with these parameters, then Summarize. */
const searchChain = (cred, parameters) => [soundSearch(cred.soundSearch, parameters), summarize()];
/** HTTP Request paginated on nextCursor, Split Out on data.items, Summarize. */
const returnAllHttp = (cred, url, q, limit) => [
	httpRequest(cred.headerAuth, url, q, limit, { paginate: true }),
	splitOut('Split Out', 'data.items'),
	summarize(),
];
/** POST {"keywords": [...]} -> one item per keyword -> one search each (Limit, Options). */
const keywordNodes = (cred, limit, options = /** @type {object | undefined} */ (undefined)) => [
	splitOut('Keywords', 'body.keywords', 'keyword'),
	...searchChain(cred, {
		platform: 'shortvideo',
		query: '={{ $json.keyword }}',
		returnAll: false,
		limit,
		...(options ? { options } : {}),
	}),
];
/** The same with HTTP Request (one request per item, Batching when given). */
const keywordHttp = (
	cred,
	url,
	limit,
	batching = /** @type {object | undefined} */ (undefined),
) => [
	splitOut('Keywords', 'body.keywords', 'keyword'),
	httpRequest(cred.headerAuth, url, '={{ $json.keyword }}', limit, { batching }),
	splitOut('Split Out', 'data.items'),
	summarize(),
];
/** Credit matrix: Limit (or Return All) and Page Size from the webhook's query string. */
const creditsChain = (cred, platform, returnAll) =>
	searchChain(cred, {
		platform,
		query: Q,
		returnAll,
		...(returnAll ? {} : { limit: FROM_QUERY('limit') }),
		options: { pageSize: FROM_QUERY('pageSize'), maxPages: 1000 },
	});

/**
 * All benchmark workflows, as [key, method, nodes after the Webhook].
 * @param {{ timing: string, billing: string, scale: string, creds: Record<string, any>,
 *   pagesQuery: string, pagesPageSize: number }} c service URLs, credentials by service
 */
function definitions({ timing, billing, scale, creds, pagesQuery, pagesPageSize }) {
	const [T, B, S] = [creds.timing, creds.billing, creds.scale];
	const { LIMIT, CAPACITY, SWEEP, BATCH_INTERVALS_MS } = KEYLISTS;
	const all = { platform: 'shortvideo', returnAll: true };
	const pages = { pageSize: pagesPageSize };
	return [
		['node', 'GET', searchChain(T, { ...all, query: pagesQuery, options: pages })],
		['http', 'GET', returnAllHttp(T, timing, pagesQuery, pagesPageSize)],
		['noop', 'GET', [node('No Operation', 'noOp', 1, {})]],
		[
			'scale-node',
			'GET',
			searchChain(T, { ...all, query: Q, options: { pageSize: 50, maxPages: 1000 } }),
		],
		['scale-http', 'GET', returnAllHttp(T, timing, Q, 50)],
		...['shortvideo', 'photosocial'].flatMap((p) => [
			[`credits-limit-${p}`, 'GET', creditsChain(B, p, false)],
			[`credits-all-${p}`, 'GET', creditsChain(B, p, true)],
		]),
		['keywords-node', 'POST', keywordNodes(B, 50)],
		['keywords-http', 'POST', keywordHttp(B, billing, 50)],
		['keylist-node', 'POST', keywordNodes(S, LIMIT)],
		['keylist-http', 'POST', keywordHttp(S, scale, LIMIT)],
		...SWEEP.map((m) => [`keylist-node-${m}`, 'POST', keywordNodes(S, LIMIT, { maxInFlight: m })]),
		...BATCH_INTERVALS_MS.map((ms) => [
			`keylist-http-batch-${ms}`,
			'POST',
			keywordHttp(S, scale, LIMIT, { batchSize: CAPACITY, batchInterval: ms }),
		]),
	];
}

/** @param {Parameters<typeof definitions>[0]} config @returns {{ workflows: object[], paths: Record<string, string> }} */
function buildWorkflows(config) {
	const defs = definitions(config);
	const workflows = defs.map(([key, method, nodes]) =>
		workflow(String(key), String(method), /** @type {any[]} */ (nodes)),
	);
	return { workflows, paths: Object.fromEntries(defs.map(([key]) => [key, `bench-${key}`])) };
}

module.exports = {
	buildWorkflows,
	credentialsFor,
	KEYLISTS,
	PACKAGE_NAME,
	HTTP_REQUEST_VERSION,
	WEBHOOK_VERSION,
};
