import { asNodeError, rateLimitError, searchStopped, serviceError } from './errors';
import type { ErrorContext, FailedCall, Progress } from './errors';
import type { SearchInput } from './input';
import { refusalWaitMs, retryAfterMs } from './limiter';
import type { PageRequest, SearchAnswer, SearchPage } from './transport';

// One search's pages: the cursor loop, and what to do after each call (retry, fail).

/** One call of the run, made once the budget and the limiter let it; `done` hands its slot back. */
export type RunCall = (
	request: PageRequest,
) => Promise<{ answer: SearchAnswer | Error; done: () => void }>;

/**
 * One search (an input item, a keyword of a poll) within its run: `call` makes one call through the
 * run's budget and limiter; `onFailure` is called before the failed call's slot frees, so the run
 * stops first; `mayWait` says whether the run may wait that long on a rate limit.
 */
export interface Search {
	at: ErrorContext;
	input: SearchInput;
	baseUrl: string;
	call: RunCall;
	onFailure: () => void;
	progress: () => Progress;
	mayWait: (ms: number) => boolean;
	wait: (ms: number) => Promise<void>;
}

/** What to do after one call, decided while its slot is still taken. */
type Step = { page: SearchPage } | { retryDelayMs: number } | { fail: Error };

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
 * One page: a 429 asked again (the limiter holds it until Retry-After) while Max Wait on Rate
 * Limits lasts, a 5xx, a timeout or a dropped connection within Retries per Page, anything else
 * failing at once. `inspect` may throw: the run stops before the slot frees.
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
		const { answer, done } = await search.call(request);
		const step = nextStep(search, answer, tries, inspect);
		if ('fail' in step) search.onFailure();
		done();
		if ('page' in step) return step.page;
		if ('fail' in step) throw asNodeError(search.at, step.fail);
		await search.wait(step.retryDelayMs);
	}
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
	if (call.status === 429) {
		tries.refusals += 1;
		const waitMs = refusalWaitMs(call.headers ?? {});
		if (search.mayWait(waitMs)) return { retryDelayMs: waitMs };
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

// The retry policy of a failed call that is not a 429 (the limiter paces those).
/** Longest Retry-After a 5xx may ask for; a longer one fails at once. */
export const MAX_RETRY_AFTER_MS = 60_000;
const BACKOFF_BASE_MS = 1_000;

// Worth another try: a 5xx (not charged) or a call that never completed; never a 4xx or an answer.
const RETRYABLE_CODES = [
	'ECONNRESET',
	'ECONNREFUSED',
	'ECONNABORTED',
	'ETIMEDOUT',
	'EPIPE',
	'EAI_AGAIN',
];

function isRetryable({ status, code }: FailedCall): boolean {
	if (status !== undefined) return status >= 500;
	return code !== undefined && RETRYABLE_CODES.includes(code);
}

/** The wait before retry `attempt` (1-based) of a failed call (not a 429); undefined: give up. */
export function retryDelayMs(
	call: FailedCall,
	attempt: number,
	maxRetries: number,
	now = Date.now(),
): number | undefined {
	if (!isRetryable(call) || attempt > maxRetries) return undefined;
	const asked = retryAfterMs(call.headers ?? {}, now);
	if (asked !== undefined) return asked <= MAX_RETRY_AFTER_MS ? asked : undefined;
	return BACKOFF_BASE_MS * 2 ** (attempt - 1);
}
