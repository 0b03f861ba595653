import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecuteFunctions,
	IExecutePaginationFunctions,
	INodeExecutionData,
	NodeExecutionHint,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import { budgetOfRun, type CreditTally } from './creditBudget';
import type { PageRequest } from './fetchPage';
import { paginateSearch, searchKey } from './paginateSearch';
import { readRequestOptions, type RequestSettings } from './requestOptions';
import { readSearchInput } from './searchInput';
import { sendSearch } from './sendSearch';
import { count } from './wording';

/**
 * Sound → Search as a custom operation of the declarative node: n8n runs it in the node's execute
 * context, the one context that can add execution hints (the run's cost in the output panel);
 * the routing node's per-item contexts cannot. Every input item's search runs as the routing node
 * would run it: all started in one synchronous loop (so all validate before any spends), each
 * through the same paginator, the first failure (in item order) failing the run.
 */
export async function searchSounds(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const settings = readRequestOptions(
		this.getNode(),
		this.getNodeParameter('requestOptions', 0, {}) as IDataObject,
	);
	const contexts = items.map((_, itemIndex) => itemContext(this, itemIndex, settings));
	const searches: Array<Promise<INodeExecutionData[]>> = [];
	for (const [index, ctx] of contexts.entries()) {
		// Request Options → Batching spaces items out as n8n's routing node does.
		if (settings.batch && index > 0 && index % settings.batch.size === 0)
			await sleep(settings.batch.intervalMs);
		searches.push(paginateSearch.call(ctx, NO_ROUTING));
	}
	const results = await Promise.allSettled(searches);
	const failed = results.find((result) => result.status === 'rejected');
	if (failed?.status === 'rejected') throw failed.reason;
	const tally = budgetOfRun(this.getExecuteData())?.tally;
	this.addExecutionHints(costHint(tally, repeatsSearchedOnce(contexts)));
	return [results.flatMap((result) => (result.status === 'fulfilled' ? result.value : []))];
}

/** The paginator builds each request itself; n8n's routing adds nothing here. */
const NO_ROUTING: DeclarativeRestApiSettings.ResultOptions = {
	options: { url: '' },
	preSend: [],
	postReceive: [],
};

/** What the paginator needs of one input item, from the node's execute context. */
function itemContext(
	ctx: IExecuteFunctions,
	itemIndex: number,
	settings: RequestSettings,
): IExecutePaginationFunctions {
	const item = {
		getNode: () => ctx.getNode(),
		getItemIndex: () => itemIndex,
		getNodeParameter: (name: string, fallback?: unknown) =>
			ctx.getNodeParameter(name, itemIndex, fallback),
		// With Batching, the first item checks every item's parameters before any call (runBatch).
		evaluateExpression: (expression: string, index: number) =>
			ctx.evaluateExpression(expression, index),
		continueOnFail: () => ctx.continueOnFail(),
		getExecuteData: () => ctx.getExecuteData(),
		getCredentials: async (type: string) => await ctx.getCredentials(type, itemIndex),
		getExecutionCancelSignal: () => ctx.getExecutionCancelSignal(),
		makeRoutingRequest: async ({ options }: DeclarativeRestApiSettings.ResultOptions) => {
			const { baseURL, url, qs, timeout } = options as PageRequest;
			const request = { baseURL, url, qs, timeout };
			const abortSignal = ctx.getExecutionCancelSignal();
			const answer = await sendSearch(ctx, item, request, { ...settings.http, abortSignal });
			return [{ json: answer as unknown as IDataObject }];
		},
	};
	return item as unknown as IExecutePaginationFunctions;
}

/** Input items whose search was the same as an earlier item's (made once, reused). */
function repeatsSearchedOnce(contexts: IExecutePaginationFunctions[]): number {
	const keys = contexts.flatMap((ctx) => {
		try {
			return [searchKey(readSearchInput(ctx))];
		} catch {
			return []; // an item with bad input searched nothing
		}
	});
	return keys.length - new Set(keys).size;
}

function costHint(tally: CreditTally | undefined, repeats: number): NodeExecutionHint {
	const { calls = 0, credits = 0, cachedPages = 0 } = tally ?? {};
	return {
		message:
			`This run cost ${count(credits, 'credit')}: ${count(calls, 'call')} to the service ` +
			`(${cachedPages} answered free from its cache), ` +
			`${count(repeats, 'repeated search', 'repeated searches')} made once.`,
		type: 'info',
		location: 'outputPane',
	};
}
