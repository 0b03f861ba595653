import type { IDataObject } from 'n8n-workflow';
import { ServiceAnswerError } from './answerError';
import { RunStopped, type CallScheduler, type CallVerdict } from './callScheduler';
import { CreditBudgetReached, type CreditBudget } from './creditBudget';
import { asNodeError, type ErrorContext } from './failure';
import { failureVerdict, isRateLimited, rateLimitDelayMs, retryDelayMs } from './retryPolicy';
import type { SearchInput } from './searchInput';
import type { SearchAnswer, SearchPage } from './searchPage';
import { SearchProgress } from './searchProgress';
import { failedCall, serviceError, type FailedCall } from './serviceError';

/** What one page's call asks for; the node that sends it adds its own defaults. */
export interface PageRequest {
	baseURL: string;
	url: string;
	qs: IDataObject;
	timeout: number;
}

/** One search (one input item, or one keyword of a trigger's poll) and how its calls are made. */
export interface SearchCall {
	errors: ErrorContext;
	input: SearchInput;
	scheduler: CallScheduler;
	/** Max Credits of the run (or poll); each call is sent through it. */
	budget?: CreditBudget;
	baseUrl: string;
	/** Sends one call, taking every HTTP status as an answer, and reads it. */
	send: (request: PageRequest) => Promise<SearchAnswer>;
	/** This search failed; called before its slot frees, so the run can stop first. */
	onFailure: () => void;
	/** How many of the run's searches have finished, for the rate-limit error. */
	progress: () => { finished: number; total: number };
}

/** What to do after one call, decided while its slot is still taken. */
type Step =
	| { page: SearchPage }
	| { rateLimitWaitMs: number }
	| { retryDelayMs: number }
	| { fail: Error };

/**
 * Follows nextCursor, asking each page for no more sounds than are still needed, and stops as
 * soon as Limit sounds are in hand (or the last page came).
 */
export async function fetchPages(search: SearchCall): Promise<SearchPage[]> {
	const { input } = search;
	const pages: SearchPage[] = [];
	const progress = new SearchProgress(input.maxPages);
	let cursor = input.startCursor;
	for (;;) {
		const limit = Math.min(input.pageSize, input.limit - progress.sounds);
		const page = await fetchPage(search, limit, cursor, (answered) => {
			progress.record(answered);
			if (answered.nextCursor !== null && progress.sounds < input.limit)
				progress.checkNext(search.errors, { ...answered, nextCursor: answered.nextCursor });
		});
		pages.push(page);
		if (page.nextCursor === null || progress.sounds >= input.limit) return pages;
		cursor = page.nextCursor;
	}
}

/**
 * One page, sent through the run's scheduler. A 429 is retried for as long as the run's
 * rate-limit budget lasts (refused calls are free); a 5xx, a timeout or a dropped connection
 * within the page's own Retries per Page; anything else fails at once. `inspect` checks a page
 * (it may throw): a search that fails stops the run before its slot frees, so no queued call
 * starts in between.
 */
async function fetchPage(
	search: SearchCall,
	limit: number,
	cursor: string | undefined,
	inspect: (page: SearchPage) => void,
): Promise<SearchPage> {
	const request = pageRequest(search, limit, cursor);
	const tries = { refusals: 0, failures: 0 };
	for (;;) {
		const call = async () => await search.send(request);
		const { outcome, release } = await search.scheduler.send(
			async () => await (search.budget?.send(search, call) ?? call()),
		);
		// Out of budget, or the run stopped while this call waited for it: no call was made.
		if (outcome instanceof CreditBudgetReached || outcome instanceof RunStopped) {
			if (outcome instanceof CreditBudgetReached) search.onFailure();
			release({ kind: 'neutral' });
			throw outcome;
		}
		// An answer that came back as an error (available: false, wrong shape) stays one: the same
		// request would get it again. A call that got no HTTP answer becomes a failed call.
		const answer =
			outcome instanceof Error && !(outcome instanceof ServiceAnswerError)
				? { failed: failedCall(outcome) }
				: outcome;
		const step = nextStep(search, answer, tries, inspect);
		if ('fail' in step) search.onFailure();
		release(verdictOf(answer));
		if ('page' in step) return step.page;
		if ('fail' in step) throw asNodeError(search.errors, step.fail);
		await search.scheduler.wait(
			'rateLimitWaitMs' in step ? step.rateLimitWaitMs : step.retryDelayMs,
		);
	}
}

function nextStep(
	search: SearchCall,
	answer: SearchAnswer | ServiceAnswerError,
	tries: { refusals: number; failures: number },
	inspect: (page: SearchPage) => void,
): Step {
	if (answer instanceof ServiceAnswerError) return { fail: answer };
	if ('page' in answer) {
		try {
			inspect(answer.page);
		} catch (error) {
			return { fail: error as Error };
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
	return { fail: serviceError(search.errors, call, tries.refusals + tries.failures) };
}

function pageRequest(
	{ input, baseUrl }: SearchCall,
	limit: number,
	cursor: string | undefined,
): PageRequest {
	const qs: IDataObject = { q: input.query, limit };
	if (cursor !== undefined) qs.cursor = cursor;
	// Built here from checked values: no expression for n8n to resolve per input item.
	return {
		baseURL: baseUrl,
		url: `/v1/${input.platform}/sound/search`,
		qs,
		timeout: input.timeoutMs,
	};
}

function verdictOf(answer: SearchAnswer | ServiceAnswerError): CallVerdict {
	if (answer instanceof ServiceAnswerError || !('failed' in answer)) return { kind: 'ok' };
	return failureVerdict(answer.failed);
}

function rateLimitError(search: SearchCall, call: FailedCall, attempts: number) {
	const { finished, total } = search.progress();
	const note =
		` No call of this run went through for its Max Wait on Rate Limits ` +
		`(${search.input.rateLimitWait} s); ${finished} of ${total} searches finished.`;
	return serviceError(search.errors, call, attempts, note);
}
