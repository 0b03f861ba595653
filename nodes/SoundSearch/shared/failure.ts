import {
	ExecutionBaseError,
	NodeOperationError,
	type IExecuteSingleFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

/**
 * What an error needs to know of where it happened: the node, and the input item (for a trigger,
 * the keyword's position). The action node's context is one; the trigger makes one per keyword.
 */
export type ErrorContext = Pick<IExecuteSingleFunctions, 'getNode' | 'getItemIndex'>;

/** n8n's own errors pass as they are; anything else (a bug) becomes a NodeOperationError. */
export function asNodeError(ctx: ErrorContext, error: unknown): ExecutionBaseError {
	if (error instanceof ExecutionBaseError) return error;
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex: ctx.getItemIndex() });
}

/**
 * The item a failed search yields when the node continues on error: paired with its input item
 * (the engine's own error item is not). Its json holds only `error` and `details`, the shape n8n
 * recognises as an error item: it goes to the error output with "Continue (using error output)"
 * and keeps the description (n8n would reduce an item carrying an Error object to its message).
 */
export function errorItem(ctx: ErrorContext, error: ExecutionBaseError): INodeExecutionData {
	return {
		json: { error: error.message, ...(error.description ? { details: error.description } : {}) },
		pairedItem: { item: ctx.getItemIndex() },
	};
}
