import {
	CreditBudgetReached,
	RunStopped,
	asNodeError,
	rateLimitError,
	searchStopped,
	serviceError,
	type ErrorContext,
	type FailedCall,
	type Progress,
} from './errors';
import type { SearchInput } from './input';
import { quotaHint } from './quota';
import type { CallScheduler, CallVerdict } from './scheduler';
import type { PageRequest, SearchAnswer, SearchPage } from './transport';

// One search's pages: the cursor loop, and what to do after each call (retry, wait, fail).

/**
 * One search (an input item, a keyword of a poll): `send` makes one call within the run's credit
 * budget; `onFailure` is called before the failed call's slot frees, so the run can stop first.
 */
export interface Search {
	at: ErrorContext;
	input: SearchInput;
	scheduler: CallScheduler;
	baseUrl: string;
	send: (request: PageRequest) => Promise<SearchAnswer>;
	onFailure: () => void;
	progress: () => Progress;
}

/** What to do after one call, decided while its slot is still taken. */
type Step =
	| { page: SearchPage }
	| { rateLimitWaitMs: number }
	| { retryDelayMs: number }
	| { fail: Error };

/** Follows nextCursor, asking each page for no more sounds than needed, until Limit or the last page. */
export async function fetchPages(search: Search): Promise<SearchPage[]> {
	const { input } = search;
	const pages: SearchPage[] = [];
	const guard = new CursorGuard(input.maxPages);
	let cursor = input.startCursor;
	for (;;) {
		const limit = Math.min(input.pageSize, input.limit - guard.sounds);
		const page = await fetchPage(search, limit, cursor, (answered) => {
			guard.record(answered);
			if (answered.nextCursor !== null && guard.sounds < input.limit)
				guard.checkNext(search.at, answered, answered.nextCursor);
		});
		pages.push(page);
		if (page.nextCursor === null || guard.sounds >= input.limit) return pages;
		cursor = page.nextCursor;
	}
}

/**
 * One page, through the run's scheduler: a 429 retried while the rate-limit budget lasts, a 5xx, a
 * timeout or a dropped connection within Retries per Page, anything else failing at once. `inspect`
 * may throw: the run stops before the slot frees, so no queued call starts in between.
 */
async function fetchPage(
	search: Search,
	limit: number,
	cursor: string | undefined,
	inspect: (page: SearchPage) => void,
): Promise<SearchPage> {
	const request = pageRequest(search, limit, cursor);
	const tries = { refusals: 0, failures: 0 };
	for (;;) {
		const { outcome, release } = await search.scheduler.send(
			async () => await search.send(request),
		);
		// Out of budget, or the run stopped while this call waited for it: no call was made.
		if (outcome instanceof CreditBudgetReached || outcome instanceof RunStopped) {
			if (outcome instanceof CreditBudgetReached) search.onFailure();
			release({ kind: 'neutral' });
			throw outcome;
		}
		const step = nextStep(search, outcome, tries, inspect);
		if ('fail' in step) search.onFailure();
		release(verdictOf(outcome));
		if ('page' in step) return step.page;
		if ('fail' in step) throw asNodeError(search.at, step.fail);
		await search.scheduler.wait(
			'rateLimitWaitMs' in step ? step.rateLimitWaitMs : step.retryDelayMs,
		);
	}
}

/** What an outcome tells the scheduler: an answer (and what its headers announce) or a failure. */
function verdictOf(outcome: SearchAnswer | Error): CallVerdict {
	if (outcome instanceof Error) return { kind: 'ok' };
	if ('failed' in outcome) return failureVerdict(outcome.failed);
	const { announced } = outcome.page;
	return { kind: 'ok', ...(announced && { announced }) };
}

function nextStep(
	search: Search,
	answer: SearchAnswer | Error,
	tries: { refusals: number; failures: number },
	inspect: (page: SearchPage) => void,
): Step {
	// An answer read as an error (available: false, a wrong shape): the same request would get it.
	if (answer instanceof Error) return { fail: answer };
	if ('page' in answer) {
		try {
			inspect(answer.page);
		} catch (error) {
			return { fail: error as Error };
		}
		return answer;
	}
	const call = answer.failed;
	const attempts = () => tries.refusals + tries.failures;
	if (isRateLimited(call)) {
		tries.refusals += 1;
		const waitMs = rateLimitDelayMs(call, tries.refusals);
		if (search.scheduler.mayWaitForRateLimit(waitMs)) return { rateLimitWaitMs: waitMs };
		const waited = { waitSeconds: search.input.rateLimitWait, progress: search.progress() };
		return { fail: rateLimitError(search.at, call, attempts(), waited) };
	}
	tries.failures += 1;
	const delay = retryDelayMs(call, tries.failures, search.input.maxRetries);
	if (delay !== undefined) return { retryDelayMs: delay };
	return { fail: serviceError(search.at, call, attempts()) };
}

