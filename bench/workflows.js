'use strict';

// The workflows the benchmark imports into n8n, and their credentials. Each starts with a
// production Webhook and answers with the first item of its last node: a Summarize item that
// counts the sounds (and distinct sound ids) that came out, checked after every run. Return All:
//   node    Webhook -> Sound Search (Return All) -> Summarize
//   http    Webhook -> HTTP Request (pagination on nextCursor) -> Split Out (data.items) -> Summarize
//   noop    Webhook -> No Operation (n8n's own floor: webhook and execution, no work)
// Keyword lists (POST {keywords}) split the list into items first: one search per item.

const crypto = require('node:crypto');
const { n8nId } = require('../test/harness/n8n/cli');

const PACKAGE_NAME = 'n8n-nodes-sound-search';
/** The HTTP Request version a user adding the node today gets (defaultVersion in n8n 2.41.1). */
const HTTP_REQUEST_VERSION = 4.5;
const WEBHOOK_VERSION = 2;

/** Keyword lists against the scale service (phases/keylists.js, phases/quotas.js). */
const KEYLISTS = {
	LIMIT: 10,
	LATENCY_MS: 150,
	CAPACITY: 4,
	SLOW_CAPACITY: 20,
	// HTTP Request's Batching paces the starts only, so an interval under the latency plus n8n's
	// jitter overlaps two batches and one 429 fails the run: tried in order until one completes.
	BATCH_INTERVALS_MS: [180, 250],
};
/** The quotas, and HTTP Request's Batching tuned by hand to each (a batch of the quota). */
const QUOTAS = {
	perSecond: { limit: 10, windowMs: 1000, batchIntervalsMs: [1000, 1100, 1250] },
	perMinute: { limit: 60, windowMs: 60_000, batchIntervalsMs: [60_000, 61_000] },
	// --smoke: a "per-minute" quota on a short window, so that it runs in seconds.
	smokeWindow: { limit: 20, windowMs: 2000, batchIntervalsMs: [2000] },
};
/**
 * Issue 50's small caps with a quick service (phases/moving.js), and HTTP Request's Batching
 * tuned by hand to each: a batch of the cap, intervals a little above the latency, tried in order.
 */
const QUICK_CAPS = [
	{ capacity: 4, latencyMs: 150, batchIntervalsMs: [180, 250] },
	{ capacity: 6, latencyMs: 400, batchIntervalsMs: [430, 500] },
];
/** HTTP Request batched by hand: `size` requests, then a pause of `interval` ms, and so on. */
const batchKey = (size, interval) => `keylist-http-batch-${size}-${interval}`;
const BATCHES = /** @type {[number, number[]][]} */ ([
	[KEYLISTS.CAPACITY, KEYLISTS.BATCH_INTERVALS_MS],
	...QUICK_CAPS.map((c) => [c.capacity, c.batchIntervalsMs]),
	...Object.values(QUOTAS).map((q) => [q.limit, q.batchIntervalsMs]),
]);

/**
 * The node remembers what it learnt of a service per credential (Base URL and API key). So that
 * one case's lessons do not leak into the next, each case runs on its own slot: an API key of
 * the scale service, a credential with it and a Sound Search workflow on that credential. A
 * case's first run is the node's first contact with the service, the next ones later runs. The
 * keyword cases run at two latencies, by role: 'base' (150 ms) and 'slow' (options.js).
 */
const ROLES = ['base', 'slow'];
const SLOTS = [
	`capped-${KEYLISTS.CAPACITY}`,
	`capped-${KEYLISTS.SLOW_CAPACITY}`,
	'doomed',
	// Issue 50's limits that move (phases/moving.js).
	'raised',
	'stopped',
	...QUICK_CAPS.map((c) => `quick-${c.capacity}`),
	'bucket',
	...ROLES.flatMap((r) =>
		['open', 'second', 'second-headers', 'window', 'window-headers', 'flood', 'shared'].map(
			(kind) => `${kind}-${r}`,
		),
	),
];
const keyOf = (slot) => `bench-key-${slot}`;
const nodeWorkflowOf = (slot) => `keylist-node-${slot}`;
/** Another client flooding the quota: HTTP Request on the flood slot's key. */
const floodWorkflowOf = (role) => `keylist-http-flood-${role}`;

