import type { IDataObject } from 'n8n-workflow';

/** What a refusal says of a quota: when to come back and, if the service tells, its size. */
export interface QuotaHint {
	/** Retry-After (or the rate-limit reset) in ms; 0 when the service did not say. */
	retryAfterMs: number;
	/** Requests allowed per window (RateLimit-Limit, X-RateLimit-Limit, RateLimit-Policy). */
	limit?: number;
	/** The window's length (the `w=` of RateLimit-Policy or RateLimit-Limit). */
	windowMs?: number;
}

/** The rate-limit headers the node reads, lower-case as they arrive. */
export const RATE_LIMIT_HEADERS = [
	'ratelimit-limit',
	'ratelimit-policy',
	'x-ratelimit-limit',
] as const;

/** A whole number at the start of a header value ("10", "10, 10;w=1", "10;w=1"). */
function leadingCount(raw: unknown): number | undefined {
	const match = typeof raw === 'string' ? /^\s*(\d+)/.exec(raw) : null;
	const count = match ? Number(match[1]) : NaN;
	return Number.isSafeInteger(count) && count > 0 ? count : undefined;
}

function windowOf(raw: unknown): number | undefined {
	const match = typeof raw === 'string' ? /;\s*w=(\d+)/.exec(raw) : null;
	const seconds = match ? Number(match[1]) : NaN;
	return seconds > 0 ? seconds * 1000 : undefined;
}

/** The quota a 429's headers state, when they state one; never required. */
export function quotaHint(headers: IDataObject | undefined, retryAfterMs: number): QuotaHint {
	const policy = headers?.['ratelimit-policy'];
	const limit = headers?.['ratelimit-limit'] ?? headers?.['x-ratelimit-limit'];
	return {
		retryAfterMs,
		limit: leadingCount(policy) ?? leadingCount(limit),
		windowMs: windowOf(policy) ?? windowOf(limit),
	};
}

/** What a refusal was read as; 'quota found' when it confirmed a quota for the first time. */
export type QuotaReading = 'quota' | 'quota found' | 'calls in flight';

// A service counts a call when it arrives, the run when it starts it: the run leaves a margin so
// that a call started just as a slot frees is not refused for arriving a little early.
const MIN_MARGIN_MS = 25;
const MAX_MARGIN_SHARE = 0.25;

/**
 * A quota on call starts (N calls per rolling window), learnt from the service's refusals: the
 * calls the service accepted in the window before a refused one are its quota, the window is what
 * the headers say or else how long the service asks to wait after a burst. While one reading
 * could also be a limit on calls in flight, the quota is a candidate: one call beyond it tells
 * (accepted: no quota; refused: confirmed).
 */
export class RateQuota {
	private quota: { limit: number; windowMs: number; confirmed: boolean } | undefined;

	/** Starts of calls not (yet) refused, by sequence number, in start order. */
	private readonly starts = new Map<number, number>();

	private marginMs = MIN_MARGIN_MS;

	/** The call started beyond a candidate quota to test it. */
	private probeSeq: number | undefined;

	/** Refusals of calls started before this sequence number belong to the wave already read. */
	private waveSeq = -1;

	started(seq: number, now: number) {
		this.starts.set(seq, now);
		if (this.quota && !this.quota.confirmed && this.used(now) > this.quota.limit)
			this.probeSeq ??= seq;
		this.forget(now);
	}

	/** A call was answered: a probe beyond a candidate quota that went through disproves it. */
	accepted(seq: number) {
		if (seq !== this.probeSeq) return;
		this.probeSeq = undefined;
		if (!this.quota?.confirmed) this.quota = undefined;
	}

	/**
	 * Reads a refusal: a quota's (`confirmed` when it turns a candidate into a quota) or maybe a
	 * limit on calls in flight. `serving`: calls started before it and still
	 * in flight. None, a probe refused, or a stated limit: a quota. Else a limit on calls in
	 * flight explains it as well, and the quota stays a candidate.
	 */
	refused(seq: number, hint: QuotaHint, serving: number, nextSeq: number): QuotaReading {
		const at = this.starts.get(seq);
		this.starts.delete(seq);
		const windowMs = Math.max(hint.windowMs ?? hint.retryAfterMs, 1000, this.quota?.windowMs ?? 0);
		const counted = this.countBefore(seq, (at ?? 0) - windowMs);
		const isQuota = hint.limit !== undefined || serving === 0 || seq === this.probeSeq;
		if (seq === this.probeSeq) this.probeSeq = undefined;
		const sameWave = seq < this.waveSeq;
		if (!sameWave) this.waveSeq = nextSeq;
		const known = this.quota;
		// A known quota refused anew at about its size: the run started calls a little early.
		if (known?.confirmed && !sameWave && counted >= known.limit - 1 && hint.limit === undefined)
			this.marginMs = Math.min(this.marginMs * 2, known.windowMs * MAX_MARGIN_SHARE);
		// A quota only goes down (refusals of one wave read out of order count too many); a
		// refusal none of the run's calls explains (another client's, an outage) sets none.
		const limit = hint.limit ?? Math.min(counted, known?.limit ?? Infinity);
		if (limit === 0) return isQuota ? 'quota' : 'calls in flight';
		if (!isQuota) {
			if (!known?.confirmed) this.quota = { limit, windowMs, confirmed: false };
			return 'calls in flight';
		}
		this.quota = { limit, windowMs, confirmed: true };
		return known?.confirmed ? 'quota' : 'quota found';
	}

	/** Ms until the quota lets another call start (0: now). */
	delayMs(now: number): number {
		const quota = this.quota;
		if (!quota || this.used(now) < quota.limit) return 0;
		// A candidate lets one call beyond it start, to tell whether it is real.
		if (!quota.confirmed && this.probeSeq === undefined) return 0;
		const inWindow = [...this.starts.values()].filter((at) => at > now - this.spanMs());
		const oldestCounted = inWindow[inWindow.length - quota.limit];
		return Math.max(1, oldestCounted + this.spanMs() - now);
	}

	private spanMs() {
		return (this.quota?.windowMs ?? 0) + this.marginMs;
	}

	private used(now: number) {
		let count = 0;
		for (const at of this.starts.values()) if (at > now - this.spanMs()) count += 1;
		return count;
	}

	private countBefore(seq: number, since: number) {
		let count = 0;
		for (const [other, at] of this.starts) if (other < seq && at > since) count += 1;
		return count;
	}

	/** Starts older than any window read so far say nothing more. */
	private forget(now: number) {
		const keepSince = now - Math.max(this.spanMs(), 60_000) * 2;
		for (const [seq, at] of this.starts) {
			if (at >= keepSince) break;
			this.starts.delete(seq);
		}
	}
}
