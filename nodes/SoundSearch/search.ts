import {
	sleep,
	type ExecutionBaseError,
	type IDataObject,
	type IExecuteFunctions,
	type IExecutePaginationFunctions,
	type INode,
	type INodeExecutionData,
	type NodeExecutionHint,
} from 'n8n-workflow';
import { asNodeError, CreditBudgetReached, errorItem, type ErrorContext } from '../shared/errors';
import {
	checkBaseUrl,
	readRequestOptions,
	readSearchInput,
	type Parameters,
	type RequestSettings,
	type SearchInput,
} from '../shared/input';
import { count, toSoundItems } from '../shared/output';
import { SearchRun, type SearchOutcome } from '../shared/run';
import { searchSender, type SendPage } from '../shared/transport';

// Sound → Search, as n8n runs it: the edge between n8n's contexts and the search run. It reads
// what n8n holds (parameters, credential, settings) into plain values, runs the searches, and
// shapes their outcomes into items.

/**
 * The workflow node, and an AI Agent 3 tool (n8n runs its tool node as a node of the workflow):
 * a custom operation, in the node's execute context, the one context that can show the run's
 * cost as an execution hint.
 */
export async function searchSounds(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const node = this.getNode();
	const request = readRequestOptions(
		node,
		this.getNodeParameter('requestOptions', 0, {}) as IDataObject,
	);
	const cancelSignal = this.getExecutionCancelSignal();
	const { items, run } = await searchItems({
		node,
		items: this.getInputData().map((_, itemIndex) => ({
			itemIndex,
			parameter: (name, fallback) => this.getNodeParameter(name, itemIndex, fallback),
		})),
		baseUrl: (await this.getCredentials('soundSearchApi', 0)).baseUrl,
		request,
		send: searchSender(this, { ...request.http, abortSignal: cancelSignal }),
		continueOnFail: this.continueOnFail(),
		cancelSignal,
	});
	this.addExecutionHints(costHint(run));
	return [items];
}

/**
 * An AI tool that n8n calls directly (MCP Server Trigger, AI Agent up to 2.2, sub-agents): n8n runs
 * the node's routing, whose pagination this is, once per tool call (one item).
 */
export async function searchAsTool(
	this: IExecutePaginationFunctions,
): Promise<INodeExecutionData[]> {
	const node = this.getNode();
	const request = readRequestOptions(
		node,
		this.getNodeParameter('requestOptions', {}) as IDataObject,
	);
	const cancelSignal = this.getExecutionCancelSignal();
	const { items } = await searchItems({
		node,
		items: [
			{
				itemIndex: this.getItemIndex(),
				parameter: (name, fallback) => this.getNodeParameter(name, fallback),
			},
		],
		baseUrl: (await this.getCredentials('soundSearchApi')).baseUrl,
		request,
		send: searchSender(this, { ...request.http, abortSignal: cancelSignal }),
		continueOnFail: this.continueOnFail(),
		cancelSignal,
	});
	return items;
}

/** What a search run needs of n8n, read at the edge. */
interface ItemsToSearch {
	node: INode;
	/** Every input item's parameters, in item order. */
	items: Array<{ itemIndex: number; parameter: Parameters }>;
	baseUrl: unknown;
	request: RequestSettings;
	send: SendPage;
	continueOnFail: boolean;
	cancelSignal?: AbortSignal;
}

/** One input item, read and checked, or why it cannot search. */
type ReadItem = { at: ErrorContext } & (
	| { input: SearchInput; baseUrl: string }
	| { error: ExecutionBaseError }
);

/**
 * Reads and checks every item first, in a plain loop that ends before the first call, so a bad
 * item fails the run before any credit is spent (with Continue On Fail, it becomes its error item
 * and the others search). Then every item searches in one run; the first failure stops the run.
 */
async function searchItems(
	edge: ItemsToSearch,
): Promise<{ items: INodeExecutionData[]; run?: SearchRun }> {
	const { node, continueOnFail } = edge;
	const read = edge.items.map(({ itemIndex, parameter }) => readItem(edge, itemIndex, parameter));
	const bad = read.find((item) => 'error' in item);
	if (bad && 'error' in bad && !continueOnFail) throw bad.error;
	const searching = read.find((item) => 'input' in item);
	if (!searching || !('input' in searching)) {
		return { items: read.flatMap((item) => ('error' in item ? itemsOf(node, item, item) : [])) };
	}
	const { maxInFlight, rateLimitWait, maxCredits } = searching.input;
	const run = new SearchRun({
		...{ maxInFlight, rateLimitWait, maxCredits, per: 'run', total: read.length },
		...{ stopOnFailure: !continueOnFail, baseUrl: searching.baseUrl, send: edge.send },
		cancelSignal: edge.cancelSignal,
	});
	const outcomes: Array<Promise<SearchOutcome>> = [];
	const { batch } = edge.request;
	for (const [index, item] of read.entries()) {
		// Request Options → Batching spaces items out as n8n's routing node does.
		if (batch && index > 0 && index % batch.size === 0) await sleep(batch.intervalMs);
		outcomes.push('input' in item ? run.search(item.input, item.at) : Promise.resolve(item));
	}
	const ended = await Promise.all(outcomes);
	const failed = ended.find((outcome) => 'error' in outcome);
	if (failed && 'error' in failed && !continueOnFail) throw failed.error;
	return { items: ended.flatMap((outcome, index) => itemsOf(node, read[index], outcome)), run };
}

function readItem(edge: ItemsToSearch, itemIndex: number, parameter: Parameters): ReadItem {
	const at = { node: edge.node, itemIndex };
	try {
		const input = readSearchInput(parameter, at);
		return { at, input, baseUrl: checkBaseUrl(at, edge.baseUrl) };
	} catch (error) {
		return { at, error: asNodeError(at, error) };
	}
}

/** The items one search yields: its sounds up to Limit, or its error item. */
function itemsOf(node: INode, item: ReadItem, outcome: SearchOutcome): INodeExecutionData[] {
	if ('stopped' in outcome) return [];
	if ('error' in outcome) return [failedItem(node, item, outcome.error)];
	if (!('input' in item)) return [];
	const { input, at } = item;
	const sounds = outcome.pages.flatMap((page, index) =>
		toSoundItems(page, index + 1, input, at.itemIndex, outcome.reused),
	);
	return sounds.slice(0, input.limit);
}

/**
 * A failed search's error item. One the credit budget stopped carries its keyword and platform,
 * so it can be fed back into a Sound Search node (Query {{ $json.query }}). On the error output
 * n8n itself adds the input item's fields, and only an item of error and details goes there.
 */
function failedItem(node: INode, item: ReadItem, error: ExecutionBaseError): INodeExecutionData {
	const failed = errorItem(item.at.itemIndex, error);
	if (!(error instanceof CreditBudgetReached) || !('input' in item)) return failed;
	if (node.onError === 'continueErrorOutput') return failed;
	const { query, platform } = item.input;
	return { ...failed, json: { ...failed.json, query, platform } };
}

function costHint(run: SearchRun | undefined): NodeExecutionHint {
	const { calls = 0, credits = 0, cachedPages = 0 } = run?.budget.tally ?? {};
	const repeats = run?.repeats ?? 0;
	return {
		message:
			`This run cost ${count(credits, 'credit')}: ${count(calls, 'call')} to the service ` +
			`(${cachedPages} answered free from its cache), ` +
			`${count(repeats, 'repeated search', 'repeated searches')} made once.`,
		type: 'info',
		location: 'outputPane',
	};
}
