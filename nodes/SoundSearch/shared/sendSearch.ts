import type { IAllExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';
import type { PageRequest } from './fetchPage';
import type { ErrorContext } from './failure';
import { readAnswer, type SearchAnswer } from './searchPage';

/**
 * One call of a search endpoint through n8n's request helper with the node's credential, taking
 * every HTTP status as an answer (so status, Retry-After and X-Credits-Charged are read the same
 * way on every n8n version). For the nodes' code that n8n's routing node does not run.
 */
export async function sendSearch(
	ctx: IAllExecuteFunctions,
	errors: ErrorContext,
	request: PageRequest,
	/** What n8n's Request Options add (proxy, certificates) and the execution's cancel signal. */
	extra: Partial<IHttpRequestOptions> = {},
): Promise<SearchAnswer> {
	const response = await ctx.helpers.httpRequestWithAuthentication.call(ctx, 'soundSearchApi', {
		method: 'GET',
		headers: { Accept: 'application/json' },
		...request,
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		...extra,
	});
	return readAnswer(errors, response);
}
