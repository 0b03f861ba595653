import type {
	DeclarativeRestApiSettings,
	IExecutePaginationFunctions,
	INodeExecutionData,
} from 'n8n-workflow';
import { asNodeError, errorItem } from './failure';
import { fetchPage, type SearchCall } from './fetchPage';
import {
	batchMayProceed,
	failSearch,
	runBaseUrl,
	runScheduler,
	runWasStopped,
	searchFinished,
	shareInBatch,
	validateInBatch,
} from './runBatch';
import { checkBaseUrl, readSearchInput, type SearchInput } from './searchInput';
import type { SearchPage } from './searchPage';
import { SearchProgress } from './searchProgress';
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
		const input = validateInBatch(this, () => readSearchInput(this));
		if (!(await batchMayProceed(this))) return [];
		const search = await searchCall(this, requestData, input);
		const { result: pages, reused } = await shareInBatch(
			this,
			searchKey(input),
			async () => await fetchPages(search),
		);
		searchFinished(this);
		const sounds = pages.flatMap((page, index) =>
			toSoundItems(page, index + 1, input, this.getItemIndex(), reused),
		);
		return sounds.slice(0, input.limit);
	} catch (error) {
		// Another item's failure (or a cancellation) stopped the run: its error is the one to show.
		if (runWasStopped(this, error)) return [];
		const nodeError = asNodeError(this, error);
		if (this.continueOnFail()) return [errorItem(this, nodeError)];
		failSearch(this);
		throw nodeError;
	}
}

async function searchCall(
	ctx: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
	input: SearchInput,
): Promise<SearchCall> {
	const scheduler = runScheduler(ctx, {
		maxInFlight: input.maxInFlight,
		rateLimitWaitMs: input.rateLimitWait * 1000,
	});
	const baseUrl = checkBaseUrl(ctx, await runBaseUrl(ctx));
	return { ctx, requestData, input, scheduler, baseUrl };
}

/** Everything that decides which calls a search makes; output shape and run-wide settings don't. */
function searchKey(input: SearchInput) {
	return JSON.stringify({ ...input, simplify: null, maxInFlight: null, rateLimitWait: null });
}

async function fetchPages(search: SearchCall): Promise<SearchPage[]> {
	const { input } = search;
	const pages: SearchPage[] = [];
	const progress = new SearchProgress(input.maxPages);
	let cursor = input.startCursor;
	for (;;) {
		const limit = Math.min(input.pageSize, input.limit - progress.sounds);
		const page = await fetchPage(search, limit, cursor, (answered) => {
			progress.record(answered);
			if (answered.nextCursor !== null && progress.sounds < input.limit)
				progress.checkNext(search.ctx, { ...answered, nextCursor: answered.nextCursor });
		});
		pages.push(page);
		if (page.nextCursor === null || progress.sounds >= input.limit) return pages;
		cursor = page.nextCursor;
	}
}
