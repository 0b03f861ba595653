import {
	ExecutionBaseError,
	type DeclarativeRestApiSettings,
	type IDataObject,
	type IExecutePaginationFunctions,
} from 'n8n-workflow';
import { ServiceAnswerError } from './answerError';
import type { CallScheduler, CallVerdict } from './callScheduler';
import { asNodeError } from './failure';
import { isCongestion, isRateLimited, rateLimitDelayMs, retryDelayMs } from './retryPolicy';
import { failSearch, runProgress } from './runBatch';
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

/** What to do after one call, decided while its slot is still taken. */
type Step =
	| { page: SearchPage }
	| { rateLimitWaitMs: number }
	| { retryDelayMs: number }
	| { fail: ExecutionBaseError };

/**
 * One page, sent through the run's scheduler. A 429 is retried for as long as the run's
 * rate-limit budget lasts (refused calls are free); a 5xx, a timeout or a dropped connection
 * within the page's own Retries per Page; anything else fails at once. `inspect` checks a page
 * (it may throw): a search that fails stops the run before its slot frees, so no queued call
 * starts in between.
 */
export async function fetchPage(
	search: SearchCall,
	limit: number,
	cursor: string | undefined,
	inspect: (page: SearchPage) => void,
): Promise<SearchPage> {
	const request = pageRequest(search, limit, cursor);
	const call = async () =>
		(await search.ctx.makeRoutingRequest(request))[0].json as unknown as SearchAnswer;
	const tries = { refusals: 0, failures: 0 };
	for (;;) {
		const { outcome, release } = await search.scheduler.send(call);
		const step = nextStep(search, outcome, tries, inspect);
		if ('fail' in step) failSearch(search.ctx);
		release(verdictOf(outcome));
		if ('page' in step) return step.page;
		if ('fail' in step) throw step.fail;
		if ('rateLimitWaitMs' in step) await search.scheduler.waitForRateLimit(step.rateLimitWaitMs);
		else await search.scheduler.wait(step.retryDelayMs);
	}
}

function nextStep(
	search: SearchCall,
	outcome: SearchAnswer | Error,
	tries: { refusals: number; failures: number },
	inspect: (page: SearchPage) => void,
): Step {
	// An answer that came back (available: false, wrong shape) would come back again.
	if (outcome instanceof ServiceAnswerError) return { fail: outcome };
	const answer = outcome instanceof Error ? { failed: failedCall(outcome) } : outcome;
	if ('page' in answer) {
		try {
			inspect(answer.page);
		} catch (error) {
			return { fail: asNodeError(search.ctx, error) };
		}
		return answer;
	}
	const call = answer.failed;
	if (isRateLimited(call)) {
		tries.refusals += 1;
		const waitMs = rateLimitDelayMs(call, tries.refusals);
		if (search.scheduler.mayWaitForRateLimit(waitMs)) return { rateLimitWaitMs: waitMs };
		return { fail: rateLimitError(search, call, tries.refusals + tries.failures) };
	}
	tries.failures += 1;
	const delay = retryDelayMs(call, tries.failures, search.input.maxRetries);
	if (delay !== undefined) return { retryDelayMs: delay };
	return { fail: serviceError(search.ctx, call, tries.refusals + tries.failures) };
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