/** Production runs not stored, so that the database write of the items does not dominate. */
const SETTINGS = {
	executionOrder: 'v1',
	saveDataSuccessExecution: 'none',
	saveDataErrorExecution: 'all',
	saveManualExecutions: false,
	saveExecutionProgress: false,
	callerPolicy: 'workflowsFromSameOwner',
};

/** Stable ids derived from a name, as n8n writes them (16 alphanumerics). */
const idFor = (name) => n8nId(crypto.createHash('sha256').update(name).digest());

/** The node's credential and HTTP Request's Header Auth, both on one service and key. */
const credentialsFor = ({ serviceUrl, apiKey, tag }) => ({
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
});

const node = (name, type, typeVersion, parameters, extra = {}) => ({
	name,
	type: type.includes('.') ? type : `n8n-nodes-base.${type}`,
	typeVersion,
	parameters,
	...extra,
});
const uses = (key, cred) => ({ credentials: { [key]: { id: cred.id, name: cred.name } } });

const summarize = node('Summarize', 'summarize', 1.1, {
	fieldsToSummarize: {
		values: ['count', 'countUnique'].map((aggregation) => ({ aggregation, field: 'soundId' })),
	},
	options: {},
});
const splitOut = (name, field, options = {}) =>
	node(name, 'splitOut', 1, { fieldToSplitOut: field, include: 'noOtherFields', options });
const splitKeywords = splitOut('Keywords', 'body.keywords', { destinationFieldName: 'keyword' });
const soundSearch = (cred, parameters) => [
	node(
		'Sound Search',
		`${PACKAGE_NAME}.soundSearch`,
		1,
		{ resource: 'sound', operation: 'search', ...parameters },
		uses('soundSearchApi', cred.soundSearch),
	),
	summarize,
];

/** HTTP Request's pagination on data.nextCursor ("Update a Parameter in Each Request"). */
const PAGINATION = {
	pagination: {
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
			maxRequests: 1000,
		},
	},
};

/** HTTP Request on the search endpoint: one search per item (paginated, batched, as asked). */
function httpRequest(cred, serviceUrl, q, limit, options = {}) {
	const parameters = {
		url: `${serviceUrl}/v1/shortvideo/sound/search`,
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
	};
	const auth = uses('httpHeaderAuth', cred.headerAuth);
	return node('HTTP Request', 'httpRequest', HTTP_REQUEST_VERSION, parameters, auth);
}
const httpSounds = (...args) => [
	httpRequest(...args),
	splitOut('Split Out', 'data.items'),
	summarize,
];

/** The workflow `key`, answering on `bench-<key>` (POST for keyword lists): Webhook, `nodes`. */
function workflow(key, nodes) {
	const hook = {
		httpMethod: key.startsWith('key') ? 'POST' : 'GET',
		path: `bench-${key}`,
		responseMode: 'lastNode',
		responseData: 'firstEntryJson',
		options: {},
	};
	const webhookId = crypto.randomUUID();
	const all = [node('Webhook', 'webhook', WEBHOOK_VERSION, hook, { webhookId }), ...nodes].map(
		(n, i) => ({ id: crypto.randomUUID(), position: [220 * i, 0], ...n }),
	);
	const next = (i) => ({ main: [[{ node: all[i + 1].name, type: 'main', index: 0 }]] });
	const connections = Object.fromEntries(all.slice(0, -1).map((n, i) => [n.name, next(i)]));
	const name = `Bench: ${key}`;
	return {
		id: idFor(`wf-${key}`),
		name,
		active: false,
		settings: SETTINGS,
		nodes: all,
		connections,
	};
}

