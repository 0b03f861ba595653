import { sleep } from 'n8n-workflow';
import { RunStopped } from './errors';

// The pace of a run's calls: CallScheduler bounds the calls in flight and paces their starts, and
// RateQuota (below) reads a quota per window from the service's refusals or its rate-limit
// headers. Plain values only.

/** What a finished call tells the scheduler about the service's capacity. */
export type CallVerdict =
	/** Answered; `announced`: what its rate-limit headers state, when it has any. */
	| { kind: 'ok'; announced?: Announced }
	| { kind: 'neutral' }
	/** 429, or a connection refused or reset: the service is over its capacity or quota. */
	| { kind: 'congested'; waitMs: number; hint?: QuotaHint };

export type Release = (verdict: CallVerdict) => void;

/** What a run learned of a service's limits: where the next run against it starts. */
export interface Learned {
	/** A limit on calls in flight the service showed, below the run's Max Calls in Flight. */
	bound?: number;
	/** A quota per window, confirmed by refusals or announced by the service. */
	quota?: KnownQuota;
	/** The slowest refusal seen: a call in flight for longer has reached the service. */
	refusalMs?: number;
}

export interface KnownQuota {
	limit: number;
	windowMs: number;
	/** Stated by the service's headers: never probed above. */
	announced: boolean;
	/** Windows of calls at the quota, without a refusal, before the run tries one call more. */
	probeWindows: number;
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

/** What a refusal says of a quota: when to come back and, if the service tells, its size. */
/** What an answer's rate-limit headers state (draft IETF RateLimit headers, X-RateLimit-*). */
export interface Announced {
	/** Requests allowed per window (RateLimit-Policy, RateLimit-Limit, X-RateLimit-Limit). */
	limit?: number;
	/** The window's length (the `w=` of RateLimit-Policy or RateLimit-Limit). */
	windowMs?: number;
	/** Requests left in the window, for this key, whoever made the others. */
	remaining?: number;
	/** Until the window has room again. */
	resetMs?: number;
}

/** What a refusal says of a quota: when to come back and what its headers state. */
export interface QuotaHint extends Announced {
	/** Retry-After (or the rate-limit reset) in ms; 0 when the service did not say. */
	retryAfterMs: number;
}

/** The rate-limit headers the node reads, lower-case as they arrive. */
export const RATE_LIMIT_HEADERS = [
	'ratelimit',
	'ratelimit-limit',
	'ratelimit-policy',
	'ratelimit-remaining',
	'ratelimit-reset',
	'x-ratelimit-limit',
	'x-ratelimit-remaining',
	'x-ratelimit-reset',
] as const;

/** A whole number at the start of a header value ("10", "10, 10;w=1", "10;w=1"), or after `key=`. */
function countIn(raw: unknown, key?: string): number | undefined {
	const pattern = key ? new RegExp(`;\\s*${key}=(\\d+)`) : /^\s*(\d+)/;
	const match = typeof raw === 'string' ? pattern.exec(raw) : null;
	const count = match ? Number(match[1]) : NaN;
	return Number.isSafeInteger(count) ? count : undefined;
}

const positive = (count: number | undefined) =>
	count !== undefined && count > 0 ? count : undefined;

/** Seconds from now, or (X-RateLimit-Reset, some services) a Unix time in seconds. */
function resetOf(seconds: number | undefined, now: number): number | undefined {
	if (seconds === undefined) return undefined;
	return seconds > 1e9 ? Math.max(0, seconds * 1000 - now) : seconds * 1000;
}

/** What the headers of an answer (a page or a 429) state of a quota; never required. */
export function announcedIn(
	headers: Record<string, unknown> | undefined,
	now = Date.now(),
): Announced {
	const h = headers ?? {};
	const policy = h['ratelimit-policy'];
	const limit = h['ratelimit-limit'] ?? h['x-ratelimit-limit'];
	const windowS = positive(countIn(policy, 'w') ?? countIn(limit, 'w'));
	const announced: Announced = {
		limit: positive(countIn(policy) ?? countIn(policy, 'q') ?? countIn(limit)),
		windowMs: windowS && windowS * 1000,
		remaining:
			countIn(h['ratelimit-remaining'] ?? h['x-ratelimit-remaining']) ?? countIn(h.ratelimit, 'r'),
		resetMs: resetOf(
			countIn(h['ratelimit-reset'] ?? h['x-ratelimit-reset']) ?? countIn(h.ratelimit, 't'),
			now,
		),
	};
	return Object.fromEntries(Object.entries(announced).filter(([, v]) => v !== undefined));
}

/** The quota a 429's headers state, when they state one. */
export function quotaHint(
	headers: Record<string, unknown> | undefined,
	retryAfterMs: number,
): QuotaHint {
	return { retryAfterMs, ...announcedIn(headers) };
}

/** A call not refused: when it started and, once answered, when. */
interface Call {
	startedAt: number;
	answeredAt?: number;
}

/** What a refusal was read as; 'quota found' when it confirmed a quota for the first time. */
export type QuotaReading = 'quota' | 'quota found' | 'calls in flight';

// A service counts a call when it arrives, the run when it starts it: the run leaves a margin so
// that a call started just as a slot frees is not refused for arriving a little early.
const MIN_MARGIN_MS = 25;
const MAX_MARGIN_SHARE = 0.1;
const MAX_PROBE_WINDOWS = 64;

/**
 * A quota on calls (N per rolling window), announced by the service's headers or learnt from its
 * refusals: the calls the service took in the window before a refused one are its quota, the
 * window is what the headers say or else how long the service asks to wait. While one reading
 * could also be a limit on calls in flight, the quota is a candidate: one call beyond it tells
 * (accepted: no quota; refused with fewer calls ahead of it than that limit would need: confirmed;
 * else it tells nothing and a later one tests again), and so does one call beyond the scheduler's
 * bound (CallScheduler.boundProbeInMs). The service counts a call when it arrives: the run places
 * an answered call at its answer less the quickest answered round trip, and a call in flight at
 * its start plus the slowest refusal seen (refusals come back at once; before any refusal, a call
 * in flight counts as in the window). A quota learnt from refusals may have been learnt while another
 * client used the same key: after some windows at it without a refusal, the run tries more (twice
 * as much until a try is refused, then one call); a refused try settles it at what the service
 * took, and the next try waits twice as long. One window after refusals its own calls do not
 * explain, it goes back to the most the quota took.
 */
export class RateQuota {
	/** `serving`: for a candidate, the fewest calls ahead of a refusal it was read from. */
	private quota: (KnownQuota & { confirmed: boolean; serving: number }) | undefined;

