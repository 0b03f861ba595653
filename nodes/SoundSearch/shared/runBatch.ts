import {
	NodeOperationError,
	type ExecutionBaseError,
	type IExecuteSingleFunctions,
} from 'n8n-workflow';

// State shared by the input items of one node run, keyed by the run's execute-data object (the
// same for all items of a run, garbage-collected with it), so nothing outlives the run or is
// shared between runs, executions or workers.
interface RunBatch {
	/** Items whose validation has not succeeded (yet). */
	unvalidated: Set<number>;
	/** Searches in flight or done, by what they ask for: identical ones are made once. */
	searches: Map<string, Promise<unknown>>;
}
const batches = new WeakMap<object, RunBatch>();

function batchOf(ctx: IExecuteSingleFunctions, fresh = false): RunBatch {
	const key = ctx.getExecuteData();
	const batch = (!fresh && batches.get(key)) || {
		unvalidated: new Set<number>(),
		searches: new Map(),
	};
	batches.set(key, batch);
	return batch;
}

/**
 * Runs this item's validation `read`; while it has not succeeded the item counts as invalid. The
 * engine starts every item's search in one synchronous loop, so all items validate before any of
 * them awaits: no item spends credits on a run that will fail on another item's bad input.
 */
export function validateInBatch<T>(ctx: IExecuteSingleFunctions, read: () => T): T {
	// The engine starts items in order, so item 0 starts a node run. n8n's Retry On Fail re-runs
	// the node with the same execute data: each attempt gets a fresh batch, not the last one's
	// failed searches.
	const { unvalidated } = batchOf(ctx, ctx.getItemIndex() === 0);
	unvalidated.add(ctx.getItemIndex());
	const value = read();
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
