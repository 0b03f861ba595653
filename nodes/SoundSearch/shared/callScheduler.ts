import { sleep } from 'n8n-workflow';

/** Why a call was not started: the run is doomed by another item's failure, or cancelled. */
export class RunStopped extends Error {}

/** What a finished call tells the scheduler about the service's capacity. */
export type CallVerdict =
	| { kind: 'ok' }
	| { kind: 'neutral' }
	/** 429, or a connection refused or reset: the service is over its capacity. */
	| { kind: 'congested'; waitMs: number };

export type Release = (verdict: CallVerdict) => void;

export interface SchedulerSettings {
	/** The most calls in flight at once, whatever the service seems to take. */
	maxInFlight: number;
	/** Total wall-clock time the run may spend waiting on rate limits. */
	rateLimitWaitMs: number;
	/** The execution's cancel signal. */
	cancelSignal?: AbortSignal;
}

// After a congestion, the limit grows by one only after this many successes; each further
// congestion doubles it, so probing a service's capacity costs few refused (free) calls.
const FIRST_PROBE_AFTER = 8;
const MAX_PROBE_AFTER = 1024;

/**
 * One per node run, shared by every input item and every page: bounds the calls in flight and
 * adapts the bound to what the service says. It starts at the user's bound (a service without a
 * limit is not slowed down), drops to what the service was serving when it refused a call, and
 * probes one call higher after a run of successes.
 */
export class CallScheduler {
	private limit: number;

	private nextSeq = 0;

	private readonly inFlight = new Set<number>();

	private readonly queue: Array<{ start: () => void; stop: (error: Error) => void }> = [];

	private pausedUntil = 0;

	private pauseTimer = false;

	private successes = 0;

	private probeAfter = FIRST_PROBE_AFTER;

	/** Calls started before this sequence number belong to a congestion already handled. */
	private lastDecreaseSeq = -1;

	private stopped: RunStopped | undefined;

	/** Rejects every pending wait when the run stops. */
	private readonly sleepers = new Set<(reason: RunStopped) => void>();

	private readonly rateLimitWait = { waiting: 0, since: 0, spentMs: 0 };

	constructor(private readonly settings: SchedulerSettings) {
		this.limit = settings.maxInFlight;
		const cancel = () => this.stop(new RunStopped('The execution was cancelled'));
		if (settings.cancelSignal?.aborted) cancel();
		else settings.cancelSignal?.addEventListener('abort', cancel, { once: true });
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
		try {
			// A race rather than sleep's own signal: older n8n versions' sleep takes none.
			await Promise.race([sleep(ms), stopped]);
		} finally {
			this.sleepers.delete(wake);
		}
	}

	/** Whether the run's rate-limit budget still allows waiting `ms` more. */
	mayWaitForRateLimit(ms: number): boolean {
		const budget = this.rateLimitWait;
		const spent = budget.spentMs + (budget.waiting > 0 ? Date.now() - budget.since : 0);
		return spent + ms <= this.settings.rateLimitWaitMs;
	}

	/**
	 * Waits `ms` for a rate limit. The budget counts wall-clock time during which any call of
	 * the run was waiting on a rate limit, so parallel waits are not counted twice.
	 */
	async waitForRateLimit(ms: number) {
		const budget = this.rateLimitWait;
		if (budget.waiting++ === 0) budget.since = Date.now();
		try {
			await this.wait(ms);
		} finally {
			if (--budget.waiting === 0) budget.spentMs += Date.now() - budget.since;
		}
	}

	private async acquire(): Promise<number> {
		if (this.stopped) throw this.stopped;
		if (this.queue.length === 0 && this.hasRoom()) return this.take();
		return await new Promise<number>((resolve, reject) => {
			this.queue.push({ start: () => resolve(this.take()), stop: reject });
			this.pump();
		});
	}

	/** Marks a call as in flight at once, so a burst of releases cannot over-fill the limit. */
	private take(): number {
		const seq = this.nextSeq++;
		this.inFlight.add(seq);
		return seq;
	}

	private hasRoom() {
		return this.inFlight.size < this.limit && Date.now() >= this.pausedUntil;
	}

	private release(seq: number, verdict: CallVerdict) {
		this.inFlight.delete(seq);
		if (verdict.kind === 'ok') this.grow();
		if (verdict.kind === 'congested') this.shrink(seq, verdict.waitMs);
		this.pump();
	}

	private grow() {
		if (this.limit >= this.settings.maxInFlight || ++this.successes < this.probeAfter) return;
		this.limit += 1;
		this.successes = 0;
	}

	/**
	 * The calls started before the refused one and still in flight are what the service was
	 * serving when it refused: that is its capacity, as far as this run can tell.
	 */
	private shrink(seq: number, waitMs: number) {
		const serving = [...this.inFlight].filter((other) => other < seq).length;
		// Nothing of this run was in flight: the limit is not about calls at once (a quota, a rate
		// per second) or the service is down, so the whole run holds off as asked.
		if (serving === 0) this.pausedUntil = Math.max(this.pausedUntil, Date.now() + waitMs);
		// The other refusals of a wave already handled say nothing new, and read late (once the
		// calls before them have ended) they would count too few: only a new wave lowers the limit.
		if (seq < this.lastDecreaseSeq) return;
		this.limit = Math.max(1, Math.min(this.limit, serving));
		this.successes = 0;
		this.probeAfter = Math.min(this.probeAfter * 2, MAX_PROBE_AFTER);
		this.lastDecreaseSeq = this.nextSeq;
	}

	/** Starts queued calls while there is room; wakes itself when a pause ends. */
	private pump() {
		while (this.queue.length > 0 && this.hasRoom()) this.queue.shift()?.start();
		const pauseLeft = this.pausedUntil - Date.now();
		if (this.queue.length === 0 || pauseLeft <= 0 || this.pauseTimer) return;
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
