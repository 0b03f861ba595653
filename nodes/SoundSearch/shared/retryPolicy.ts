import type { FailedCall } from './serviceError';

/** Longest Retry-After the node waits for; a longer one fails at once with the rate-limit error. */
export const MAX_RETRY_AFTER_MS = 60_000;
const BACKOFF_BASE_MS = 1_000;

// Worth another try: the service said "later" (429), failed on its side (5xx, not charged), or
// the call never completed. Never: auth (401/403), credits (402), refusals and other 4xx, and
// answers that came back (available: false, wrong shape), which the same request would repeat.
const RETRYABLE_CODES = new Set([
	'ECONNRESET',
	'ECONNREFUSED',
	'ECONNABORTED',
	'ETIMEDOUT',
	'EPIPE',
	'EAI_AGAIN',
]);

function isRetryable({ status, code }: FailedCall): boolean {
	if (status !== undefined) return status === 429 || status >= 500;
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

/**
 * How long to wait before retry number `attempt` (1-based), or undefined to give up: not
 * retryable, out of retries, or a Retry-After longer than the node is willing to wait.
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
	return BACKOFF_BASE_MS * 2 ** (attempt - 1);
}
