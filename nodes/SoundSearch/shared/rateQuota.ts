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
const MAX_MARGIN_SHARE = 0.1;

/**
 * A quota on calls (N per rolling window), learnt from the service's refusals: the calls the
 * service took in the window before a refused one are its quota, the window is what the headers
 * say or else how long the service asks to wait. While one reading could also be a limit on calls
 * in flight, the quota is a candidate: one call beyond it tells (accepted: no quota; refused with
 * fewer calls ahead of it than that limit would need: confirmed; else it tells nothing and a later
 * one tests again). The service counts a call when it arrives, which a busy client may send well
 * after it started it: an answered call is placed at its answer less the quickest round trip
 * seen, and a call still in flight counts as in the window.
 */
export class RateQuota {
	/** `serving`: for a candidate, the fewest calls ahead of a refusal it was read from. */
	private quota:
		| { limit: number; windowMs: number; confirmed: boolean; serving: number }
		| undefined;

	/** Calls not refused, by sequence number: when the service (at the latest) took them. */
	private readonly calls = new Map<number, { at: number; answered: boolean }>();

	private quickestMs = Infinity;

	private marginMs = MIN_MARGIN_MS;

	/** The call started beyond a candidate quota to test it. */
	private probeSeq: number | undefined;

	/** Refusals of calls started before this sequence number belong to the wave already read. */
	// Stryker disable next-line UnaryOperator: only call 0 can tell -1 from 1, and its refusal (no call before it) sets no quota whose margin a wave could widen
	private waveSeq = -1;

	started(seq: number, now: number) {
		this.calls.set(seq, { at: now, answered: false });
		// Stryker disable next-line ConditionalExpression: a confirmed quota never lets a call start beyond it (delayMs), so `used > limit` is false for it anyway
		if (this.quota && !this.quota.confirmed && this.used(now) > this.quota.limit)
			this.probeSeq ??= seq;
		// Stryker disable next-line CallExpression: forgetting only bounds memory (see forget)
		this.forget(now);
	}

	/** A call was answered, not refused; a probe beyond a candidate quota that was disproves it. */
	answered(seq: number, now: number) {
		const call = this.calls.get(seq);
		if (call && !call.answered) {
			this.quickestMs = Math.min(this.quickestMs, now - call.at);
			call.at = Math.max(call.at, now - this.quickestMs);
			call.answered = true;
		}
		if (seq !== this.probeSeq) return;
		this.probeSeq = undefined;
		if (!this.quota?.confirmed) this.quota = undefined;
	}

	/**
	 * Reads a refusal (`serving`: calls ahead of it when it started, not refused): a quota's, `quota
	 * found` when it turns a candidate into one. None serving, a probe refused or a stated limit
	 * mean a quota; else a limit on calls in flight explains it as well, and the quota stays a
	 * candidate.
	 */
	refused(
		seq: number,
		hint: QuotaHint,
		serving: number,
		nextSeq: number,
		now: number,
	): QuotaReading {
		this.calls.delete(seq);
		const windowMs = Math.max(hint.windowMs ?? hint.retryAfterMs, 1000, this.quota?.windowMs ?? 0);
		// At most what the service may have had in its window when it refused: calls before this
		// one in flight, or answered within a window of now (the refusal came back at once).
		const counted = this.count(now - windowMs, seq);
		// The call beyond a candidate, refused with fewer calls ahead of it than the service was
		// serving when it refused before: a limit on calls in flight does not explain it.
		const probeTells = seq === this.probeSeq && serving < (this.quota?.serving ?? 0);
		const isQuota = hint.limit !== undefined || serving === 0 || probeTells;
		if (seq === this.probeSeq) this.probeSeq = undefined;
		const sameWave = seq < this.waveSeq;
		if (!sameWave) this.waveSeq = nextSeq;
		const known = this.quota;
		// A known quota refused anew at its size: the service took the calls later than the run
		// reckons, so the run leaves a wider margin.
		if (known?.confirmed && !sameWave && counted >= known.limit && hint.limit === undefined)
			this.marginMs = Math.min(this.marginMs * 2, known.windowMs * MAX_MARGIN_SHARE);
		// A quota only goes down; a refusal none of the run's calls explains (another client's, an
		// outage) sets none.
		const limit = hint.limit ?? Math.min(counted, known?.limit ?? Infinity);
		if (limit === 0) return isQuota ? 'quota' : 'calls in flight';
		if (!isQuota) {
			if (!known?.confirmed) {
				const fewest = Math.min(serving, known?.serving ?? Infinity);
				this.quota = { limit, windowMs, confirmed: false, serving: fewest };
			}
			return 'calls in flight';
		}
		this.quota = { limit, windowMs, confirmed: true, serving: 0 };
		return known?.confirmed ? 'quota' : 'quota found';
	}

	/** Ms until the quota lets another call start (0: now). */
	delayMs(now: number): number {
		const quota = this.quota;
		// Nothing starts while the call beyond a candidate is out: a later call could reach the
		// service first and be what it refuses. Its answer (or refusal) starts the next call.
		if (this.probeSeq !== undefined) return Infinity;
		if (!quota || this.used(now) < quota.limit) return 0;
		// A candidate lets one call beyond it start, to tell whether it is real.
		if (!quota.confirmed) return 0;
		// Calls in flight stay in the window until answered: the answer may be what frees a slot.
		const answered = [...this.calls.values()].filter((call) => call.answered);
		const times = answered.map((call) => call.at).sort((a, b) => a - b);
		const roomLeft = quota.limit - (this.calls.size - answered.length);
		if (roomLeft <= 0) return Infinity;
		// The quota is full, so at least `roomLeft` answered calls are in the window: the one that
		// frees the slot is never an older one, which is why `times` needs no filter on the window.
		return Math.max(1, times[times.length - roomLeft] + this.spanMs() - now);
	}

	private spanMs() {
		return (this.quota?.windowMs ?? 0) + this.marginMs;
	}

	private used(now: number) {
		return this.count(now - this.spanMs(), Infinity);
	}

	/** Calls started before `beforeSeq` that are in flight or were placed after `since`. */
	private count(since: number, beforeSeq: number) {
		let count = 0;
		for (const [seq, call] of this.calls) {
			// Stryker disable next-line EqualityOperator: refused() deletes the refused call before it counts, so `seq <= beforeSeq` counts the same calls
			if (seq < beforeSeq && (!call.answered || call.at > since)) count += 1;
		}
		return count;
	}

	/** Answered calls older than any window read so far say nothing more. */
	// Stryker disable next-line BlockStatement: it only bounds memory; count() and delayMs() skip calls out of the window
	private forget(now: number) {
		const keepSince = now - Math.max(this.spanMs(), 60_000) * 2;
		// Stryker disable next-line BlockStatement: memory only, as above
		for (const [seq, call] of this.calls) {
			// Stryker disable next-line ConditionalExpression,EqualityOperator: memory only, as above (a call kept or dropped at keepSince is out of every window)
			if (call.answered && call.at < keepSince) this.calls.delete(seq);
		}
	}
}