	/** Calls not refused, by sequence number: when the service (at the latest) took them. */
	private readonly calls = new Map<number, Call>();

	private quickestMs = Infinity;

	private marginMs = MIN_MARGIN_MS;

	/** The call started beyond a candidate quota to test it, and when. */
	private probeSeq: number | undefined;

	private probeAt = 0;

	/**
	 * The slowest refusal seen (refusals come back at once, answers at the service's latency): a
	 * call in flight for longer has reached the service, and one not refused by twice that was taken.
	 * Slowest, not quickest: a busy n8n may send a call some time after it started it.
	 */
	private refusalMs: number | undefined;

	/** Refusals of calls started before this sequence number belong to the wave already read. */
	// Stryker disable next-line UnaryOperator: only call 0 can tell -1 from 1, and its refusal (no call before it) sets no quota whose margin a wave could widen
	private waveSeq = -1;

	/** Since when no call was refused (nor tried above the quota), and whether the quota held the run back. */
	private clean = { since: 0, held: false };

	/** The learnt limit before a try above it; a refusal of the try comes back to it. */
	private triedFrom: number | undefined;

	/** A try above the quota was refused once: later tries add one call. */
	private settled = false;

	/**
	 * The most a learnt quota has taken without a refusal. Refusals its own calls do not explain
	 * (another client of the same key) lower the pace below it for a while; one clean window at
	 * the lower pace goes back up to it, and a refusal right after that lowers it.
	 */
	private ceiling: number | undefined;

	private backToCeiling = false;

	/** What an earlier run against the same service learnt or was told. */
	recall({ quota, refusalMs }: Learned) {
		this.refusalMs = refusalMs;
		if (!quota) return;
		this.quota = { ...quota, confirmed: true, serving: 0 };
		// Known from an earlier run: a try above it adds one call.
		this.settled = true;
		this.ceiling = quota.limit;
	}

	/** For the next run: the confirmed quota (the level the service took, not a try above it). */
	known(): Pick<Learned, 'quota' | 'refusalMs'> {
		const { quota, refusalMs } = this;
		const arrival = refusalMs === undefined ? {} : { refusalMs };
		if (!quota?.confirmed) return arrival;
		const { windowMs, announced, probeWindows } = quota;
		const limit = this.triedFrom ?? Math.max(quota.limit, this.ceiling ?? 0);
		return { ...arrival, quota: { limit, windowMs, announced, probeWindows } };
	}

