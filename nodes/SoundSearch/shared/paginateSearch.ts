import type {
	DeclarativeRestApiSettings,
	ExecutionBaseError,
	IExecutePaginationFunctions,
	INodeExecutionData,
} from 'n8n-workflow';
import { CreditBudgetReached, runBudget } from './creditBudget';
import { asNodeError, errorItem } from './failure';
import { fetchPages, type PageRequest, type SearchCall } from './fetchPage';
import {
	batchMayProceed,
	failSearch,
	runBaseUrl,
	runProgress,
	runScheduler,
	runWasStopped,
	searchFinished,
	shareInBatch,
	validateInBatch,
} from './runBatch';
import { checkBaseUrl, readSearchInput, type SearchInput } from './searchInput';
import type { SearchAnswer } from './searchPage';
import { toSoundItems } from './soundItems';

/**
 * Custom pagination for the declarative Search operation: follows nextCursor, asking each page for
 * no more sounds than are still needed, and stops as soon as Limit sounds are in hand.
 */
export async function paginateSearch(
	this: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[]> {
	let searched: SearchInput | undefined;
	try {
		const input = validateInBatch(this, readSearchInput);
		searched = input;
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
		if (this.continueOnFail())
			return [budgetAware(this, errorItem(this, nodeError), nodeError, searched)];
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
	// Through the routing node, so n8n applies the credential and Request Options, and the
	// operation's postReceive (readSearchPage) reads the answer.
	const send = async (request: PageRequest) => {
		const options = { ...requestData.options, ...request, ignoreHttpStatusErrors: true };
		const [item] = await ctx.makeRoutingRequest({ ...requestData, options });
		return item.json as unknown as SearchAnswer;
	};
	return {
		errors: ctx,
		input,
		scheduler,
		budget: runBudget(ctx, scheduler, input.maxCredits),
		baseUrl,
		send,
		onFailure: () => failSearch(ctx),
		progress: () => runProgress(ctx),
	};
}

/**
 * A search the credit budget stopped carries its keyword and platform, so its error item can be fed
 * back into a Sound Search node (Query {{ $json.query }}). On the error output n8n itself adds the
 * input item's fields, and only an item of error and details goes there: it is left as it is.
 */
function budgetAware(
	ctx: IExecutePaginationFunctions,
	item: INodeExecutionData,
	error: ExecutionBaseError,
	input: SearchInput | undefined,
): INodeExecutionData {
	if (!(error instanceof CreditBudgetReached) || !input) return item;
	if (ctx.getNode().onError === 'continueErrorOutput') return item;
	return { ...item, json: { ...item.json, query: input.query, platform: input.platform } };
}

/** Everything that decides which calls a search makes; output shape and run-wide settings don't. */
export function searchKey(input: SearchInput) {
	const runWide = { maxInFlight: null, rateLimitWait: null, maxCredits: null };
	return JSON.stringify({ ...input, output: null, ...runWide });
}
