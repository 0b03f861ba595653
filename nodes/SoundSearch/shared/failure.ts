import {
	ExecutionBaseError,
	NodeOperationError,
	type IExecuteSingleFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

/** n8n's own errors pass as they are; anything else (a bug) becomes a NodeOperationError. */
export function asNodeError(ctx: IExecuteSingleFunctions, error: unknown): ExecutionBaseError {
	if (error instanceof ExecutionBaseError) return error;
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex: ctx.getItemIndex() });
}

/**
 * The item a failed search yields when the node continues on error: paired with its input item
 * (the engine's own error item is not). Its json holds only `error` and `details`, the shape n8n
 * recognises as an error item: it goes to the error output with "Continue (using error output)"
 * and keeps the description (n8n would reduce an item carrying an Error object to its message).
 */
export function errorItem(
	ctx: IExecuteSingleFunctions,
	error: ExecutionBaseError,
): INodeExecutionData {
	return {
		json: { error: error.message, ...(error.description ? { details: error.description } : {}) },
		pairedItem: { item: ctx.getItemIndex() },
	};
}
