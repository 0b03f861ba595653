import type { IExecuteSingleFunctions } from 'n8n-workflow';

// The engine starts every input item's search in one synchronous loop, so each item validates its
// parameters before any of them awaits. Items record a failed validation here, keyed by the run's
// execute-data object (shared by all items of one node run, garbage-collected with it), so that no
// item spends credits on a run that is going to fail on another item's bad input.
const invalidBatches = new WeakSet<object>();

/** Runs `read` for this item; if it throws, the whole node run is marked as having bad input. */
export function validateInBatch<T>(ctx: IExecuteSingleFunctions, read: () => T): T {
	try {
		return read();
	} catch (error) {
		invalidBatches.add(ctx.getExecuteData());
		throw error;
	}
}

/**
 * Resolves once every item of the run has been validated, to whether this item may go on: not when
 * another item's input was bad and the node stops on errors (that item's error is what the user sees).
 */
export async function batchMayProceed(ctx: IExecuteSingleFunctions): Promise<boolean> {
	await Promise.resolve();
	return ctx.continueOnFail() || !invalidBatches.has(ctx.getExecuteData());
}
