import { sleep } from 'n8n-workflow';
import { RunStopped } from './errors';
import { RateQuota, type Announced, type QuotaHint, type QuotaMemory } from './quota';

// The pace of a run's calls: how many at once, and when each may start.

/** What a finished call tells of the service's capacity; 429s and refused connections congest. */
export type CallVerdict =
	| { kind: 'ok'; announced?: Announced }
	| { kind: 'neutral' }
	| { kind: 'congested'; waitMs: number; hint?: QuotaHint };

export type Release = (verdict: CallVerdict) => void;

/** What a run learned of a service's limits (`bound`: on calls in flight): where the next starts. */
export interface Learned extends QuotaMemory {
	bound?: number;
}

export interface SchedulerSettings {
	/** Max Calls in Flight, whatever the service seems to take. */
	maxInFlight: number;
	/** How long the run may wait on rate limits without a call going through. */
	rateLimitWaitMs: number;
	learned?: Learned;
	cancelSignal?: AbortSignal;
}

// After a congestion the bound grows by one per this many successes, doubled by each further one.
const FIRST_PROBE_AFTER = 8;
const MAX_PROBE_AFTER = 1024;

/**
 * One per run, shared by every item and page: bounds the calls in flight and paces their starts.
 * A run starts every call at once up to its bound or what an earlier run learned (a refused call is
 * free, a slow start costs every run round trips). A refusal reads as a limit on calls in flight
 * (the bound drops to what the service served, then grows slowly while it is full) or as a quota
 * per window (RateQuota paces starts). While it could be either, one call beyond the bound tells
 * them apart.
 */
export class CallScheduler {
	private limit: number;
	private nextSeq = 0;

	/** Calls in flight, each with the calls ahead of it when it started and not refused since. */
	private readonly inFlight = new Map<number, number>();

	private readonly queue: Array<{ start: () => void; stop: (error: Error) => void }> = [];

	private pausedUntil = 0;
	/** When the pump's timer wakes it, if one is set. */
	private wakeAt: number | undefined;
	private successes = 0;
	private probeAfter = FIRST_PROBE_AFTER;

	/** Calls started before this sequence number belong to a congestion already handled. */
	private lastDecreaseSeq = -1;

	/** The refusal that last lowered the bound, and the calls ahead of it not refused since. */
	private decrease: { seq: number; serving: number } | undefined;

	/** The bound was lowered for a limit on calls in flight (the next run starts at it). */
	private capped: boolean;

	/** Lowered by a refusal a known quota does not explain (a limit, or another client of the key). */
	private boundSuspect = false;

	/**
	 * A call beyond the bound went through and the bound went back up: lowered again, it stays. A
	 * busy n8n counts answers it has not read yet as calls in flight, so a limit on calls in flight
	 * takes a call beyond its bound now and then; testing it again would refuse a wave each time.
	 */
	private boundRestored = false;

	/** The Retry-After of the refusal that lowered the bound. */
	private boundProbeNotBefore = 0;

	/** The call started beyond the bound to tell a quota from a limit on calls in flight. */
	private boundProbe: number | undefined;
	private boundProbeAt = 0;

	/** The bound before the last decrease, back if that decrease turns out to be a quota's. */
	private limitBeforeDecrease: number;

	private readonly quota = new RateQuota();
	private stopped: RunStopped | undefined;
	private readonly sleepers = new Set<(reason: RunStopped) => void>();

	/** When a call last went through: the rate-limit budget counts from there. */
	private lastProgressAt = Date.now();

	constructor(private readonly settings: SchedulerSettings) {
		const { maxInFlight, learned } = settings;
		this.limit = Math.min(maxInFlight, learned?.bound ?? maxInFlight);
		this.capped = learned?.bound !== undefined;
		this.quota.recall(learned ?? {});
		// A bound learnt beside a quota is tested again, once the quota has room; taken, it doubles.
		// Not given back whole: a real limit on calls in flight takes such a call now and then (a
		// busy n8n counts more calls in flight than the service has), and a wave would be refused.
		this.boundSuspect = this.capped && this.quota.isConfirmed();
		this.limitBeforeDecrease = this.boundSuspect
			? Math.min(maxInFlight, 2 * this.limit)
			: maxInFlight;
		const cancel = () => this.stop(new RunStopped('The execution was cancelled'));
		if (settings.cancelSignal?.aborted) cancel();
		else {
			// Stryker disable next-line ObjectLiteral,BooleanLiteral: a signal aborts once, so `once` only lets the listener go
			settings.cancelSignal?.addEventListener('abort', cancel, { once: true });
		}
	}

