import { sleep } from 'n8n-workflow';
import { RunStopped } from './errors';
import { RateQuota, type Announced, type QuotaHint, type QuotaMemory } from './quota';

// The pace of a run's calls: CallScheduler bounds the calls in flight and paces their starts;
// RateQuota (quota.ts) reads a quota per window from the service's answers. Plain values only.

/** What a finished call tells the scheduler about the service's capacity. */
export type CallVerdict =
	/** Answered; `announced`: what its rate-limit headers state, when it has any. */
	| { kind: 'ok'; announced?: Announced }
	| { kind: 'neutral' }
	/** 429, or a connection refused or reset: the service is over its capacity or quota. */
	| { kind: 'congested'; waitMs: number; hint?: QuotaHint };

export type Release = (verdict: CallVerdict) => void;

/** What a run learned of a service's limits: where the next run against it starts. */
export interface Learned extends QuotaMemory {
	/** A limit on calls in flight the service showed, below the run's Max Calls in Flight. */
	bound?: number;
}

export interface SchedulerSettings {
	/** The most calls in flight at once, whatever the service seems to take. */
	maxInFlight: number;
	/** How long the run may wait on rate limits without a call going through (progress). */
	rateLimitWaitMs: number;
	/** What an earlier run learned of this service. */
	learned?: Learned;
	/** The execution's cancel signal. */
	cancelSignal?: AbortSignal;
}

// After a congestion, the limit grows by one only after this many successes; each further
// congestion doubles it, so probing a service's capacity costs few refused (free) calls.
const FIRST_PROBE_AFTER = 8;
const MAX_PROBE_AFTER = 1024;

