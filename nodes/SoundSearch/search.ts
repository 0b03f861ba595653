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
import { checkBaseUrl, type Parameters, type SearchInput } from '../shared/input';
import { count, toSoundItems } from '../shared/output';
import { SearchRun, serviceKeyOf, type SearchOutcome } from '../shared/run';
import { searchSender } from '../shared/transport';
import { readRequestOptions, readSearchInput } from './searchInput';

// Sound → Search, as n8n runs it: the edge between n8n's contexts and the search run. It reads
// parameters, credential and settings into plain values, runs the searches, and shapes the items.

/** The workflow node and an AI Agent 3 tool: the one context that can show the cost as a hint. */
export async function searchSounds(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData().map((_, itemIndex) => ({
		itemIndex,
		parameter: (name: string, fallback?: unknown) =>
			this.getNodeParameter(name, itemIndex, fallback),
	}));
	const { baseUrl } = await this.getCredentials('soundSearchApi', 0);
	const requestOptions = this.getNodeParameter('requestOptions', 0, {}) as IDataObject;
	const { items: sounds, run } = await searchItems(this, items, baseUrl, requestOptions);
	this.addExecutionHints(costHint(run));
	return [sounds];
}

/** A tool n8n calls directly (MCP Server Trigger, AI Agent up to 2.2): the routing's pagination. */
export async function searchAsTool(
	this: IExecutePaginationFunctions,
): Promise<INodeExecutionData[]> {
	const item = {
		itemIndex: this.getItemIndex(),
		parameter: (name: string, fallback?: unknown) => this.getNodeParameter(name, fallback),
	};
	const { baseUrl } = await this.getCredentials('soundSearchApi');
	const requestOptions = this.getNodeParameter('requestOptions', {}) as IDataObject;
	return (await searchItems(this, [item], baseUrl, requestOptions)).items;
}

/** One input item, read and checked, or why it cannot search. */
type ReadItem = SearchingItem | BadItem;
type SearchingItem = { at: ErrorContext; input: SearchInput; baseUrl: string };
type BadItem = { at: ErrorContext; error: ExecutionBaseError };
const isBad = (item: ReadItem): item is BadItem => 'error' in item;
const isSearching = (item: ReadItem): item is SearchingItem => 'input' in item;

/**
 * What both entries run, reading what else they need of their n8n context first. Every item is
 * read and checked in a plain loop that ends before the first call, so a bad item fails the run
 * before any credit is spent (with Continue On Fail, it becomes its error item). Then every item
 * searches in one run; the first failure stops it.
 */
async function searchItems(
	ctx: IExecuteFunctions | IExecutePaginationFunctions,
	items: Array<{ itemIndex: number; parameter: Parameters }>,
	baseUrl: unknown,
	requestOptions: IDataObject,
): Promise<{ items: INodeExecutionData[]; run?: SearchRun }> {
	const node = ctx.getNode();
	const { http, batch } = readRequestOptions(node, requestOptions);
	const continueOnFail = ctx.continueOnFail();
	const read = items.map(({ itemIndex, parameter }) =>
		readItem(node, itemIndex, parameter, baseUrl),
	);
	const bad = read.find(isBad);
	if (bad && !continueOnFail) throw bad.error;
	const searching = read.find(isSearching);
	if (!searching)
		return { items: read.filter(isBad).map((item) => failedItem(node, item, item.error)) };
	const cancelSignal = ctx.getExecutionCancelSignal();
	const run = new SearchRun({
		...{ first: searching.input, per: 'run', total: read.length },
		...{ stopOnFailure: !continueOnFail, baseUrl: searching.baseUrl, cancelSignal },
		send: searchSender(ctx, http),
		serviceKey: serviceKeyOf(node, searching.baseUrl),
	});
	const outcomes: Array<Promise<SearchOutcome>> = [];
	for (const [index, item] of read.entries()) {
		// Request Options → Batching spaces items out as n8n's routing node does.
		if (batch && index > 0 && index % batch.size === 0) await sleep(batch.intervalMs);
		outcomes.push(isSearching(item) ? run.search(item.input, item.at) : Promise.resolve(item));
	}
	const ended = await Promise.all(outcomes);
	const failed = ended.find((outcome) => 'error' in outcome);
	if (failed && 'error' in failed && !continueOnFail) throw failed.error;
	return { items: ended.flatMap((outcome, index) => itemsOf(node, read[index], outcome)), run };
}

function readItem(
	node: INode,
	itemIndex: number,
	parameter: Parameters,
	baseUrl: unknown,
): ReadItem {
	const at = { node, itemIndex };
	try {
		const input = readSearchInput(parameter, at);
		return { at, input, baseUrl: checkBaseUrl(at, baseUrl) };
	} catch (error) {
		return { at, error: asNodeError(at, error) };
	}
}

/** The items one search yields: its sounds up to Limit, or its error item. */
function itemsOf(node: INode, item: ReadItem, outcome: SearchOutcome): INodeExecutionData[] {
	if ('error' in outcome) return [failedItem(node, item, outcome.error)];
	if ('stopped' in outcome || isBad(item)) return [];
	const { input, at } = item;
	const sounds = outcome.pages.flatMap((page, index) =>
		toSoundItems(page, index + 1, input, at.itemIndex, outcome.reused),
	);
	return sounds.slice(0, input.limit);
}

/**
 * A failed search's error item. One the credit budget stopped carries its keyword and platform to
 * feed back into a Sound Search node, except on the error output (n8n adds the input's fields).
 */
function failedItem(node: INode, item: ReadItem, error: ExecutionBaseError): INodeExecutionData {
	const failed = errorItem(item.at.itemIndex, error);
	if (!(error instanceof CreditBudgetReached) || !isSearching(item)) return failed;
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
