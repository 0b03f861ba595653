import type { INodeProperties } from 'n8n-workflow';
import { PLATFORMS, type Platform } from './description';
import { baseUrlNotValid, invalid, type ErrorContext } from './errors';

// The checks both nodes make of what they were asked, before any (paid) call, and what a search
// asks for. Parameters come as a function, so nothing here sees an n8n context.

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

/** A parameter's description, top level or in Options (both nodes have it): its range and default. */
export function fieldNamed(fields: INodeProperties[], name: string): INodeProperties {
	const { options } = fields.find((field) => field.name === 'options') as INodeProperties;
	const all = [...fields, ...(options as INodeProperties[])];
	return all.find((field) => field.name === name) as INodeProperties;
}

/**
 * The credential's Base URL, without trailing slashes: an http(s) address, perhaps with a path (a
 * gateway's prefix); undefined when it is not. A query, fragment or user info would be sent with
 * the key: refused.
 */
export function parseBaseUrl(baseUrl: unknown): string | undefined {
	const text = String(baseUrl);
	const url = URL.canParse(text) ? new URL(text) : undefined;
	const web = url && ['http:', 'https:'].includes(url.protocol);
	if (web && !/[?#]/.test(text) && !url.username && !url.password)
		return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
	return undefined;
}

/** parseBaseUrl's address, or the node's error that says what to set. */
export function checkBaseUrl(at: ErrorContext, baseUrl: unknown): string {
	const url = parseBaseUrl(baseUrl);
	if (url !== undefined) return url;
	throw invalid(at, ...baseUrlNotValid(String(baseUrl)));
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

function describe(value: unknown): string {
	if (typeof value === 'string') return `the text ${JSON.stringify(value.slice(0, 40))}`;
	if (value === null || value === undefined) return 'empty';
	if (typeof value === 'object') return Array.isArray(value) ? 'a list' : 'an object';
	return `${typeof value} ${String(value)}`;
}