/**
 * One per node run, shared by every input item and every page: bounds the calls in flight and
 * paces their starts, adapting both to what the service says. A run starts every call it has at
 * once, up to its bound (a refused call is free and takes one round trip; a slow start costs
 * every run several), or at what an earlier run learned. A refusal then reads as a limit on calls
 * in flight (the bound drops to what the service was serving, and probes one call higher after
 * a run of successes) or as a quota on calls per window (RateQuota paces starts to it; the bound
 * stays). While a refusal could be either, one call beyond the bound, once a quota's window
 * would have turned, tells them apart.
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

	/** The bound was lowered for a limit on calls in flight (what the next run starts at). */
	private capped: boolean;

	/**
	 * The bound was lowered by a refusal a known quota does not explain: a limit on calls in flight,
	 * or another client of the same key. One call beyond it, when the quota has room, tells.
	 */
	private boundSuspect = false;

	/** Not before the service's Retry-After of the refusal that lowered the bound. */
	private boundProbeNotBefore = 0;

	/** The call started beyond the bound to tell a quota from a limit on calls in flight, and when. */
	private boundProbe: number | undefined;

	private boundProbeAt = 0;

	/** The bound before the last decrease, back when that decrease turns out to be a quota's. */
	private limitBeforeDecrease: number;

	private readonly quota = new RateQuota();

	private stopped: RunStopped | undefined;

	/** Rejects every pending wait when the run stops. */
	private readonly sleepers = new Set<(reason: RunStopped) => void>();

	/** When a call of the run last went through: the rate-limit budget counts from there. */
	private lastProgressAt = Date.now();

	constructor(private readonly settings: SchedulerSettings) {
		const { maxInFlight, learned } = settings;
		this.limit = Math.min(maxInFlight, learned?.bound ?? maxInFlight);
		this.limitBeforeDecrease = maxInFlight;
		this.capped = learned?.bound !== undefined;
		this.quota.recall(learned ?? {});
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

	/** What this run learned of the service, for the next run against it. */
	learned(): Learned {
		const bound = this.capped && this.limit < this.settings.maxInFlight ? this.limit : undefined;
		return { ...(bound !== undefined && { bound }), ...this.quota.known() };
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
		if (this.inFlight.size >= this.limit) [this.boundProbe, this.boundProbeAt] = [seq, Date.now()];
		this.inFlight.set(seq, this.inFlight.size);
		this.quota.started(seq, Date.now());
		return seq;
	}

	/** How long until another call may start: 0 now, Infinity when the bound is full. */
	private roomInMs() {
		const now = Date.now();
		const wait = Math.max(this.pausedUntil - now, this.quota.delayMs(now), 0);
		if (this.inFlight.size < this.limit) return wait;
		return Math.max(wait, this.boundProbeInMs(now));
	}

	/**
	 * The bound is full. When a quota explains it as well (a candidate), one call beyond it, once
	 * the quota's window has room again, tells them apart: a quota takes it, a limit on calls in
	 * flight refuses it (one free call). While it is out: until its refusal would have come back.
	 */
	private boundProbeInMs(now: number) {
		if (this.boundProbe !== undefined) return this.quota.refusedBy(this.boundProbeAt) - now;
		if (this.inFlight.size > this.limit) return Infinity;
		const room = this.boundSuspect ? this.quota.roomInMs(now) : this.quota.candidateRoomInMs(now);
		return Math.max(room, this.boundProbeNotBefore - now);
	}

	/** The call beyond the bound was not refused when a refusal would have come: taken. */
	private settleBoundProbe(now: number) {
		if (this.boundProbe === undefined || now < this.quota.refusedBy(this.boundProbeAt)) return;
		this.boundProbe = undefined;
		this.boundTaken();
	}

	/** A call beyond the bound went through: the bound was a quota's (or another client's). */
	private boundTaken() {
		if (this.quota.confirmCandidate() || this.boundSuspect) this.quotaFound();
	}

	private hasRoom() {
		return this.roomInMs() === 0;
	}

	private release(seq: number, verdict: CallVerdict) {
		const ahead = this.inFlight.get(seq) ?? 0;
		this.inFlight.delete(seq);
		// Anything but a 429 (a 5xx, a timeout, a reset) may have reached the service and count
		// against a quota; a 429 is RateQuota's to read in shrink().
		if (verdict.kind !== 'congested' || !verdict.hint)
			this.quota.answered(seq, Date.now(), verdict.kind === 'ok');
		const probedBound = seq === this.boundProbe;
		if (probedBound) this.boundProbe = undefined;
		if (verdict.kind === 'ok') {
			this.lastProgressAt = Date.now();
			if (verdict.announced) this.readAnnounced(verdict.announced);
			if (probedBound) this.boundTaken();
			this.grow();
		}
		if (verdict.kind === 'congested') {
			// A refused call took no capacity: it is not what the calls behind it were waiting on.
			for (const [other, count] of this.inFlight) {
				// Stryker disable next-line EqualityOperator: `seq` left inFlight above, so `>=` finds the same calls
				if (other > seq) this.inFlight.set(other, count - 1);
			}
			this.shrink(seq, ahead, verdict);
			// Refused beyond the bound while a quota's window had room: the bound is no quota's.
			if (probedBound) {
				this.quota.dropCandidate();
				this.boundSuspect = false;
			}
		}
		this.pump();
	}

	/**
	 * What an answer's headers announce: a quota per window is paced to before any refusal; none
	 * left (another client of the same key used it) holds the run off until the reset.
	 */
	private readAnnounced({ limit, windowMs, remaining, resetMs }: Announced) {
		if (limit !== undefined && windowMs !== undefined && this.quota.announce(limit, windowMs))
			this.quotaFound();
		// With a window, the run paces its own calls; without one, none left means wait for the reset.
		if (remaining === 0 && resetMs !== undefined && windowMs === undefined)
			this.pausedUntil = Math.max(this.pausedUntil, Date.now() + resetMs);
	}

	/** A quota says nothing of calls at once: a decrease it was first taken for is undone. */
	private quotaFound() {
		this.limit = Math.max(this.limit, this.limitBeforeDecrease);
		// An earlier decrease (a limit on calls in flight as well) may stand.
		this.capped &&= this.limit < this.settings.maxInFlight;
		this.boundSuspect = false;
	}

	private grow() {
		if (this.limit >= this.settings.maxInFlight) return;
		if (++this.successes < this.probeAfter) return;
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
		if (reading === 'quota found') this.quotaFound();
		if (reading === 'quota' || reading === 'quota found') return;
		// The other refusals of a wave already handled say nothing new, and read late (once the
		// calls before them have ended) they would count too few: only a new wave lowers the limit.
		if (seq < this.lastDecreaseSeq) return;
		this.limitBeforeDecrease = this.limit;
		this.limit = Math.max(1, Math.min(this.limit, serving));
		this.successes = 0;
		this.probeAfter = Math.min(this.probeAfter * 2, MAX_PROBE_AFTER);
		this.lastDecreaseSeq = this.nextSeq;
		this.boundProbeNotBefore = Date.now() + waitMs;
		this.capped = true;
		this.boundSuspect = this.quota.isConfirmed();
	}

	/** Starts queued calls while there is room; wakes itself when a pause or quota allows. */
	private pump() {
		this.settleBoundProbe(Date.now());
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
