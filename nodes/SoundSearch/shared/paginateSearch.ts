import {
	NodeOperationError,
	type DeclarativeRestApiSettings,
	type IDataObject,
	type IExecutePaginationFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';
import { ServiceAnswerError } from './answerError';
import { batchMayProceed, validateInBatch } from './inputBatch';
import { readSearchInput, type SearchInput } from './searchInput';
import type { SearchPage } from './searchPage';
import { serviceError } from './serviceError';
import { toSoundItems } from './soundItems';

/**
 * Custom pagination for the declarative Search operation: follows nextCursor, asking each page for
 * no more sounds than are still needed, and stops as soon as Limit sounds are in hand.
 */
export async function paginateSearch(
	this: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[]> {
	const input = validateInBatch(this, () => readSearchInput(this));
	if (!(await batchMayProceed(this))) return [];
	const sounds: INodeExecutionData[] = [];
	const seenCursors = new Set<string>();
	let cursor = input.startCursor;
	for (let pageNumber = 1; ; pageNumber++) {
		const page = await fetchPage(this, requestData, input, pageSize(input, sounds.length), cursor);
		sounds.push(...toSoundItems(page, pageNumber, input, this.getItemIndex()));
		if (page.nextCursor === null || sounds.length >= input.limit) break;
		if (seenCursors.has(page.nextCursor)) throw repeatedCursor(this, pageNumber);
		seenCursors.add(page.nextCursor);
		cursor = page.nextCursor;
	}
	return sounds.slice(0, input.limit);
}

function pageSize(input: SearchInput, collected: number): number {
	return Math.min(input.pageSize, input.limit - collected);
}

async function fetchPage(
	ctx: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
	input: SearchInput,
	limit: number,
	cursor: string | undefined,
): Promise<SearchPage> {
	const qs: IDataObject = { ...requestData.options.qs, q: input.query, limit };
	if (cursor !== undefined) qs.cursor = cursor;
	try {
		const [page] = await ctx.makeRoutingRequest({ ...requestData, options: { ...requestData.options, qs } });
		return page.json as unknown as SearchPage;
	} catch (error) {
		// Errors of our own (bad envelope, available: false) are already clear; HTTP failures are not.
		throw error instanceof ServiceAnswerError ? error : serviceError(ctx, error);
	}
}

function repeatedCursor(ctx: IExecutePaginationFunctions, pageNumber: number) {
	return new NodeOperationError(ctx.getNode(), 'The service returned a cursor it had already returned', {
		itemIndex: ctx.getItemIndex(),
		description: `Page ${pageNumber} pointed back to an earlier page, so following it would loop forever (and spend credits on every lap). The search was stopped.`,
	});
}
