import type { IDataObject, IHttpRequestOptions, INode } from 'n8n-workflow';
import { SELECTABLE_FIELDS, TOOL_OUTPUT_DEFAULT } from '../shared/description';
import { invalid, invalidProxy, type ErrorContext } from '../shared/errors';
import {
	checkQuery,
	fieldNamed,
	readPlatform,
	readWholeNumber,
	type Parameters,
	type SearchInput,
	type SoundOutput,
} from '../shared/input';
import { soundSearchFields } from './description';

// What Sound → Search reads of one input item and of n8n's Request Options, checked.

const MAX_CURSOR_LENGTH = 2048;

/** One input item of Sound → Search. */
export function readSearchInput(parameter: Parameters, at: ErrorContext): SearchInput {
	const options = parameter('options', {}) as IDataObject;
	const returnAll = parameter('returnAll') === true;
	const number = (name: string, raw: unknown) => readWholeNumber(at, numberField(name), raw);
	const option = (name: string) => number(name, options[name]);
	return {
		platform: readPlatform(at, parameter('platform')),
		query: checkQuery(at, parameter('query'), 'Query'),
		limit: returnAll ? Infinity : number('limit', parameter('limit', null)),
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

function readStartCursor(at: ErrorContext, value: unknown): string | undefined {
	const cursor = typeof value === 'string' ? value.trim() : value;
	if (cursor === undefined || cursor === null || cursor === '') return undefined;
	// Cursors are opaque single tokens: anything else is a wrong column or a pasted page.
	const token = typeof cursor === 'string' && /^[\x21-\x7e]+$/.test(cursor);
	if (token && cursor.length <= MAX_CURSOR_LENGTH) return cursor;
	throw invalid(
		at,
		'The "Start Cursor" option is not a valid cursor',
		'Use the nextCursor value of an earlier page exactly as the service returned it, or clear the option to start from the first page.',
	);
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
