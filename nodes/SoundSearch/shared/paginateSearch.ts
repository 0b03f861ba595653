import {
	sleep,
	type DeclarativeRestApiSettings,
	type IDataObject,
	type IExecutePaginationFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';
import { ServiceAnswerError } from './answerError';
import { asNodeError, errorItem } from './failure';
import { retryDelayMs } from './retryPolicy';
import { batchMayProceed, shareInBatch, validateInBatch } from './runBatch';
import { readSearchInput, type SearchInput } from './searchInput';
import type { SearchPage } from './searchPage';
import { SearchProgress } from './searchProgress';
import { failedCall, serviceError } from './serviceError';
import { toSoundItems } from './soundItems';

/**
 * Custom pagination for the declarative Search operation: follows nextCursor, asking each page for
 * no more sounds than are still needed, and stops as soon as Limit sounds are in hand.
 */
export async function paginateSearch(
	this: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[]> {
	try {
		const input = validateInBatch(this, () => readSearchInput(this, requestData.options.baseURL));
		if (!(await batchMayProceed(this))) return [];
		const { result: pages, reused } = await shareInBatch(
			this,
			searchKey(input),
			async () => await fetchPages(this, requestData, input),
		);
		const sounds = pages.flatMap((page, index) =>
			toSoundItems(page, index + 1, input, this.getItemIndex(), reused),
		);
		return sounds.slice(0, input.limit);
	} catch (error) {
		const nodeError = asNodeError(this, error);
		if (!this.continueOnFail()) throw nodeError;
		return [errorItem(this, nodeError)];
	}
}

/** Everything that decides which calls a search makes; Simplify Output only shapes the items. */
function searchKey(input: SearchInput) {
	return JSON.stringify({ ...input, simplify: null });
}

async function fetchPages(
	ctx: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
	input: SearchInput,
): Promise<SearchPage[]> {
	const pages: SearchPage[] = [];
	const progress = new SearchProgress(input.maxPages);
	let cursor = input.startCursor;
	for (;;) {
		const limit = Math.min(input.pageSize, input.limit - progress.sounds);
		const page = await fetchPage(ctx, requestData, input, limit, cursor);
		progress.record(page);
		pages.push(page);
		if (page.nextCursor === null || progress.sounds >= input.limit) return pages;
		progress.checkNext(ctx, { ...page, nextCursor: page.nextCursor });
		cursor = page.nextCursor;
	}
}

/** One page, retried within the page's own budget when the failure is worth another try. */
async function fetchPage(
	ctx: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
	input: SearchInput,
	limit: number,
	cursor: string | undefined,
): Promise<SearchPage> {
	const qs: IDataObject = { ...requestData.options.qs, q: input.query, limit };
	if (cursor !== undefined) qs.cursor = cursor;
	const options = { ...requestData.options, qs, timeout: input.timeoutMs };
	for (let attempt = 1; ; attempt++) {
		try {
			const [page] = await ctx.makeRoutingRequest({ ...requestData, options });
			return page.json as unknown as SearchPage;
		} catch (error) {
			// An answer that came back (available: false, wrong shape) would come back again.
			if (error instanceof ServiceAnswerError) throw asNodeError(ctx, error);
			const call = failedCall(error);
			const delay = retryDelayMs(call, attempt, input.maxRetries);
			if (delay === undefined || ctx.getExecutionCancelSignal()?.aborted)
				throw serviceError(ctx, call, attempt);
			await sleep(delay);
		}
	}
}
