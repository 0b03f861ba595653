import type { IDataObject, IHttpRequestOptions, INode, INodeProperties } from 'n8n-workflow';
import { soundSearchFields } from '../SoundSearch/description';
import { PLATFORMS, SELECTABLE_FIELDS, TOOL_OUTPUT_DEFAULT, type Platform } from './description';
import { invalid, invalidProxy, type ErrorContext } from './errors';

// Reading and checking what a node was asked, before any (paid) call. Each item's parameters come
// as a function, so nothing here sees an n8n context.

export type Parameters = (name: string, fallback?: unknown) => unknown;

/**
 * How a sound becomes an item: raw (the service's fields, plus creditsCharged and page); flat
 * (media as URL strings, plus platform and query: version 1's Simplify Output, and what the
 * trigger's Simplify picks from); simplified (SIMPLIFIED_FIELDS); selected (an AI tool's fields).
 */
export type SoundOutput =
	| { mode: 'raw' }
	| { mode: 'flat' }
	| { mode: 'simplified' }
	| { mode: 'selected'; fields: string[] };

/**
 * What one search asks for (an input item, a keyword of a poll), checked. `limit` and `maxCredits`
 * are Infinity for Return All and no cap; the run takes the last three from its first search.
 */
export interface SearchInput {
	platform: Platform;
	query: string;
	limit: number;
	pageSize: number;
	startCursor?: string;
	output: SoundOutput;
	maxPages: number;
	maxRetries: number;
	timeoutMs: number;
	maxCredits: number;
	maxInFlight: number;
	rateLimitWait: number;
}

const MAX_CURSOR_LENGTH = 2048;

/** One input item of Sound → Search. */
export function readSearchInput(parameter: Parameters, at: ErrorContext): SearchInput {
	const options = parameter('options', {}) as IDataObject;
	const returnAll = parameter('returnAll') === true;
	const option = (name: string) => readWholeNumber(at, numberField(name), options[name]);
	return {
		platform: readPlatform(at, parameter('platform')),
		query: checkQuery(at, parameter('query'), 'Query'),
		limit: returnAll
			? Infinity
			: readWholeNumber(at, numberField('limit'), parameter('limit', null)),
		pageSize: option('pageSize'),
		startCursor: readStartCursor(at, options.startCursor),
		output: readSoundOutput(parameter, at, options),
		maxCredits: options.maxCredits === undefined ? Infinity : option('maxCredits'),
		maxPages: option('maxPages'),
		maxRetries: option('maxRetries'),
		timeoutMs: option('timeoutMs'),
		maxInFlight: option('maxInFlight'),
		rateLimitWait: option('rateLimitWait'),
	};
}

/**
 * Version 1: the "Simplify Output" option (flat). Version 2: Simplify, or as an AI tool (n8n names
 * a tool's type after the node's, with "Tool" at the end) the Output parameter.
 */
function readSoundOutput(
	parameter: Parameters,
	at: ErrorContext,
	options: IDataObject,
): SoundOutput {
	const { type, typeVersion } = at.node;
	if (typeVersion < 2) return { mode: options.simplify === true ? 'flat' : 'raw' };
	if (!type.endsWith('Tool'))
		return { mode: parameter('simplify') === false ? 'raw' : 'simplified' };
	const output = parameter('output', TOOL_OUTPUT_DEFAULT);
	if (output === 'raw' || output === 'simplified') return { mode: output };
	const fields = parameter('fields', []);
	const known =
		Array.isArray(fields) && fields.every((f) => f === 'soundId' || SELECTABLE_FIELDS.includes(f));
	if (output === 'selected' && known) return { mode: 'selected', fields: fields as string[] };
	throw invalid(
		at,
		`The "Output" parameter is not a known choice: ${JSON.stringify([output, fields])}`,
		`Choose Raw, Simplified, or Selected Fields with fields among ${SELECTABLE_FIELDS.join(', ')}.`,
	);
}

const numberField = (name: string) => fieldNamed(soundSearchFields, name);

/** A parameter's description, top level or in Options (both nodes have it): its range and default. */
export function fieldNamed(fields: INodeProperties[], name: string): INodeProperties {
	const { options } = fields.find((field) => field.name === 'options') as INodeProperties;
	const all = [...fields, ...(options as INodeProperties[])];
	return all.find((field) => field.name === name) as INodeProperties;
}

/**
 * The credential's Base URL, without trailing slashes: an http(s) address, perhaps with a path (a
 * gateway's prefix). A query, fragment or user info would be sent with the key: refused.
 */
