import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';
import type { InputContext } from './searchInput';

/**
 * Whether n8n's Request Options → Batching starts some input items later than others: the routing
 * node then sleeps between batches, so a later item's own validation would come after earlier
 * items have paid for their searches.
 */
export function itemsStartInBatches(ctx: IExecuteSingleFunctions, itemCount: number): boolean {
	const options = ctx.getNodeParameter('requestOptions', {}) as IDataObject;
	const batch = ((options.batching as IDataObject | undefined)?.batch ?? {}) as IDataObject;
	const size = typeof batch.batchSize === 'number' && batch.batchSize > 0 ? batch.batchSize : 1;
	const interval = typeof batch.batchInterval === 'number' ? batch.batchInterval : 0;
	return interval > 0 && itemCount > size;
}

/**
 * Runs `read` for every other input item of the run, as that item would, from the first item:
 * each parameter's expression is resolved for that item. The first bad item throws its own error
 * (naming its field and index) before any item has sent a call.
 */
export function readEveryItem(
	ctx: IExecuteSingleFunctions,
	itemCount: number,
	read: (input: InputContext) => unknown,
) {
	for (let itemIndex = 1; itemIndex < itemCount; itemIndex += 1) read(itemContext(ctx, itemIndex));
}

function itemContext(ctx: IExecuteSingleFunctions, itemIndex: number): InputContext {
	const parameters = ctx.getNode().parameters;
	return {
		getNode: () => ctx.getNode(),
		getItemIndex: () => itemIndex,
		getNodeParameter: (name, fallback) =>
			parameters[name] === undefined ? fallback : resolve(ctx, parameters[name], itemIndex),
	};
}

/** A parameter value with every expression in it evaluated for `itemIndex`. */
function resolve(ctx: IExecuteSingleFunctions, value: unknown, itemIndex: number): unknown {
	if (typeof value === 'string' && value.startsWith('='))
		return ctx.evaluateExpression(value.slice(1), itemIndex);
	if (Array.isArray(value)) return value.map((entry) => resolve(ctx, entry, itemIndex));
	if (typeof value !== 'object' || value === null) return value;
	const entries = Object.entries(value).map(([key, entry]) => [
		key,
		resolve(ctx, entry, itemIndex),
	]);
	return Object.fromEntries(entries);
}
