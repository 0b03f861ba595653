import { NodeOperationError, type IDataObject, type INodeProperties } from 'n8n-workflow';
import { soundSearchFields } from '../resources/sound/search';
import type { ErrorContext } from './failure';
import { SELECTABLE_FIELDS, TOOL_OUTPUT_DEFAULT } from './outputFields';
import { isPlatform, type Platform } from './platforms';
import type { SoundOutput } from './soundItems';

/** What reading a node's input needs: its parameters, and where an error points. */
export type InputContext = ErrorContext & {
	getNodeParameter(name: string, fallback?: unknown): unknown;
};

/** What one input item asks for, checked before any (paid) request is made. */
export interface SearchInput {
	platform: Platform;
	query: string;
	/** Infinity when Return All is on. */
	limit: number;
	pageSize: number;
	startCursor?: string;
	/** How each sound becomes an item (Simplify, the tool's Output, version 1's Simplify Output). */
	output: SoundOutput;
	/** Run-wide: credits the run may spend; Infinity when Max Credits is left out. */
	maxCredits: number;
	/** Calls one search may make before it stops (a guard against runaway spend). */
	maxPages: number;
	/** Retries of one page after a service failure, a timeout or a dropped connection. */
	maxRetries: number;
	timeoutMs: number;
	/** Run-wide (taken from the first item that searches): most calls in flight at once. */
	maxInFlight: number;
	/** Run-wide: seconds the run may spend waiting on rate limits (429) in all. */
	rateLimitWait: number;
}

const MAX_CURSOR_LENGTH = 2048;

export function readSearchInput(ctx: InputContext): SearchInput {
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	const returnAll = ctx.getNodeParameter('returnAll') === true;
	const option = (name: string) => readWholeNumber(ctx, numberField(name), options[name]);
	return {
		platform: readPlatform(ctx),
		query: checkQuery(ctx, ctx.getNodeParameter('query'), 'Query'),
		limit: returnAll
			? Infinity
			: readWholeNumber(ctx, numberField('limit'), ctx.getNodeParameter('limit', null)),
		pageSize: option('pageSize'),
		startCursor: readStartCursor(ctx, options.startCursor),
		output: readSoundOutput(ctx, options),
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
function readSoundOutput(ctx: InputContext, options: IDataObject): SoundOutput {
	const { type, typeVersion } = ctx.getNode();
	if (typeVersion < 2) return { mode: options.simplify === true ? 'flat' : 'raw' };
	if (!type.endsWith('Tool'))
		return { mode: ctx.getNodeParameter('simplify') === false ? 'raw' : 'simplified' };
	const output = ctx.getNodeParameter('output', TOOL_OUTPUT_DEFAULT);
	if (output === 'raw' || output === 'simplified') return { mode: output };
	const fields = ctx.getNodeParameter('fields', []);
	const known =
		Array.isArray(fields) && fields.every((f) => f === 'soundId' || SELECTABLE_FIELDS.includes(f));
	if (output === 'selected' && known) return { mode: 'selected', fields: fields as string[] };
	throw invalid(
		ctx,
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
 * The credential's Base URL: an http(s) address, with or without a path (a gateway's prefix such
 * as https://api.vendor.example/sound-search); the node appends /v1/... to it. Returned without
 * trailing slashes. A query, fragment or user info would be sent along with the key: refused.
 */
export function checkBaseUrl(ctx: ErrorContext, baseUrl: unknown): string {
	const text = String(baseUrl);
	const url = URL.canParse(text) ? new URL(text) : undefined;
	const web = url && ['http:', 'https:'].includes(url.protocol);
	if (web && !/[?#]/.test(text) && !url.username && !url.password)
		return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
	throw invalid(
		ctx,
		`The "Base URL" of the Sound Search API credential is not an http(s) address without query, fragment or user info: ${JSON.stringify(text.slice(0, 80))}`,
		'Set it to the service address, like https://sound-search.example.com, http://127.0.0.1:4010 or https://api.vendor.example/sound-search (the node adds /v1/... to it), without a query, fragment or user info.',
	);
}
export function invalid(ctx: ErrorContext, message: string, description: string) {
	const itemIndex = ctx.getItemIndex();
	return new NodeOperationError(ctx.getNode(), `${message} [item ${itemIndex}]`, {
		itemIndex,
		description: `${description} No request was sent and no credits were spent.`,
	});
}

export function readPlatform(ctx: InputContext): Platform {
	const platform = ctx.getNodeParameter('platform');
	if (isPlatform(platform)) return platform;
	throw invalid(
		ctx,
		`The "Platform" parameter is not a known platform: ${JSON.stringify(platform)}`,
		'Use "shortvideo" or "photosocial".',
	);
}

/** A keyword, trimmed; `field` names the parameter it came from in errors. */
export function checkQuery(ctx: ErrorContext, query: unknown, field: string): string {
	if (typeof query !== 'string') {
		throw invalid(
			ctx,
			`The "${field}" parameter must be text, but its expression gave ${describe(query)}`,
			'Make the expression return a keyword string, e.g. {{ String($json.keyword) }}.',
		);
	}
	const trimmed = query.trim();
	if (trimmed === '') {
		throw invalid(
			ctx,
			`The "${field}" parameter is empty`,
			'Enter a keyword to search for, or check that the expression or spreadsheet column it reads has a value for this item.',
		);
	}
	return trimmed;
}

/** Checks a number against its description's range; an unset option takes its default. */
export function readWholeNumber(ctx: ErrorContext, field: INodeProperties, raw: unknown): number {
	const value = raw ?? field.default;
	const { minValue: min, maxValue: max } = field.typeOptions as {
		minValue: number;
		maxValue: number;
	};
	if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max)
		return value;
	const name = field.displayName;
	throw invalid(
		ctx,
		`The "${name}" parameter must be a whole number from ${min} to ${max}, but it is ${describe(value)}`,
		name === 'Limit'
			? 'Set a limit of at least 1, or turn on Return All.'
			: `Set "${name}" to a whole number in that range.`,
	);
}

function readStartCursor(ctx: ErrorContext, value: unknown): string | undefined {
	if (value === undefined || value === null) return undefined;
	const cursor = typeof value === 'string' ? value.trim() : value;
	if (cursor === '') return undefined;
	// Cursors are opaque, but they are single tokens: whitespace, control characters or a huge
	// value mean a wrong column or a pasted page, and sending it would only earn a refusal.
	if (
		typeof cursor === 'string' &&
		cursor.length <= MAX_CURSOR_LENGTH &&
		/^[\x21-\x7e]+$/.test(cursor)
	) {
		return cursor;
	}
	throw invalid(
		ctx,
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