export function checkBaseUrl(at: ErrorContext, baseUrl: unknown): string {
	const text = String(baseUrl);
	const url = URL.canParse(text) ? new URL(text) : undefined;
	const web = url && ['http:', 'https:'].includes(url.protocol);
	if (web && !/[?#]/.test(text) && !url.username && !url.password)
		return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
	throw invalid(
		at,
		`The "Base URL" of the Sound Search API credential is not an http(s) address without query, fragment or user info: ${JSON.stringify(text.slice(0, 80))}`,
		'Set it to the service address, like https://sound-search.example.com, http://127.0.0.1:4010 or https://api.vendor.example/sound-search (the node adds /v1/... to it), without a query, fragment or user info.',
	);
}

export function readPlatform(at: ErrorContext, platform: unknown): Platform {
	if (typeof platform === 'string' && Object.prototype.hasOwnProperty.call(PLATFORMS, platform))
		return platform as Platform;
	throw invalid(
		at,
		`The "Platform" parameter is not a known platform: ${JSON.stringify(platform)}`,
		'Use "shortvideo" or "photosocial".',
	);
}

/** A keyword, trimmed; `field` names the parameter it came from in errors. */
export function checkQuery(at: ErrorContext, query: unknown, field: string): string {
	if (typeof query !== 'string')
		throw invalid(
			at,
			`The "${field}" parameter must be text, but its expression gave ${describe(query)}`,
			'Make the expression return a keyword string, e.g. {{ String($json.keyword) }}.',
		);
	const trimmed = query.trim();
	if (trimmed === '')
		throw invalid(
			at,
			`The "${field}" parameter is empty`,
			'Enter a keyword to search for, or check that the expression or spreadsheet column it reads has a value for this item.',
		);
	return trimmed;
}

/** A number parameter's range, as its description gives it. */
export const rangeOf = (field: INodeProperties) =>
	field.typeOptions as { minValue: number; maxValue: number };

/** Checks a number against its description's range; an unset option takes its default. */
export function readWholeNumber(at: ErrorContext, field: INodeProperties, raw: unknown): number {
	const value = raw ?? field.default;
	const { minValue: min, maxValue: max } = rangeOf(field);
	if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max)
		return value;
	const name = field.displayName;
	throw invalid(
		at,
		`The "${name}" parameter must be a whole number from ${min} to ${max}, but it is ${describe(value)}`,
		name === 'Limit'
			? 'Set a limit of at least 1, or turn on Return All.'
			: `Set "${name}" to a whole number in that range.`,
	);
}

function readStartCursor(at: ErrorContext, value: unknown): string | undefined {
	if (value === undefined || value === null) return undefined;
	const cursor = typeof value === 'string' ? value.trim() : value;
	if (cursor === '') return undefined;
	// Cursors are opaque single tokens: anything else is a wrong column or a pasted page.
	const token = typeof cursor === 'string' && /^[\x21-\x7e]+$/.test(cursor);
	if (token && cursor.length <= MAX_CURSOR_LENGTH) return cursor;
	throw invalid(
		at,
		'The "Start Cursor" option is not a valid cursor',
		'Use the nextCursor value of an earlier page exactly as the service returned it, or clear the option to start from the first page.',
	);
}

function describe(value: unknown): string {
	if (typeof value === 'string') return `the text ${JSON.stringify(value.slice(0, 40))}`;
	if (value === null || value === undefined) return 'empty';
	if (typeof value === 'object') return Array.isArray(value) ? 'a list' : 'an object';
	return `${typeof value} ${String(value)}`;
}

/**
 * n8n's "Request Options" of a declarative node (proxy, Ignore SSL Issues, Batching), applied as
 * its routing node does; its Timeout gives way to the node's own Timeout option.
 */
export interface RequestSettings {
	http: Partial<IHttpRequestOptions>;
	batch?: { size: number; intervalMs: number };
}

export function readRequestOptions(node: INode, options: IDataObject): RequestSettings {
	const { proxy, allowUnauthorizedCerts, batching } = options;
	const http: Partial<IHttpRequestOptions> = {};
	if (typeof proxy === 'string' && proxy !== '') http.proxy = proxyOf(node, proxy);
	if (allowUnauthorizedCerts === true) http.skipSslCertificateValidation = true;
	const batch = (batching as { batch?: { batchSize?: number; batchInterval?: number } })?.batch;
	const size = typeof batch?.batchSize === 'number' && batch.batchSize > 0 ? batch.batchSize : 1;
	const intervalMs = typeof batch?.batchInterval === 'number' ? batch.batchInterval : 0;
	return { http, ...(intervalMs > 0 && { batch: { size, intervalMs } }) };
}

function proxyOf(node: INode, value: string): IHttpRequestOptions['proxy'] {
	let url: URL;
	try {
		url = new URL(value);
	} catch {
		throw invalidProxy(node, value);
	}
	const auth = url.username
		? { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) }
		: undefined;
	return {
		host: url.hostname,
		port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
		protocol: url.protocol.replace(/:$/, ''),
		...(auth && { auth }),
	};
}
