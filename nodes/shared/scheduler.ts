import { sleep } from 'n8n-workflow';
import { RunStopped } from './errors';

// The pace of a run's calls: CallScheduler bounds the calls in flight and paces their starts, and
// RateQuota (below) reads a quota per window from the service's refusals. Plain values only.

/** What a finished call tells the scheduler about the service's capacity. */
export type CallVerdict =
	| { kind: 'ok' }
	| { kind: 'neutral' }
	/** 429, or a connection refused or reset: the service is over its capacity or quota. */
	| { kind: 'congested'; waitMs: number; hint?: QuotaHint };

export type Release = (verdict: CallVerdict) => void;

export interface SchedulerSettings {
	/** The most calls in flight at once, whatever the service seems to take. */
	maxInFlight: number;
	/** How long the run may wait on rate limits without a call going through (progress). */
	rateLimitWaitMs: number;
	/** Calls started at once before the service has answered any (default 4). */
	firstWave?: number;
	/** The execution's cancel signal. */
	cancelSignal?: AbortSignal;
}

// After a congestion, the limit grows by one only after this many successes; each further
// congestion doubles it, so probing a service's capacity costs few refused (free) calls.
const FIRST_PROBE_AFTER = 8;
const MAX_PROBE_AFTER = 1024;
// A small first wave that grows by one call per two successes (half as much again each round
// trip) reaches the user's bound within a few round trips, and overshoots a service's limit or
// quota by about half of it, in refused (free) calls, once.
const FIRST_WAVE = 4;
const SLOW_START_STEP = 2;

/**
 * One per node run, shared by every input item and every page: bounds the calls in flight and
 * paces their starts, adapting both to what the service says. The bound starts small and grows
 * each round trip up to the user's bound until the service first refuses a call; a refusal then
 * reads as a limit on calls in flight (the bound drops to what the service was serving, and
 * probes one call higher after a run of successes) or as a quota on calls per window
 * (RateQuota paces starts to it; the bound stays).
 */
export class CallScheduler {
	private limit: number;

	private nextSeq = 0;

	/**
	 * Calls in flight, each with how many calls were ahead of it when it started and have not been
	 * refused since: what the service was serving when it arrived. A call still in flight that
	 * started after another one necessarily had it ahead, so a refusal lowers the count of every
	 * later call still in flight.
	 */
	private readonly inFlight = new Map<number, number>();

	private readonly queue: Array<{ start: () => void; stop: (error: Error) => void }> = [];

	private pausedUntil = 0;

	private pauseTimer = false;

	private successes = 0;

	private probeAfter = FIRST_PROBE_AFTER;

	/** Calls started before this sequence number belong to a congestion already handled. */
	private lastDecreaseSeq = -1;

	/** Growing by one per two successes until the service first refuses a call. */
	private slowStart = true;

	/** No wave of refusals lowered the bound yet. */
	private noWaveYet = true;

	/** The bound before the last decrease, back when that decrease turns out to be a quota's. */
	private limitBeforeDecrease: number;

	private readonly quota = new RateQuota();

	private stopped: RunStopped | undefined;

	/** Rejects every pending wait when the run stops. */
	private readonly sleepers = new Set<(reason: RunStopped) => void>();

	/** When a call of the run last went through: the rate-limit budget counts from there. */
	private lastProgressAt = Date.now();

	constructor(private readonly settings: SchedulerSettings) {
		this.limit = Math.min(settings.maxInFlight, settings.firstWave ?? FIRST_WAVE);
		this.limitBeforeDecrease = this.limit;
		const cancel = () => this.stop(new RunStopped('The execution was cancelled'));
		if (settings.cancelSignal?.aborted) cancel();
		else {
			// Stryker disable next-line ObjectLiteral,BooleanLiteral: a signal aborts once, so `once` only lets the listener go
			settings.cancelSignal?.addEventListener('abort', cancel, { once: true });
		}
	}

	/**
	 * Runs `call` once a slot is free. The slot stays taken until `release` is called with what
	 * the outcome says of the service, so the caller can decide (and stop the run) first.
	 */
	async send<T>(call: () => Promise<T>): Promise<{ outcome: T | Error; release: Release }> {
		const seq = await this.acquire();
		let outcome: T | Error;
		try {
			outcome = await call();
		} catch (error) {
			outcome = error instanceof Error ? error : new Error(String(error));
		}
		let released = false;
		const release = (verdict: CallVerdict) => {
			if (released) return;
			released = true;
			this.release(seq, verdict);
		};
		return { outcome, release };
	}

	/** No new call starts any more: queued calls and waiting retries are dropped. */
	stop(reason: RunStopped) {
		if (this.stopped) return;
		this.stopped = reason;
		for (const waiter of this.queue.splice(0)) waiter.stop(reason);
		for (const sleeper of this.sleepers) sleeper(reason);
	}

	get isStopped() {
		return this.stopped !== undefined;
	}

	/** Waits (a backoff) unless the run stops first. */
	async wait(ms: number) {
		if (this.stopped) throw this.stopped;
		let wake: (reason: RunStopped) => void = () => {};
		const stopped = new Promise<never>((_resolve, reject) => (wake = reject));
		this.sleepers.add(wake);
		// A race rather than sleep's own signal: older n8n versions' sleep takes none. Forgetting the
		// sleeper only frees memory: a stop that rejects a race already settled is ignored.
		// Stryker disable next-line ArrowFunction: memory only, as above
		await Promise.race([sleep(ms), stopped]).finally(() => this.sleepers.delete(wake));
	}

