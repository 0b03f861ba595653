import {
	NodeOperationError,
	type ExecutionBaseError,
	type IExecuteSingleFunctions,
} from 'n8n-workflow';
import { CallScheduler, RunStopped, type SchedulerSettings } from './callScheduler';
import { itemsStartInBatches, readEveryItem } from './everyItem';
import type { InputContext } from './searchInput';

// State shared by the input items of one node run, keyed by the run's execute-data object (the
// same for all items of a run, garbage-collected with it), so nothing outlives the run or is
// shared between runs, executions or workers.
interface RunBatch {
	/** Items whose validation has not succeeded (yet). */
	unvalidated: Set<number>;
	/** Searches in flight or done, by what they ask for: identical ones are made once. */
	searches: Map<string, Promise<unknown>>;
	/** The run's one request scheduler, made with the first searching item's settings. */
	scheduler?: CallScheduler;
	/** The credential's Base URL, read once per run instead of an expression per item. */
	baseUrl?: Promise<unknown>;
	/** Searches (input items) that have all their pages, for progress in error messages. */
	finished: number;
	/** The item whose failure stopped the run: its error is the one the run fails with. */
	stoppedBy?: number;
}
const batches = new WeakMap<object, RunBatch>();

function batchOf(ctx: IExecuteSingleFunctions, fresh = false): RunBatch {
	const key = ctx.getExecuteData();
	const batch = (!fresh && batches.get(key)) || {
		unvalidated: new Set<number>(),
		searches: new Map(),
		finished: 0,
	};
	batches.set(key, batch);
	return batch;
}

/**
 * Runs this item's validation `read`; while it has not succeeded the item counts as invalid. The
 * engine starts every item's search in one synchronous loop, so all items validate before any of
 * them awaits: no item spends credits on a run that will fail on another item's bad input.
 */
export function validateInBatch<T>(
	ctx: IExecuteSingleFunctions,
	read: (input: InputContext) => T,
): T {
	// The engine starts items in order, so item 0 starts a node run. n8n's Retry On Fail re-runs
	// the node with the same execute data: each attempt gets a fresh batch, not the last one's
	// failed searches.
	const first = ctx.getItemIndex() === 0;
	const { unvalidated } = batchOf(ctx, first);
	unvalidated.add(ctx.getItemIndex());
	const value = read(ctx);
	// With Batching, later items start after earlier ones have paid: the first reads them all.
	const itemCount = runItemCount(ctx);
	if (first && !ctx.continueOnFail() && itemsStartInBatches(ctx, itemCount))
		readEveryItem(ctx, itemCount, read);
	unvalidated.delete(ctx.getItemIndex());
	return value;
}

/**
 * Resolves once every item of the run has been validated, to whether this item may go on: not when
 * another item's input was bad and the node stops on errors (that item's error is what the user sees).
 */
export async function batchMayProceed(ctx: IExecuteSingleFunctions): Promise<boolean> {
	await Promise.resolve();
	return ctx.continueOnFail() || batchOf(ctx).unvalidated.size === 0;
}

/**
 * Makes a search once per run however many input items ask for exactly the same one (a keyword
 * list with repeats): the others reuse its result (`reused`), and a failure is reported on each
 * of those items as its own.
 */
export async function shareInBatch<T>(
	ctx: IExecuteSingleFunctions,
	key: string,
	search: () => Promise<T>,
): Promise<{ result: T; reused: boolean }> {
	const { searches } = batchOf(ctx);
	const pending = searches.get(key) as Promise<T> | undefined;
	if (pending === undefined) {
		const own = search();
		searches.set(key, own);
		return { result: await own, reused: false };
	}
	try {
		return { result: await pending, reused: true };
	} catch (error) {
		const { message, description } = error as ExecutionBaseError;
		throw new NodeOperationError(ctx.getNode(), message, {
			itemIndex: ctx.getItemIndex(),
			description: description ?? undefined,
		});
	}
}

/** The run's scheduler; the first item that asks for it sets its bound and rate-limit budget. */
export function runScheduler(
	ctx: IExecuteSingleFunctions,
	settings: Omit<SchedulerSettings, 'cancelSignal'>,
): CallScheduler {
	const batch = batchOf(ctx);
	batch.scheduler ??= new CallScheduler({
		...settings,
		cancelSignal: ctx.getExecutionCancelSignal(),
	});
	return batch.scheduler;
}

/**
 * This item's search failed: when the node stops on errors, no new call of the run starts (calls
 * in flight finish), so no credit is spent on sounds the failed run would throw away.
 */
export function failSearch(ctx: IExecuteSingleFunctions) {
	const batch = batchOf(ctx);
	if (ctx.continueOnFail() || batch.stoppedBy !== undefined) return;
	batch.stoppedBy = ctx.getItemIndex();
	batch.scheduler?.stop(new RunStopped('Another input item failed'));
}

/** Whether this item should stand down: another item's failure stopped the run, or a cancel. */
export function runWasStopped(ctx: IExecuteSingleFunctions, error: unknown): boolean {
	const batch = batchOf(ctx);
	if (error instanceof RunStopped) return true;
	return batch.scheduler?.isStopped === true && batch.stoppedBy !== ctx.getItemIndex();
}

/** The credential's Base URL, read once for the whole run. */
export async function runBaseUrl(ctx: IExecuteSingleFunctions): Promise<unknown> {
	const batch = batchOf(ctx);
	batch.baseUrl ??= ctx.getCredentials('soundSearchApi').then((credentials) => credentials.baseUrl);
	return await batch.baseUrl;
}

/** Counts this item's search as finished, for the progress that rate-limit errors report. */
export function searchFinished(ctx: IExecuteSingleFunctions) {
	batchOf(ctx).finished += 1;
}

function runItemCount(ctx: IExecuteSingleFunctions): number {
	return ctx.getExecuteData().data.main?.[0]?.length ?? 1;
}

export function runProgress(ctx: IExecuteSingleFunctions): { finished: number; total: number } {
	return { finished: batchOf(ctx).finished, total: runItemCount(ctx) };
}