	/** Runs `call` once a slot is free; it stays taken until `release` (the caller may stop the run first). */
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
		// A race, not sleep's own signal: older n8n versions' sleep takes none.
		// Stryker disable next-line ArrowFunction: forgetting the sleeper only frees memory (a stop ignores a settled race)
		await Promise.race([sleep(ms), stopped]).finally(() => this.sleepers.delete(wake));
	}

	/** Whether the run may wait `ms` more: the budget bounds time without progress, not the run. */
	mayWaitForRateLimit(ms: number): boolean {
		return Date.now() + ms - this.lastProgressAt <= this.settings.rateLimitWaitMs;
	}

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
		if (this.inFlight.size >= this.limit) {
			[this.boundProbe, this.boundProbeAt] = [seq, Date.now()];
		}
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

	// The bound is full. When a quota explains it as well, one call beyond it once the quota's
	// window has room tells: a quota takes it, a limit on calls in flight refuses it (a free call).
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
		if (!this.quota.confirmCandidate() && !this.boundSuspect) return;
		this.undoDecrease();
		this.boundRestored = true;
	}

	private release(seq: number, verdict: CallVerdict) {
		const ahead = this.inFlight.get(seq) ?? 0;
		// Only a bound in use can tell it could be higher (a quota may be what holds the calls back).
		const full = this.inFlight.size >= this.limit;
		this.inFlight.delete(seq);
		// Anything but a 429 may have reached the service and counts against a quota.
		if (verdict.kind !== 'congested' || !verdict.hint)
			this.quota.answered(seq, Date.now(), verdict.kind === 'ok');
		const probedBound = seq === this.boundProbe;
		if (probedBound) this.boundProbe = undefined;
		if (verdict.kind === 'ok') {
			this.lastProgressAt = Date.now();
			if (verdict.announced) this.readAnnounced(verdict.announced);
			if (probedBound) this.boundTaken();
			if (full) this.grow();
		}
		if (verdict.kind === 'congested') {
			// A refused call took no capacity: it is not what the calls behind it were waiting on.
			for (const [other, count] of this.inFlight) {
				// Stryker disable next-line EqualityOperator: `seq` left inFlight above, so `>=` finds the same calls
				if (other > seq) this.inFlight.set(other, count - 1);
			}
			// Refused beyond the bound when a candidate had room, and no quota explains it: the
			// bound is no quota's.
			if (!this.shrink(seq, ahead, verdict) && probedBound) {
				this.quota.dropCandidate();
				this.boundSuspect = false;
			}
		}
		this.pump();
	}

	/** A quota the headers announce is paced to; none left, without a window, holds off until the reset. */
	private readAnnounced({ limit, windowMs, remaining, resetMs }: Announced) {
		if (limit !== undefined && windowMs !== undefined && this.quota.announce(limit, windowMs))
			this.undoDecrease();
		if (remaining === 0 && resetMs !== undefined && windowMs === undefined)
			this.pausedUntil = Math.max(this.pausedUntil, Date.now() + resetMs);
	}

	/**
	 * The last decrease was no limit on calls in flight's (a quota's, or nothing of the run was
	 * served): undone.
	 */
	private undoDecrease() {
		this.decrease = undefined;
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
	 * `serving`: the calls ahead of the refused one when it started, not refused (a busy n8n may read
	 * a refusal after the answers ahead of it). True when a quota explains the refusal.
	 */
	private shrink(
		seq: number,
		serving: number,
		{ waitMs, hint }: { waitMs: number; hint?: QuotaHint },
	) {
		// n8n reads a burst of refusals out of order: a call the decrease counted as served was not.
		if (this.decrease && seq < this.decrease.seq) this.servedOneFewer(this.decrease);
		// Nothing of this run ahead of it: a quota, or the service is down; the whole run holds off.
		if (serving === 0) this.pausedUntil = Math.max(this.pausedUntil, Date.now() + waitMs);
		// Only a 429 can be a quota's; a refused or reset connection is about calls at once.
		const reading = hint && this.quota.refused(seq, hint, serving, this.nextSeq, Date.now());
		if (reading === 'quota found') this.undoDecrease();
		if (reading === 'quota' || reading === 'quota found') return true;
		// Only a new wave lowers the bound: a handled wave's other refusals, read late, count too few.
		if (seq < this.lastDecreaseSeq) return false;
		this.decrease = { seq, serving };
		this.limitBeforeDecrease = this.limit;
		this.limit = Math.max(1, Math.min(this.limit, serving));
		this.successes = 0;
		this.probeAfter = Math.min(this.probeAfter * 2, MAX_PROBE_AFTER);
		this.lastDecreaseSeq = this.nextSeq;
		this.boundProbeNotBefore = Date.now() + waitMs;
		this.capped = true;
		this.boundSuspect = this.quota.isConfirmed() && !this.boundRestored;
		return false;
	}

	/** A call ahead of the refusal that lowered the bound was refused too: the bound follows. */
	private servedOneFewer(decrease: { serving: number }) {
		decrease.serving -= 1;
		if (decrease.serving > 0) this.limit = Math.min(this.limit, decrease.serving);
		// Nothing of the run served when the service refused: no limit on calls in flight said so (a
		// quota another client used up, or the service down). Without this, a flood read out of
		// order left a bound of 1 and a quota of 1 a second.
		else this.undoDecrease();
	}

	/** Starts queued calls while there is room; wakes itself when a pause or quota allows. */
	private pump() {
		this.settleBoundProbe(Date.now());
		while (this.queue.length > 0 && this.roomInMs() === 0) this.queue.shift()?.start();
		const pauseLeft = this.roomInMs();
		if (this.queue.length === 0 || pauseLeft === Infinity) return;
		// An answer can bring the room closer (a call in flight is placed late in its window until
		// then): a timer set before it would start the next window's calls a round trip late.
		const wakeAt = Date.now() + pauseLeft;
		if (this.wakeAt !== undefined && this.wakeAt <= wakeAt) return;
		this.wakeAt = wakeAt;
		this.wait(pauseLeft).then(
			() => {
				// Stryker disable next-line ConditionalExpression: a timer an earlier one replaced, cleared anyway, only lets a later pump set one more timer; a pump starts nothing the room does not allow
				if (this.wakeAt === wakeAt) this.wakeAt = undefined;
				this.pump();
			},
			() => undefined,
		);
	}
}