	/**
	 * Whether the run may wait `ms` more on a rate limit: the budget bounds time without progress
	 * (no call of the run went through), so a run moving at a service's quota never runs out of
	 * it, however long the quota makes the run, and a service refusing everything ends it.
	 */
	mayWaitForRateLimit(ms: number): boolean {
		return Date.now() + ms - this.lastProgressAt <= this.settings.rateLimitWaitMs;
	}

	private async acquire(): Promise<number> {
		if (this.stopped) throw this.stopped;
		// Queued first, whatever the room: pump() starts calls in the order they came.
		return await new Promise<number>((resolve, reject) => {
			this.queue.push({ start: () => resolve(this.take()), stop: reject });
			this.pump();
		});
	}

	/** Marks a call as in flight at once, so a burst of releases cannot over-fill the limit. */
	private take(): number {
		const seq = this.nextSeq++;
		this.inFlight.set(seq, this.inFlight.size);
		this.quota.started(seq, Date.now());
		return seq;
	}

	/** How long until another call may start: 0 now, Infinity when the bound is full. */
	private roomInMs() {
		if (this.inFlight.size >= this.limit) return Infinity;
		const now = Date.now();
		return Math.max(this.pausedUntil - now, this.quota.delayMs(now), 0);
	}

	private hasRoom() {
		return this.roomInMs() === 0;
	}

	private release(seq: number, verdict: CallVerdict) {
		const ahead = this.inFlight.get(seq) ?? 0;
		this.inFlight.delete(seq);
		// Anything but a 429 (a 5xx, a timeout, a reset) may have reached the service and count
		// against a quota; a 429 is RateQuota's to read in shrink().
		if (verdict.kind !== 'congested' || !verdict.hint) this.quota.answered(seq, Date.now());
		if (verdict.kind === 'ok') {
			this.lastProgressAt = Date.now();
			this.grow();
		}
		if (verdict.kind === 'congested') {
			// A refused call took no capacity: it is not what the calls behind it were waiting on.
			for (const [other, count] of this.inFlight) {
				// Stryker disable next-line EqualityOperator: `seq` left inFlight above, so `>=` finds the same calls
				if (other > seq) this.inFlight.set(other, count - 1);
			}
			this.shrink(seq, ahead, verdict);
		}
		this.pump();
	}

	private grow() {
		if (this.limit >= this.settings.maxInFlight) return;
		if (++this.successes < (this.slowStart ? SLOW_START_STEP : this.probeAfter)) return;
		this.limit += 1;
		this.successes = 0;
	}

	/**
	 * `serving`: the calls ahead of the refused one when it started (and not refused), which is
	 * what the service was serving when it refused: its capacity, as far as this run can tell.
	 * Counted from the start, not when the refusal is read: a busy n8n may read a refusal after
	 * the answers of the calls ahead of it, and reading it then as "nothing in flight" would take
	 * a limit on calls in flight for a small quota that paces the rest of the run.
	 */
	private shrink(
		seq: number,
		serving: number,
		{ waitMs, hint }: { waitMs: number; hint?: QuotaHint },
	) {
		// Nothing of this run was ahead of it: the limit is not about calls at once (a quota, a rate
		// per second) or the service is down, so the whole run holds off as asked.
		if (serving === 0) this.pausedUntil = Math.max(this.pausedUntil, Date.now() + waitMs);
		// Only a 429 can be a quota's; a refused or reset connection is about calls at once.
		const reading = hint && this.quota.refused(seq, hint, serving, this.nextSeq, Date.now());
		// A quota says nothing of calls at once; the decrease it was first taken for is undone.
		if (reading === 'quota found') this.limit = Math.max(this.limit, this.limitBeforeDecrease);
		if (reading === 'quota' || reading === 'quota found') {
			this.slowStart = false;
			return;
		}
		// The other refusals of a wave already handled say nothing new, and read late (once the
		// calls before them have ended) they would count too few: only a new wave lowers the limit.
		if (seq < this.lastDecreaseSeq) return;
		this.limitBeforeDecrease = this.limit;
		this.limit = Math.max(1, Math.min(this.limit, serving));
		this.successes = 0;
		this.probeAfter = Math.min(this.probeAfter * 2, MAX_PROBE_AFTER);
		this.lastDecreaseSeq = this.nextSeq;
		// A first 429 that a quota explains as well (RateQuota keeps it as a candidate): the bound
		// grows back at the first wave's pace once, so a quota misread as a small bound on calls
		// in flight is found within a few round trips. A second wave ends that.
		this.slowStart = reading === 'calls in flight' && this.noWaveYet;
		this.noWaveYet = false;
	}

	/** Starts queued calls while there is room; wakes itself when a pause or quota allows. */
	private pump() {
		while (this.queue.length > 0 && this.hasRoom()) this.queue.shift()?.start();
		const pauseLeft = this.roomInMs();
		if (this.queue.length === 0 || pauseLeft === Infinity || this.pauseTimer) return;
		this.pauseTimer = true;
		this.wait(pauseLeft).then(
			() => {
				this.pauseTimer = false;
				this.pump();
			},
			() => undefined,
		);
	}
}

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
export function quotaHint(
	headers: Record<string, unknown> | undefined,
	retryAfterMs: number,
): QuotaHint {
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
