import { NodeOperationError, type IDataObject, type IExecuteSingleFunctions } from 'n8n-workflow';
import { isPlatform, type Platform } from './platforms';

/** What one input item asks for, checked before any (paid) request is made. */
export interface SearchInput {
	platform: Platform;
	query: string;
	/** Infinity when Return All is on. */
	limit: number;
	pageSize: number;
	startCursor?: string;
	simplify: boolean;
}

export const MAX_LIMIT = 100_000;
export const MAX_PAGE_SIZE = 100;
const MAX_CURSOR_LENGTH = 2048;

export function readSearchInput(ctx: IExecuteSingleFunctions): SearchInput {
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	const returnAll = ctx.getNodeParameter('returnAll', false) === true;
	return {
		platform: readPlatform(ctx),
		query: readQuery(ctx),
		limit: returnAll ? Infinity : readWholeNumber(ctx, 'Limit', ctx.getNodeParameter('limit', 50), MAX_LIMIT),
		pageSize: readWholeNumber(ctx, 'Page Size', options.pageSize ?? MAX_PAGE_SIZE / 2, MAX_PAGE_SIZE),
		startCursor: readStartCursor(ctx, options.startCursor),
		simplify: options.simplify === true,
	};
}

function invalid(ctx: IExecuteSingleFunctions, message: string, description: string) {
	const itemIndex = ctx.getItemIndex();
	return new NodeOperationError(ctx.getNode(), `${message} [item ${itemIndex}]`, {
		itemIndex,
		description: `${description} No request was sent and no credits were spent.`,
	});
}

function readPlatform(ctx: IExecuteSingleFunctions): Platform {
	const platform = ctx.getNodeParameter('platform', 'shortvideo');
	if (isPlatform(platform)) return platform;
	throw invalid(
		ctx,
		`The "Platform" parameter is not a known platform: ${JSON.stringify(platform)}`,
		'Use "shortvideo" or "photosocial".',
	);
}

function readQuery(ctx: IExecuteSingleFunctions): string {
	const query = ctx.getNodeParameter('query', '');
	if (typeof query !== 'string') {
		throw invalid(
			ctx,
			`The "Query" parameter must be text, but its expression gave ${describe(query)}`,
			'Make the expression return a keyword string, e.g. {{ String($json.keyword) }}.',
		);
	}
	const trimmed = query.trim();
	if (trimmed === '') {
		throw invalid(
			ctx,
			'The "Query" parameter is empty',
			'Enter a keyword to search for, or check that the expression or spreadsheet column it reads has a value for this item.',
		);
	}
	return trimmed;
}

function readWholeNumber(ctx: IExecuteSingleFunctions, name: string, value: unknown, max: number): number {
	if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= max) return value;
	throw invalid(
		ctx,
		`The "${name}" parameter must be a whole number from 1 to ${max}, but it is ${describe(value)}`,
		name === 'Limit' ? 'Set a limit of at least 1, or turn on Return All.' : `Set "${name}" to a whole number.`,
	);
}

function readStartCursor(ctx: IExecuteSingleFunctions, value: unknown): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const cursor = typeof value === 'string' ? value.trim() : value;
	if (cursor === '') return undefined;
	// Cursors are opaque, but they are single tokens: whitespace, control characters or a huge
	// value mean a wrong column or a pasted page, and sending it would only earn a refusal.
	if (typeof cursor === 'string' && cursor.length <= MAX_CURSOR_LENGTH && /^[\x21-\x7e]+$/.test(cursor)) {
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