	/** The service's headers state a quota: paced to from now on; true if none was known. */
	announce(limit: number, windowMs: number): boolean {
		const found = !this.quota?.confirmed;
		this.quota = { limit, windowMs, announced: true, probeWindows: 1, confirmed: true, serving: 0 };
		this.probeSeq = undefined;
		this.triedFrom = undefined;
		return found;
	}

	/** The candidate is confirmed (a call beyond the bound went through); true if there was one. */
	confirmCandidate(): boolean {
		if (!this.quota || this.quota.confirmed) return false;
		this.quota.confirmed = true;
		return true;
	}

	/** The candidate is no quota (a call beyond the bound was refused while it had room). */
	dropCandidate() {
		if (!this.quota?.confirmed) this.quota = undefined;
	}

	isConfirmed(): boolean {
		return this.quota?.confirmed === true;
	}

	/** Ms until a confirmed quota's window has room (Infinity without one). */
	roomInMs(now: number): number {
		const quota = this.quota;
		return quota?.confirmed ? this.windowRoomInMs(now, quota.limit) : Infinity;
	}

	/** Ms until a candidate quota's window has room (Infinity without a candidate). */
	candidateRoomInMs(now: number): number {
		const quota = this.quota;
		if (!quota || quota.confirmed || this.probeSeq !== undefined) return Infinity;
		return this.windowRoomInMs(now, quota.limit);
	}

	/** When a refusal of a call started at `at` would have come back: not refused by then, taken. */
	refusedBy(at: number): number {
		return at + 2 * (this.refusalMs ?? Infinity) + MIN_MARGIN_MS;
	}

	started(seq: number, now: number) {
		this.calls.set(seq, { startedAt: now });
		// Stryker disable next-line ConditionalExpression: a confirmed quota never lets a call start beyond it (delayMs), so `used > limit` is false for it anyway
		if (this.quota && !this.quota.confirmed && this.used(now) > this.quota.limit)
			if (this.probeSeq === undefined) [this.probeSeq, this.probeAt] = [seq, now];
		// Stryker disable next-line CallExpression: forgetting only bounds memory (see forget)
		this.forget(now);
	}

	/**
	 * A call was answered, not refused (`took`: with a page, not a failure); a probe beyond a
	 * candidate quota that was disproves it.
	 */
	answered(seq: number, now: number, took = true) {
		const call = this.calls.get(seq);
		if (call && call.answeredAt === undefined) {
			this.quickestMs = Math.min(this.quickestMs, now - call.startedAt);
			call.answeredAt = now;
			if (took) this.tryMore(now);
		}
		if (seq === this.probeSeq) this.probeTaken();
	}

	/** The call beyond a candidate quota was taken (answered, or not refused in time): no quota. */
	private probeTaken() {
		this.probeSeq = undefined;
		if (!this.quota?.confirmed) this.quota = undefined;
	}

	/**
	 * After `probeWindows` windows at a learnt quota without a refusal, one try more (one window
	 * back up to the ceiling: another client's calls have left the window by then).
	 */
	private tryMore(now: number) {
		const quota = this.quota;
		if (!quota?.confirmed || quota.announced) return;
		const { ceiling } = this;
		const below = ceiling !== undefined && quota.limit < ceiling;
		const windows = below ? 1 : quota.probeWindows;
		if (!this.clean.held || now - this.clean.since < quota.windowMs * windows) return;
		this.clean = { since: now, held: false };
		if (below) {
			quota.limit = ceiling;
			this.backToCeiling = true;
			return;
		}
		this.ceiling = quota.limit;
		this.triedFrom = quota.limit;
		quota.limit = this.settled ? quota.limit + 1 : quota.limit * 2;
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
		const call = this.calls.get(seq);
		if (call) this.refusalMs = Math.max(this.refusalMs ?? 0, now - call.startedAt);
		this.calls.delete(seq);
		this.clean = { since: now, held: false };
		const windowMs = Math.max(hint.windowMs ?? hint.retryAfterMs, 1000, this.quota?.windowMs ?? 0);
		// At most what the service may have had in its window when it refused: calls before this
		// one in flight, or answered within a window of now (the refusal came back at once).
		const counted = this.count(now - windowMs, seq);
		// The call beyond a candidate, refused with fewer calls ahead of it than the service was
		// serving when it refused before: a limit on calls in flight does not explain it.
		const probeTells = seq === this.probeSeq && serving < (this.quota?.serving ?? 0);
		// A confirmed quota full when the service refused (or a try above it) explains the refusal.
		const full =
			this.quota?.confirmed && counted >= Math.min(this.quota.limit, this.triedFrom ?? Infinity);
		const isQuota = hint.limit !== undefined || serving === 0 || probeTells || !!full;
		if (seq === this.probeSeq) this.probeSeq = undefined;
		const sameWave = seq < this.waveSeq;
		if (!sameWave) this.waveSeq = nextSeq;
		const known = this.quota;
		// A try above the quota refused: the quota is what the service took, at least the level tried from.
		const floor = sameWave ? 0 : (this.triedFrom ?? 0);
		if (known && this.triedFrom !== undefined && !sameWave) this.triedTooFar(known);
		const lowersCeiling = this.backToCeiling && !sameWave;
		if (!sameWave) this.backToCeiling = false;
		// A known quota refused anew at its size: the service took the calls later than the run
		// reckons, so the run leaves a wider margin.
		if (known?.confirmed && !sameWave && counted >= known.limit && hint.limit === undefined)
			this.marginMs = Math.min(this.marginMs * 2, known.windowMs * MAX_MARGIN_SHARE);
		// A quota only goes down; a refusal none of the run's calls explains (another client's, an
		// outage) sets none.
		const limit = hint.limit ?? Math.max(floor, Math.min(counted, known?.limit ?? Infinity));
		if (limit === 0) return isQuota ? 'quota' : 'calls in flight';
		const { announced = false, probeWindows = 1 } = known ?? {};
		if (!isQuota) {
			if (!known?.confirmed) {
				const fewest = Math.min(serving, known?.serving ?? Infinity);
				this.quota = {
					limit,
					windowMs,
					announced,
					probeWindows,
					confirmed: false,
					serving: fewest,
				};
			}
			return 'calls in flight';
		}
		const stated = hint.limit !== undefined && hint.windowMs !== undefined;
		if (lowersCeiling || stated) this.ceiling = limit;
		this.quota = {
			limit,
			windowMs,
			announced: stated || announced,
			probeWindows,
			confirmed: true,
			serving: 0,
		};
		return known?.confirmed ? 'quota' : 'quota found';
	}