function pageRequest(
	{ input, baseUrl }: Search,
	limit: number,
	cursor: string | undefined,
): PageRequest {
	const qs: PageRequest['qs'] = { q: input.query, limit };
	if (cursor !== undefined) qs.cursor = cursor;
	return {
		baseURL: baseUrl,
		url: `/v1/${input.platform}/sound/search`,
		qs,
		timeout: input.timeoutMs,
	};
}

/** What one search has fetched and spent so far; it decides whether following a cursor is safe. */
class CursorGuard {
	pages = 0;
	sounds = 0;

	/** Sum of X-Credits-Charged; null once a page did not report it. */
	credits: number | null = 0;

	private readonly seenCursors = new Set<string>();

	constructor(private readonly maxPages: number) {}

	record(page: SearchPage) {
		this.pages += 1;
		this.sounds += page.sounds.length;
		this.credits =
			this.credits === null || page.creditsCharged === null
				? null
				: this.credits + page.creditsCharged;
	}

	/** Throws a clear error instead of following a cursor that would loop or overspend. */
	checkNext(at: ErrorContext, page: SearchPage, nextCursor: string) {
		const reason = this.stopReason(page, nextCursor);
		if (reason === undefined) {
			this.seenCursors.add(nextCursor);
			return;
		}
		const { pages, sounds, credits } = this;
		throw searchStopped(at, reason, { pages, sounds, credits, nextCursor });
	}

	private stopReason(page: SearchPage, nextCursor: string): string | undefined {
		if (this.seenCursors.has(nextCursor))
			return 'the service returned a cursor it had already returned';
		if (page.sounds.length === 0)
			return 'the service returned an empty page that still points to a next page';
		if (this.pages >= this.maxPages)
			return `reached Max Pages (${this.maxPages}) before the last page`;
		return undefined;
	}
}

// The retry policy. Longest Retry-After a 5xx may ask for; a longer one fails at once.
export const MAX_RETRY_AFTER_MS = 60_000;
const BACKOFF_BASE_MS = 1_000;
/** A 429 without Retry-After waits 1 s, 2 s, 4 s… up to this. */
const MAX_RATE_LIMIT_BACKOFF_MS = 30_000;

/** The service is over its capacity: the whole run slows down. */
const CONGESTION_CODES = ['ECONNRESET', 'ECONNREFUSED'];
// Worth another try: a 5xx (not charged) or a call that never completed; never a 4xx or an answer.
const RETRYABLE_CODES = [...CONGESTION_CODES, 'ECONNABORTED', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN'];

export function isRateLimited(call: FailedCall): boolean {
	return call.status === 429;
}

export function isCongestion(call: FailedCall): boolean {
	return isRateLimited(call) || (call.code !== undefined && CONGESTION_CODES.includes(call.code));
}

function isRetryable({ status, code }: FailedCall): boolean {
	if (status !== undefined) return status >= 500;
	return code !== undefined && RETRYABLE_CODES.includes(code);
}

/** Retry-After in ms (delta-seconds or an HTTP date), or undefined when absent or unreadable. */
function retryAfterMs(call: FailedCall, now: number): number | undefined {
	const raw = call.headers?.['retry-after'];
	if (typeof raw !== 'string' || raw.trim() === '') return undefined;
	const seconds = Number(raw);
	if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
	const date = Date.parse(raw);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function backoffMs(attempt: number): number {
	return BACKOFF_BASE_MS * 2 ** (attempt - 1);
}

/** The wait before retry `attempt` (1-based) of a failed call (not a 429); undefined: give up. */
export function retryDelayMs(
	call: FailedCall,
	attempt: number,
	maxRetries: number,
	now = Date.now(),
): number | undefined {
	if (!isRetryable(call) || attempt > maxRetries) return undefined;
	const asked = retryAfterMs(call, now);
	if (asked !== undefined) return asked <= MAX_RETRY_AFTER_MS ? asked : undefined;
	return backoffMs(attempt);
}

/** The wait after a page's `refusals`-th 429: as asked, else a capped backoff. */
export function rateLimitDelayMs(call: FailedCall, refusals: number, now = Date.now()): number {
	return retryAfterMs(call, now) ?? Math.min(backoffMs(refusals), MAX_RATE_LIMIT_BACKOFF_MS);
}

/** A 429 (with what it says of a quota) or a refused or reset connection is congestion. */
export function failureVerdict(call: FailedCall): CallVerdict {
	if (!isCongestion(call)) return { kind: 'neutral' };
	const waitMs = rateLimitDelayMs(call, 1);
	if (!isRateLimited(call)) return { kind: 'congested', waitMs };
	return { kind: 'congested', waitMs, hint: quotaHint(call.headers, waitMs) };
}
