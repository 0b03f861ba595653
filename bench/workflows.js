'use strict';

// The workflows the benchmark imports into n8n, and their credentials. Each starts with a
// production Webhook and answers with the first item of its last node: a Summarize item that
// counts the sounds (and distinct sound ids) that came out, small and the same for every variant,
// which the benchmark checks after every run (the flood of phases/flood.js answers with its first
// HTTP Request item instead: most of its calls are refused). The Return All variants:
//   node    Webhook -> Sound Search (Return All) -> Summarize
//   http    Webhook -> HTTP Request (pagination on nextCursor) -> Split Out (data.items) -> Summarize
//   noop    Webhook -> No Operation (n8n's own floor: webhook and execution, no work)

const crypto = require('node:crypto');
const { QUOTAS, batchKey } = require('./phases/quotaRun');
const C = require('./contacts');
const { n8nId } = require('../test/harness/n8n/cli');

const PACKAGE_NAME = 'n8n-nodes-sound-search';
/** The HTTP Request version a user adding the node today gets (defaultVersion in n8n 2.41.1). */
const HTTP_REQUEST_VERSION = 4.5;
const WEBHOOK_VERSION = 2;

/** Keyword lists at service scale (phases/keylists.js). */
const KEYLISTS = {
	LIMIT: 10,
	LATENCY_MS: C.BASE_LATENCY_MS,
	CAPACITY: 4,
	// Issue 30: a service capped at this many calls in flight, at the slow latency (contacts.js).
	SLOW_CAPACITY: 20,
	// 96 beside the powers of two: about the most calls n8n had in flight at once with every
	// item's request started together (HTTP Request untuned), and about the largest bound whose
	// first contact (bound - 4 refused calls) keeps 429s within 10 % of 1,000 keywords.
	SWEEP: [16, 32, 64, 96, 128, 256],
	// HTTP Request's Batching only paces the starts (batchSize requests, then batchInterval ms,
	// not waiting for answers), so an interval under the latency plus n8n's jitter overlaps two
	// batches and one 429 fails the run. Tried in order until one completes.
	BATCH_INTERVALS_MS: [180, 250],
};
/** The scale service's slots (contacts.js): one API key and credential pair each. */
const SCALE_SLOTS = C.slotsFor(KEYLISTS.SWEEP, [KEYLISTS.CAPACITY, KEYLISTS.SLOW_CAPACITY]);

/** Production runs not stored (see BENCHMARKS.md, Method), v1 order. */
const SETTINGS = {
	executionOrder: 'v1',
	saveDataSuccessExecution: 'none',
	saveDataErrorExecution: 'all',
	saveManualExecutions: false,
	saveExecutionProgress: false,
	callerPolicy: 'workflowsFromSameOwner',
};

const hash = (name) => crypto.createHash('sha256').update(name);
/** Stable ids derived from a name: n8n's 16 alphanumerics, and UUID-shaped (nodes, webhooks). */
const idFor = (name) => n8nId(hash(name).digest());
function uuidFor(name) {
	const h = hash(name).digest('hex');
	return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** @param {{ serviceUrl: string, apiKey: string, tag: string }} service */
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

/** A node of n8n-nodes-base (or `type` in full). */
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
const splitOut = (name, field, destinationFieldName = '') =>
	node(name, 'splitOut', 1, {
		fieldToSplitOut: field,
		include: 'noOtherFields',
		options: destinationFieldName ? { destinationFieldName } : {},
	});
const splitKeywords = splitOut('Keywords', 'body.keywords', 'keyword');
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
	paginationMode: 'updateAParameterInEachRequest',
	parameters: {
		parameters: [{ type: 'qs', name: 'cursor', value: '={{ $response.body.data.nextCursor }}' }],
	},
	paginationCompleteWhen: 'other',
	completeExpression: '={{ !$response.body.data.nextCursor }}',
	limitPagesFetched: true,
	maxRequests: 1000,
};

/** HTTP Request on the search endpoint (paginated, or batched), then Split Out, Summarize. */
const httpRequest = (cred, serviceUrl, q, limit, options) => [
	httpRequestNode(cred, serviceUrl, q, limit, options),
	splitOut('Split Out', 'data.items'),
	summarize,
];

