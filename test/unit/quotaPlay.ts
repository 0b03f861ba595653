import { RateQuota, type QuotaHint } from '../../nodes/shared/quota';

// RateQuota takes the time as an argument: each test plays a run on a clock of its own (ms).

/** A 429 asking to come back in `retryAfterMs`, and what its headers state of a quota. */
export const tooMany = (retryAfterMs: number, stated: Partial<QuotaHint> = {}): QuotaHint => ({
	retryAfterMs,
	...stated,
});

/** Calls `seqs` start at `startAt` and are answered at `answerAt` (one round trip each). */
export function served(quota: RateQuota, seqs: number[], startAt: number, answerAt: number) {
	for (const seq of seqs) quota.started(seq, startAt);
	for (const seq of seqs) quota.answered(seq, answerAt);
}

/**
 * Calls 0-3 went through (started at 0, answered at 100: placed at 0), call 4 was refused at 100
 * with nothing in flight: a quota of 4 per second, confirmed.
 */
export function quotaOfFour(stated: Partial<QuotaHint> = {}) {
	const quota = new RateQuota();
	served(quota, [0, 1, 2, 3], 0, 100);
	quota.started(4, 0);
	const reading = quota.refused(4, tooMany(1000, stated), 0, 5, 100);
	return { quota, reading };
}

/**
 * A quota of 4 per second an earlier run learnt and tried above long enough (so no try comes in a
 * test's few windows), with calls 0-3 taken at 0 (answered at 100).
 */
export function steadyQuotaOfFour() {
	const quota = new RateQuota();
	quota.recall({
		quota: { limit: 4, windowMs: 1000, announced: false, probeWindows: 64 },
		refusalMs: 100,
	});
	served(quota, [0, 1, 2, 3], 0, 100);
	return quota;
}
