import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
} from 'n8n-workflow';
import { ServiceAnswerError } from './answerError';
import type { CallScheduler, CallVerdict } from './callScheduler';
import { isCongestion, isRateLimited, rateLimitDelayMs, retryDelayMs } from './retryPolicy';
import { runProgress } from './runBatch';
import type { SearchInput } from './searchInput';
import type { SearchAnswer, SearchPage } from './searchPage';
import { failedCall, serviceError, type FailedCall } from './serviceError';

/** What every page of one search is sent with. */
export interface SearchCall {
	ctx: IExecutePaginationFunctions;
	requestData: DeclarativeRestApiSettings.ResultOptions;
	input: SearchInput;
	scheduler: CallScheduler;
	baseUrl: string;
}

/**
 * One page, sent through the run's scheduler. A 429 is retried for as long as the run's
 * rate-limit budget lasts (refused calls are free); a 5xx, a timeout or a dropped connection
 * within the page's own Retries per Page; anything else fails at once.
 */
export async function fetchPage(
	search: SearchCall,
	limit: number,
	cursor: string | undefined,
): Promise<SearchPage> {
	const request = pageRequest(search, limit, cursor);
	let refusals = 0;
	let failures = 0;
	for (;;) {
		const answer = await send(search, request);
		if ('page' in answer) return answer.page;
		const call = answer.failed;
		if (isRateLimited(call)) {
			refusals += 1;
			const waited = await search.scheduler.waitForRateLimit(rateLimitDelayMs(call, refusals));
			if (!waited) throw rateLimitError(search, call, refusals + failures);
			continue;
		}
		failures += 1;
		const delay = retryDelayMs(call, failures, search.input.maxRetries);
		if (delay === undefined) throw serviceError(search.ctx, call, refusals + failures);
		await search.scheduler.wait(delay);
	}
}

function pageRequest(
	{ requestData, input, baseUrl }: SearchCall,
	limit: number,
	cursor: string | undefined,
): DeclarativeRestApiSettings.ResultOptions {
	const qs: IDataObject = { ...requestData.options.qs, q: input.query, limit };
	if (cursor !== undefined) qs.cursor = cursor;
	const options = {
		...requestData.options,
		// Built here from checked values: no expression for n8n to resolve per input item.
		baseURL: baseUrl,
		url: `/v1/${input.platform}/sound/search`,
		qs,
		timeout: input.timeoutMs,
		ignoreHttpStatusErrors: true,
	};
	return { ...requestData, options };
}

/** Sends one call; a call that got no HTTP answer (timeout, network) comes back as failed. */
async function send(
	{ ctx, scheduler }: SearchCall,
	request: DeclarativeRestApiSettings.ResultOptions,
): Promise<SearchAnswer> {
	const call = async () => (await ctx.makeRoutingRequest(request))[0].json as SearchAnswer;
	const outcome = await scheduler.send(call, verdictOf);
	// An answer that came back (available: false, wrong shape) would come back again.
	if (outcome instanceof ServiceAnswerError) throw outcome;
	return outcome instanceof Error ? { failed: failedCall(outcome) } : outcome;
}

function verdictOf(outcome: SearchAnswer | Error): CallVerdict {
	if (outcome instanceof ServiceAnswerError) return { kind: 'ok' };
	const call: FailedCall | undefined =
		outcome instanceof Error
			? failedCall(outcome)
			: 'failed' in outcome
				? outcome.failed
				: undefined;
	if (call === undefined) return { kind: 'ok' };
	if (!isCongestion(call)) return { kind: 'neutral' };
	return { kind: 'congested', waitMs: rateLimitDelayMs(call, 1) };
}

function rateLimitError(search: SearchCall, call: FailedCall, attempts: number) {
	const { finished, total } = runProgress(search.ctx);
	const note =
		` This run reached its Max Wait on Rate Limits (${search.input.rateLimitWait} s) with ` +
		`${finished} of ${total} searches finished.`;
	return serviceError(search.ctx, call, attempts, note);
}