/** The HTTP Request node alone: one search per item. */
function httpRequestNode(cred, serviceUrl, q, limit, options) {
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

/** The workflow `key`, answering on `bench-<key>` (GET, POST for keyword lists): Webhook, `nodes`. */
function workflow(key, nodes) {
	const hook = {
		httpMethod: key.startsWith('key') ? 'POST' : 'GET',
		path: `bench-${key}`,
		responseMode: 'lastNode',
		responseData: 'firstEntryJson',
		options: {},
	};
	const webhook = node('Webhook', 'webhook', WEBHOOK_VERSION, hook, {
		webhookId: uuidFor(`${key}/webhookId`),
	});
	const all = [webhook, ...nodes].map((n, i) => ({
		id: uuidFor(`${key}/${n.name}`),
		position: [220 * i, 0],
		...n,
	}));
	const next = (i) => ({ main: [[{ node: all[i + 1].name, type: 'main', index: 0 }]] });
	const connections = Object.fromEntries(all.slice(0, -1).map((n, i) => [n.name, next(i)]));
	const settings = SETTINGS;
	return {
		id: idFor(`wf-${key}`),
		name: `Bench: ${key}`,
		active: false,
		settings,
		nodes: all,
		connections,
	};
}

const Q = '={{ $json.query.q }}';
const fromQuery = (name) => `={{ Number($json.query.${name}) }}`;
const KEYWORD = '={{ $json.keyword }}';

/** A keyword list (POST {keywords}): one search per keyword, Sound Search or HTTP Request. */
const keywords = (cred, limit, options) => [
	splitKeywords,
	...soundSearch(cred, {
		platform: 'shortvideo',
		query: KEYWORD,
		returnAll: false,
		limit,
		...(options && { options }),
	}),
];
const keywordsHttp = (cred, url, limit, batch) => [
	splitKeywords,
	...httpRequest(cred, url, KEYWORD, limit, batch ? { batching: { batch } } : {}),
];

/**
 * The scale service's slot workflows (contacts.js): Sound Search on each slot's credential; and,
 * per latency, the flood: HTTP Request on the flood slot's key, every request at once, each 429
 * kept as an answer (Never Error) so that the flood completes.
 */
function slotWorkflows(scale, slots) {
	const flood = (role) => {
		const options = { response: { response: { neverError: true } } };
		const request = httpRequestNode(
			slots[C.slot.flood(role)],
			scale,
			KEYWORD,
			KEYLISTS.LIMIT,
			options,
		);
		return [C.floodWorkflowOf(role), [splitKeywords, request]];
	};
	return [
		...SCALE_SLOTS.map(({ name, options }) => [
			C.nodeWorkflowOf(name),
			keywords(slots[name], KEYLISTS.LIMIT, options),
		]),
		...C.LATENCY_ROLES.map(flood),
	];
}

/**
 * All benchmark workflows.
 * @param {{ timing: string, billing: string, scale: string, creds: Record<string, any>,
 *   pagesQuery: string, pagesPageSize: number }} c service URLs, credentials by service (and
 *   `creds.slots` by slot of the scale service)
 */
function buildWorkflows({ timing, billing, scale, creds, pagesQuery, pagesPageSize }) {
	const [T, B, S] = [creds.timing, creds.billing, creds.scale];
	const { LIMIT, CAPACITY, BATCH_INTERVALS_MS } = KEYLISTS;
	const all = { platform: 'shortvideo', returnAll: true };
	const paginated = { pagination: { pagination: PAGINATION } };
	const credits = (platform, returnAll) =>
		soundSearch(B, {
			platform,
			query: Q,
			returnAll,
			...(returnAll ? {} : { limit: fromQuery('limit') }),
			options: { pageSize: fromQuery('pageSize'), maxPages: 1000 },
		});
	const batched = (batchInterval) => ({ batchSize: CAPACITY, batchInterval });
	// phases/quotas.js: HTTP Request batched by hand to each quota (batches of the quota).
	const quotaBatches = [QUOTAS.perSecond, QUOTAS.perMinute, QUOTAS.smokeWindow].flatMap((quota) =>
		quota.batchIntervalsMs.map((batchInterval) => [
			batchKey(quota, batchInterval),
			keywordsHttp(S, scale, QUOTAS.LIMIT, { batchSize: quota.limit, batchInterval }),
		]),
	);
	const defs = {
		node: soundSearch(T, { ...all, query: pagesQuery, options: { pageSize: pagesPageSize } }),
		http: httpRequest(T, timing, pagesQuery, pagesPageSize, paginated),
		noop: [node('No Operation', 'noOp', 1, {})],
		'scale-node': soundSearch(T, { ...all, query: Q, options: { pageSize: 50, maxPages: 1000 } }),
		'scale-http': httpRequest(T, timing, Q, 50, paginated),
		'credits-limit-shortvideo': credits('shortvideo', false),
		'credits-all-shortvideo': credits('shortvideo', true),
		'credits-limit-photosocial': credits('photosocial', false),
		'credits-all-photosocial': credits('photosocial', true),
		'keywords-node': keywords(B, 50),
		'keywords-http': keywordsHttp(B, billing, 50),
		'keylist-http': keywordsHttp(S, scale, LIMIT),
		...Object.fromEntries(slotWorkflows(scale, creds.slots)),
		...Object.fromEntries(
			BATCH_INTERVALS_MS.map((ms) => [
				`keylist-http-batch-${ms}`,
				keywordsHttp(S, scale, LIMIT, batched(ms)),
			]),
		),
		...Object.fromEntries(quotaBatches),
	};
	return Object.entries(defs).map(([key, nodes]) => workflow(key, nodes));
}

module.exports = {
	buildWorkflows,
	credentialsFor,
	KEYLISTS,
	SCALE_SLOTS,
	PACKAGE_NAME,
	HTTP_REQUEST_VERSION,
	WEBHOOK_VERSION,
};
