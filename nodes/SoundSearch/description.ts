import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import {
	limitField,
	maxCreditsOption,
	PLATFORM_PRICES,
	platformOptions,
	simplifyField,
	simplifyOutputOption,
	toolOutputFields,
} from '../shared/description';

// The Sound Search node's parameters. Descriptions only: the node file hands in the routing.

const showForSound = { resource: ['sound'] };

export const resourceField: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: [{ name: 'Sound', value: 'sound' }],
	default: 'sound',
};

/** The Operation parameter; `routing` is how n8n's routing node runs Search (the node file's). */
export function operationField(routing: INodePropertyOptions['routing']): INodeProperties {
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: showForSound },
		options: [
			{
				name: 'Search',
				value: 'search',
				action: 'Search sounds by keyword',
				description: 'Search public sounds (audio tracks) by keyword on one platform',
				routing,
			},
		],
		default: 'search',
	};
}

const showForSearch = { resource: ['sound'], operation: ['search'] };
// Version 2 follows n8n's output conventions (Simplify, the tool's Output); version 1 keeps the
// "Simplify Output" option for the workflows saved with it.
const showForSearchV2 = { ...showForSearch, '@version': [2] };

export const soundSearchFields: INodeProperties[] = [
	{
		displayName: 'Platform',
		name: 'platform',
		type: 'options',
		displayOptions: { show: showForSearch },
		options: platformOptions,
		default: 'shortvideo',
		description: `Which platform to search: ${PLATFORM_PRICES}. One call returns up to Page Size sounds (50), so a Limit above that makes more calls, each billed.`,
	},
	{
		displayName: 'Query',
		name: 'query',
		type: 'string',
		required: true,
		displayOptions: { show: showForSearch },
		default: '',
		placeholder: 'e.g. lofi',
		description:
			'Keyword to search sounds and music tracks for, such as a song title, artist or mood. Must not be empty.',
	},
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		displayOptions: { show: showForSearch },
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	limitField(100000, { show: { ...showForSearch, returnAll: [false] } }),
	simplifyField({ show: showForSearchV2, hide: { '@tool': [true] } }),
	...toolOutputFields(showForSearchV2),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		displayOptions: { show: showForSearch },
		default: {},
		options: [
			{
				displayName: 'Max Calls in Flight',
				name: 'maxInFlight',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 500 },
				default: 200,
				description:
					"Most calls to the service at once in one run of this node, across all input items and pages: a list starts at once, up to it. When the service answers 429 (rate limited) or refuses connections, the node lowers its calls in flight or paces them to a quota per second or minute, and it paces to a quota the service's RateLimit headers announce before any refusal. What a run learns is kept for the next run with the same credential in this n8n. Set it to a limit you know your plan has. Taken from the first input item.",
			},
			maxCreditsOption('run'),
			{
				displayName: 'Max Pages',
				name: 'maxPages',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 10000 },
				default: 100,
				description:
					'Most calls one search may make (per input item) before it stops with an error that says how to go on. Guards against surprise bills: raise it for very large Return All searches.',
			},
			{
				displayName: 'Max Wait on Rate Limits',
				name: 'rateLimitWait',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: 3600 },
				default: 300,
				description:
					"Seconds one run of this node may wait on rate limits (429) without any of its calls going through before it stops with an error. A run moving at the service's quota never runs out of it, however long the list. Rate-limited calls are not charged. Taken from the first input item.",
			},
			{
				displayName: 'Page Size',
				name: 'pageSize',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 100 },
				default: 50,
				description:
					'How many sounds to ask for per call. A call costs the same whatever its size, so bigger pages cost fewer credits; the service may return fewer than asked.',
			},
			{
				displayName: 'Retries per Page',
				name: 'maxRetries',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: 5 },
				default: 2,
				description:
					'How many times to retry a page after a failure of the service (5xx), a timeout or a dropped connection, waiting 1 s, 2 s, 4 s… Rate limits (429) are retried within Max Wait on Rate Limits instead; other errors are never retried',
			},
			simplifyOutputOption({ show: { '@version': [1] } }, ', plus the platform and query searched'),
			{
				displayName: 'Start Cursor',
				name: 'startCursor',
				type: 'string',
				default: '',
				description:
					'Continue a search from this cursor (the nextCursor an earlier page returned) instead of from the first page',
			},
			{
				displayName: 'Timeout',
				name: 'timeoutMs',
				type: 'number',
				typeOptions: { minValue: 1000, maxValue: 300000 },
				default: 30000,
				description:
					'Milliseconds to wait for each call before giving up on it (and retrying it, see Retries per Page)',
			},
		],
	},
];
