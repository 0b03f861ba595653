import type { CallVerdict } from './callScheduler';
import { quotaHint } from './rateQuota';
import type { FailedCall } from './serviceError';

/** Longest Retry-After a failure (5xx) may ask for; a longer one fails at once. */
export const MAX_RETRY_AFTER_MS = 60_000;
const BACKOFF_BASE_MS = 1_000;
/** A 429 without Retry-After waits 1 s, 2 s, 4 s… but never longer than this between tries. */
const MAX_RATE_LIMIT_BACKOFF_MS = 30_000;

// Worth another try: the service failed on its side (5xx, not charged), or the call never
// completed. Never: auth (401/403), credits (402), refusals and other 4xx, and answers that came
// back (available: false, wrong shape), which the same request would repeat.
const RETRYABLE_CODES = new Set([
	'ECONNRESET',
	'ECONNREFUSED',
	'ECONNABORTED',
	'ETIMEDOUT',
	'EPIPE',
	'EAI_AGAIN',
]);

/** Signs that the service is over its capacity: the whole run should slow down. */
const CONGESTION_CODES = new Set(['ECONNRESET', 'ECONNREFUSED']);

export function isRateLimited(call: FailedCall): boolean {
	return call.status === 429;
}

export function isCongestion(call: FailedCall): boolean {
	return isRateLimited(call) || (call.code !== undefined && CONGESTION_CODES.has(call.code));
}

function isRetryable({ status, code }: FailedCall): boolean {
	if (status !== undefined) return status >= 500;
	return code !== undefined && RETRYABLE_CODES.has(code);
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

/**
 * How long to wait before retry number `attempt` (1-based) of a failed call (not a 429), or
 * undefined to give up: not retryable, out of retries, or a Retry-After too long to wait for.
 */
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

/**
 * How long to wait after the `refusals`-th 429 of one page: as the service asks, else a capped
 * backoff. Whether the run may wait that long is the scheduler's rate-limit budget's call.
 */
export function rateLimitDelayMs(call: FailedCall, refusals: number, now = Date.now()): number {
	return retryAfterMs(call, now) ?? Math.min(backoffMs(refusals), MAX_RATE_LIMIT_BACKOFF_MS);
}

/**
 * What a failed call tells the scheduler: a 429 (with what it says of a quota) or a refused or
 * reset connection is congestion; a 5xx, a timeout or another failure says nothing of capacity.
 */
export function failureVerdict(call: FailedCall): CallVerdict {
	if (!isCongestion(call)) return { kind: 'neutral' };
	const waitMs = rateLimitDelayMs(call, 1);
	if (!isRateLimited(call)) return { kind: 'congested', waitMs };
	return { kind: 'congested', waitMs, hint: quotaHint(call.headers, waitMs) };
}