	/** A try above the learnt quota was refused: twice as long before the next, one call more each. */
	private triedTooFar(quota: KnownQuota) {
		quota.probeWindows = Math.min(quota.probeWindows * 2, MAX_PROBE_WINDOWS);
		this.triedFrom = undefined;
		this.settled = true;
	}

	/** Ms until the quota lets another call start (0: now). */
	delayMs(now: number): number {
		const quota = this.quota;
		// Nothing starts while the call beyond a candidate is out: a later call could reach the
		// service first and be what it refuses. Its refusal, or none by the time one would have
		// come back, starts the next call.
		if (this.probeSeq !== undefined) {
			const decidedAt = this.refusedBy(this.probeAt);
			if (now < decidedAt) return decidedAt - now;
			this.probeTaken();
		}
		// A candidate lets one call beyond it start, to tell whether it is real.
		if (!quota?.confirmed) return 0;
		const delay = this.windowRoomInMs(now, quota.limit);
		if (delay > 0) this.clean.held = true;
		return delay;
	}

	/**
	 * Ms until fewer than `limit` calls are in the window: when the call that would be one too many
	 * leaves it. A call in flight whose arrival no answer bounds yet stays in it until answered.
	 */
	private windowRoomInMs(now: number, limit: number) {
		const placed = this.placedSince(now - this.spanMs());
		if (placed.length < limit) return 0;
		return Math.max(1, placed[placed.length - limit] + this.spanMs() - now);
	}

	private spanMs() {
		return (this.quota?.windowMs ?? 0) + this.marginMs;
	}

	private used(now: number) {
		return this.count(now - this.spanMs(), Infinity);
	}

	/** When the service took a call, at the latest (see the class comment). */
	private placedAt({ startedAt, answeredAt }: Call) {
		// An answer bounds the arrival even when a busy n8n sent the call late; a call still out is
		// placed by how fast the service refuses.
		if (answeredAt !== undefined) return Math.max(startedAt, answeredAt - this.quickestMs);
		return startedAt + (this.refusalMs ?? Infinity);
	}

	/** The calls placed after `since`, oldest first. */
	private placedSince(since: number) {
		const placed = [...this.calls.values()].map((call) => this.placedAt(call));
		return placed.filter((at) => at > since).sort((a, b) => a - b);
	}

	/** Calls started before `beforeSeq` that were placed after `since`. */
	private count(since: number, beforeSeq: number) {
		let count = 0;
		for (const [seq, call] of this.calls) {
			// Stryker disable next-line EqualityOperator: refused() deletes the refused call before it counts, so `seq <= beforeSeq` counts the same calls
			if (seq < beforeSeq && this.placedAt(call) > since) count += 1;
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
			if (this.placedAt(call) < keepSince) this.calls.delete(seq);
		}
	}
}