const Q = '={{ $json.query.q }}';
const fromQuery = (name) => `={{ Number($json.query.${name}) }}`;
const KEYWORD = '={{ $json.keyword }}';

/** A keyword list: one search per keyword, Sound Search or HTTP Request (batched if asked). */
const keywords = (cred, limit) => [
	splitKeywords,
	...soundSearch(cred, { platform: 'shortvideo', query: KEYWORD, returnAll: false, limit }),
];
const keywordsHttp = (cred, url, limit, batch) => [
	splitKeywords,
	...httpSounds(cred, url, KEYWORD, limit, batch ? { batching: { batch } } : {}),
];

/**
 * All benchmark workflows.
 * @param {{ timing: string, billing: string, scale: string, creds: Record<string, any>,
 *   pagesQuery: string, pageSize: number }} c service URLs, credentials by service (and
 *   `creds.slots` by slot of the scale service)
 */
function buildWorkflows({ timing, billing, scale, creds, pagesQuery, pageSize }) {
	const [T, B, S] = [creds.timing, creds.billing, creds.scale];
	const all = { platform: 'shortvideo', returnAll: true };
	const credits = (platform, returnAll) =>
		soundSearch(B, {
			platform,
			query: Q,
			returnAll,
			...(returnAll ? {} : { limit: fromQuery('limit') }),
			options: { pageSize: fromQuery('pageSize'), maxPages: 1000 },
		});
	const flood = (role) => {
		const options = { response: { response: { neverError: true } } };
		const cred = creds.slots[`flood-${role}`];
		return [splitKeywords, httpRequest(cred, scale, KEYWORD, KEYLISTS.LIMIT, options)];
	};
	const defs = {
		node: soundSearch(T, { ...all, query: pagesQuery, options: { pageSize } }),
		http: httpSounds(T, timing, pagesQuery, pageSize, PAGINATION),
		noop: [node('No Operation', 'noOp', 1, {})],
		'scale-node': soundSearch(T, { ...all, query: Q, options: { pageSize: 50, maxPages: 1000 } }),
		'scale-http': httpSounds(T, timing, Q, 50, PAGINATION),
		...Object.fromEntries(
			['shortvideo', 'photosocial'].flatMap((p) => [
				[`credits-limit-${p}`, credits(p, false)],
				[`credits-all-${p}`, credits(p, true)],
			]),
		),
		'keywords-node': keywords(B, 50),
		'keywords-http': keywordsHttp(B, billing, 50),
		'keylist-http': keywordsHttp(S, scale, KEYLISTS.LIMIT),
		...Object.fromEntries(
			SLOTS.map((s) => [nodeWorkflowOf(s), keywords(creds.slots[s], KEYLISTS.LIMIT)]),
		),
		...Object.fromEntries(ROLES.map((role) => [floodWorkflowOf(role), flood(role)])),
		...Object.fromEntries(
			BATCHES.flatMap(([batchSize, intervals]) =>
				intervals.map((batchInterval) => [
					batchKey(batchSize, batchInterval),
					keywordsHttp(S, scale, KEYLISTS.LIMIT, { batchSize, batchInterval }),
				]),
			),
		),
	};
	return Object.entries(defs).map(([key, nodes]) => workflow(key, nodes));
}

/**
 * One keyword-list workflow of Sound Search on a credential `{id, name}` already in n8n (the
 * queue-mode measurement, bench/queue.js): POST bench-<key> {keywords}.
 */
const keywordListWorkflow = (key, credential) =>
	workflow(key, keywords({ soundSearch: credential }, KEYLISTS.LIMIT));

module.exports = {
	buildWorkflows,
	keywordListWorkflow,
	credentialsFor,
	KEYLISTS,
	QUOTAS,
	QUICK_CAPS,
	batchKey,
	SLOTS,
	keyOf,
	nodeWorkflowOf,
	floodWorkflowOf,
	HTTP_REQUEST_VERSION,
	WEBHOOK_VERSION,
};
