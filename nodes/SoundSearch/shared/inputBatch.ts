import type { IExecuteSingleFunctions } from 'n8n-workflow';

// The engine starts every input item's search in one synchronous loop, so each item validates its
// parameters before any of them awaits. An item stays listed here until its validation succeeds;
// the key is the run's execute-data object, shared by all items of one node run and
// garbage-collected with it. So no item spends credits on a run that will fail on another item.
const unvalidatedItems = new WeakMap<object, Set<number>>();

/** Runs this item's validation `read`; while it has not succeeded the item counts as invalid. */
export function validateInBatch<T>(ctx: IExecuteSingleFunctions, read: () => T): T {
	const key = ctx.getExecuteData();
	const pending = unvalidatedItems.get(key) ?? new Set<number>();
	unvalidatedItems.set(key, pending);
	pending.add(ctx.getItemIndex());
	const value = read();
	pending.delete(ctx.getItemIndex());
	return value;
}

/**
 * Resolves once every item of the run has been validated, to whether this item may go on: not when
 * another item's input was bad and the node stops on errors (that item's error is what the user sees).
 */
export async function batchMayProceed(ctx: IExecuteSingleFunctions): Promise<boolean> {
	await Promise.resolve();
	return ctx.continueOnFail() || unvalidatedItems.get(ctx.getExecuteData())?.size === 0;
}
