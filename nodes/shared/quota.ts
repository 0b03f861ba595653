// A quota per window, read from the rate-limit headers of the service's answers or learnt from
// its refusals, for CallScheduler (scheduler.ts). Plain values only.

/** A quota per window, confirmed by refusals or announced by the service. */
export interface KnownQuota {
	limit: number;
	windowMs: number;
	/** Stated by the service's headers: never probed above. */
	announced: boolean;
	/** Windows at the quota without a refusal before the run tries one call more. */
	probeWindows: number;
}

/** What RateQuota keeps for the next run against the same service. */
export interface QuotaMemory {
	quota?: KnownQuota;
	/** The slowest refusal seen: a call not refused by twice that was taken. */
	refusalMs?: number;
	/** The quickest answer of any kind: a call in flight for longer has reached the service. */
	arrivalMs?: number;
	/**
	 * The quickest page: a call reached the service at most about that long before its answer.
	 * For the next run's first calls: n8n, busy starting a run, sends them late, and their own
	 * round trips would place them early.
	 */
	pageMs?: number;
}

/** What an answer's rate-limit headers state (draft IETF RateLimit headers, X-RateLimit-*). */
export interface Announced {
	/** Requests per window (RateLimit-Policy, RateLimit-Limit, X-RateLimit-Limit). */
	limit?: number;
	/** The `w=` of RateLimit-Policy or RateLimit-Limit. */
	windowMs?: number;
	/** Left in the window for this key, whoever made the others. */
	remaining?: number;
	resetMs?: number;
}

/** What a refusal says of a quota; `retryAfterMs` is 0 when the service did not say. */
export interface QuotaHint extends Announced {
	retryAfterMs: number;
}

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
	// Stryker disable next-line EqualityOperator: only a reset of exactly 1e9 s (31 years, or 2001) tells > from >=
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
export function quotaHint(headers: Record<string, unknown> | undefined, retryAfterMs: number) {
	return { retryAfterMs, ...announcedIn(headers) } satisfies QuotaHint;
}

/**
 * The window a Retry-After tells: how long until the oldest call in the window leaves it, in whole
 * seconds rounded up. A busy n8n sends a burst over a second or more, so at the first refusal the
 * oldest call has been in the window that long: close under a whole minute, it is a minute's
 * quota. (Read as 59 s, a later run sent each window's calls a second early: 13 % refused.)
 */
function windowOfRetry(retryAfterMs: number) {
	return retryAfterMs > 50_000 ? Math.ceil(retryAfterMs / 60_000) * 60_000 : retryAfterMs;
}

/** A call not refused: when it started and, once answered, when. */
type Call = { startedAt: number; answeredAt?: number };

/** A refusal a candidate was read from: the calls it counted since `since`, and ahead of it. */
type Reading = { seq: number; since: number; serving: number };

/** What a refusal was read as; 'quota found' when it confirmed a quota for the first time. */
export type QuotaReading = 'quota' | 'quota found' | 'calls in flight';

// A service counts a call when it arrives, the run when it starts it: a margin keeps a call
// started just as a slot frees from arriving a little early.
const MIN_MARGIN_MS = 25;
const MAX_MARGIN_SHARE = 0.1;
const MAX_PROBE_WINDOWS = 64;
// A refusal of the call beyond a candidate, sent alone: at most twice the quickest answer and this.
const ALONE_SLACK_MS = 100;

/**
 * N calls per rolling window, stated in headers or learnt from refusals: the calls the service had
 * in the window when a refused one arrived. A reading a limit on calls in flight explains as well
 * is a candidate: one call beyond it tells (taken: no quota; refused with fewer ahead: a quota), as
 * does one beyond the scheduler's bound. A call counts from its arrival: its answer less the
 * quickest round trip, or its start plus the quickest answer. Another client may share the key:
 * after clean windows the run tries more (twice, then one call more, each try waiting twice as
 * long), and after refusals it does not explain it goes back up.
 */
export class RateQuota {
	/**
	 * `serving`: for a candidate, the fewest calls ahead of a refusal it was read from; `from`, the
	 * refusal its limit was read from, and what it counted.
	 */
	private quota: (KnownQuota & { confirmed: boolean; serving: number; from?: Reading }) | undefined;

	/** Calls not refused, by sequence number. */
	private readonly calls = new Map<number, Call>();
	private quickestMs = Infinity;
	/** The slowest answer (refusals aside): less the quickest, how late n8n sent a call at most. */
	private slowestMs = 0;
	/** This run's quickest page, and an earlier run's, for the calls started before the first answer. */
	private quickestPageMs = Infinity;
	private recalledPageMs = Infinity;
	private firstAnswerAt: number | undefined;
	private marginMs = MIN_MARGIN_MS;

	/** The call started beyond a candidate to test it, and when. */
	private probeSeq: number | undefined;
	private probeAt = 0;

	/** The slowest refusal seen: a busy n8n reads some late. Not refused by twice that: taken. */
	private refusalMs: number | undefined;

	/** The quickest answer of any kind, refusals included: a call in flight longer has arrived. */
	private arrivalMs = Infinity;

	/** Refusals of calls started before this sequence number belong to the wave already read. */
	// Stryker disable next-line UnaryOperator: only call 0 can tell -1 from 1, and its refusal (no call before it) sets no quota whose margin a wave could widen
	private waveSeq = -1;

	/** Since when no call was refused or tried above (the run's first call, at the latest); held: the quota held calls back. */
	private clean: { since?: number; held: boolean } = { held: false };

	/** The learnt limit before a try above it, which a refused try comes back to. */
	private triedFrom: number | undefined;

	/** A try was refused once: later tries add one call. */
	private settled = false;

	/** The most a learnt quota took without a refusal (see the class comment). */
	private ceiling: number | undefined;
	private backToCeiling = false;

	/** What an earlier run against the same service learnt or was told. */
	recall({ quota, refusalMs, arrivalMs, pageMs }: QuotaMemory) {
		this.refusalMs = refusalMs;
		this.arrivalMs = arrivalMs ?? Infinity;
		this.recalledPageMs = pageMs ?? Infinity;
		if (!quota) return;
		this.quota = { ...quota, confirmed: true, serving: 0 };
		this.settled = true;
		this.ceiling = quota.limit;
	}

	/** For the next run: the confirmed quota (the level the service took, not a try above it). */
	known(): QuotaMemory {
		const { quota, refusalMs, arrivalMs } = this;
		// This run's own: a quicker page once (a repeat answered from the service's cache) would
		// otherwise place every later run's first calls late for as long as n8n runs.
		const pageMs = this.quickestPageMs === Infinity ? this.recalledPageMs : this.quickestPageMs;
		const arrival = {
			...(refusalMs !== undefined && { refusalMs }),
			...(arrivalMs !== Infinity && { arrivalMs }),
			...(pageMs !== Infinity && { pageMs }),
		};
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

	/** A call beyond the bound went through: the candidate is a quota; true if there was one. */
	confirmCandidate(): boolean {
		if (!this.quota || this.quota.confirmed) return false;
		this.quota.confirmed = true;
		return true;
	}

	/** A call beyond the bound was refused while the candidate had room: no quota. */
	dropCandidate() {
		if (!this.quota?.confirmed) this.quota = undefined;
	}

	isConfirmed(): boolean {
		return this.quota?.confirmed === true;
	}

	/** Ms until a confirmed quota's window has room (Infinity without one). */
	roomInMs(now: number): number {
		return this.quota?.confirmed ? this.windowRoomInMs(now, this.quota.limit) : Infinity;
	}

	/** Ms until a candidate's window has room, its calls in flight placed by the quickest answer. */
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
		this.clean.since ??= now;
		// Stryker disable next-line ConditionalExpression: a confirmed quota never lets a call start beyond it (delayMs), so `used > limit` is false for it anyway
		if (this.quota && !this.quota.confirmed && this.used(now) > this.quota.limit)
			if (this.probeSeq === undefined) [this.probeSeq, this.probeAt] = [seq, now];
		// Stryker disable next-line CallExpression: forgetting only bounds memory (see forget)
		this.forget(now);
	}

	/** A call was answered, not refused (`took`: with a page); a probe that was disproves its candidate. */
	answered(seq: number, now: number, took = true) {
		const call = this.calls.get(seq);
		if (call) {
			this.quickestMs = Math.min(this.quickestMs, now - call.startedAt);
			this.slowestMs = Math.max(this.slowestMs, now - call.startedAt);
			this.arrivalMs = Math.min(this.arrivalMs, now - call.startedAt);
			if (took) this.quickestPageMs = Math.min(this.quickestPageMs, now - call.startedAt);
			this.firstAnswerAt ??= now;
			call.answeredAt = now;
			if (took) this.tryMore(now);
		}
		if (seq === this.probeSeq) this.probeTaken();
	}

	/** The call beyond a candidate was taken (answered, or not refused in time): no quota. */
	private probeTaken() {
		this.probeSeq = undefined;
		if (!this.quota?.confirmed) this.quota = undefined;
	}

	/** After `probeWindows` clean windows at a learnt quota, a try more; below the ceiling, after one. */
	private tryMore(now: number) {
		const quota = this.quota;
		if (!quota?.confirmed || quota.announced) return;
		const { ceiling } = this;
		const below = ceiling !== undefined && quota.limit < ceiling;
		const windows = below ? 1 : quota.probeWindows;
		if (!this.clean.held || now - (this.clean.since ?? now) < quota.windowMs * windows) return;
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
	 * Reads a refusal (`serving`: calls ahead of it when it started, not refused). None serving, a
	 * probe refused or a stated limit mean a quota; else a limit on calls in flight explains it as
	 * well, and the quota stays a candidate.
	 */
	refused(
		seq: number,
		hint: QuotaHint,
		serving: number,
		nextSeq: number,
		now: number,
	): QuotaReading {
		const call = this.calls.get(seq);
		if (call) {
			this.refusalMs = Math.max(this.refusalMs ?? 0, now - call.startedAt);
			this.arrivalMs = Math.min(this.arrivalMs, now - call.startedAt);
		}
		this.calls.delete(seq);
		this.recount(seq);
		this.clean = { since: now, held: false };
		const windowMs = Math.max(
			hint.windowMs ?? windowOfRetry(hint.retryAfterMs),
			1000,
			this.quota?.windowMs ?? 0,
		);
		// What the service had when the refused call reached it: a busy n8n reads a refusal late.
		const arrivedAt = call ? Math.min(now, this.placedAt(call)) : now;
		// The calls surely in the window: one placed a few ms inside its far end may have left it
		// already (n8n sends a call some ms after it starts), and a quota read one too high has
		// every window's last call refused.
		const since = arrivedAt - windowMs + this.marginMs;
		const counted = this.count(since, seq);
		// Calls within the widest margin of the window may have been in it (the run's reckoning).
		const near = this.count(arrivedAt - windowMs * (1 + MAX_MARGIN_SHARE), seq);
		// The call beyond a candidate refused with fewer calls ahead than the service served when it
		// refused before: a limit on calls in flight does not explain it.
		const probeTells = seq === this.probeSeq && serving < (this.quota?.serving ?? 0);
		// A confirmed quota full when the service refused (or a try above it) explains the refusal.
		const full =
			this.quota?.confirmed && near >= Math.min(this.quota.limit, this.triedFrom ?? Infinity);
		const isQuota = hint.limit !== undefined || serving === 0 || probeTells || !!full;
		if (seq === this.probeSeq) this.probeSeq = undefined;
		const sameWave = seq < this.waveSeq;
		if (!sameWave) this.waveSeq = nextSeq;
		const known = this.quota;
		// A try above the quota refused: back to the level it tried from (below).
		const floor = sameWave ? 0 : (this.triedFrom ?? 0);
		if (known && this.triedFrom !== undefined && !sameWave) this.triedTooFar(known);
		const lowersCeiling = this.backToCeiling && !sameWave;
		if (!sameWave) this.backToCeiling = false;
		// Refused anew at its size (not a try): the service took calls later than the run reckons.
		const late = !sameWave && floor === 0 && near >= (known?.limit ?? Infinity);
		if (known?.confirmed && late && hint.limit === undefined)
			this.marginMs = Math.min(this.marginMs * 2, known.windowMs * MAX_MARGIN_SHARE);
		// A quota only goes down; a refusal no call of the run explains (another client's) sets none.
		// Refused at its size within the margin, a quota stays. A refused try goes back to the level
		// it tried from: read from the window, a busy n8n's late or out-of-order readings of the
		// try's refusals made a quota of 10 read 12, and every window's last calls were refused.
		const taken = full ? near : counted;
		const limit = hint.limit ?? (floor > 0 ? floor : Math.min(taken, known?.limit ?? Infinity));
		if (limit === 0) return isQuota ? 'quota' : 'calls in flight';
		const { announced = false, probeWindows = 1 } = known ?? {};
		const read = { limit, windowMs, probeWindows };
		if (!isQuota) {
			const fewest = Math.min(serving, known?.serving ?? Infinity);
			const from = limit < (known?.limit ?? Infinity) ? { seq, since, serving } : known?.from;
			if (!known?.confirmed)
				this.quota = { ...read, announced, confirmed: false, serving: fewest, from };
			return 'calls in flight';
		}
		const stated = hint.limit !== undefined && hint.windowMs !== undefined;
		if (lowersCeiling || stated) this.ceiling = limit;
		this.quota = { ...read, announced: stated || announced, confirmed: true, serving: 0 };
		return known?.confirmed ? 'quota' : 'quota found';
	}

	/**
	 * n8n reads a burst of refusals out of order: a call that a candidate's reading counted as
	 * taken, its refusal read later, was not. None left ahead: a refusal with nothing ahead, no
	 * candidate.
	 */
	private recount(seq: number) {
		const quota = this.quota;
		const from = quota?.confirmed ? undefined : quota?.from;
		if (!quota || !from || seq >= from.seq) return;
		from.serving -= 1;
		quota.limit = Math.min(quota.limit, this.count(from.since, from.seq));
		quota.serving = Math.min(quota.serving, from.serving);
		if (quota.limit === 0 || from.serving === 0) this.quota = undefined;
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
		// Nothing starts while the call beyond a candidate is out (a later call reaching the service
		// first could be the one refused), until its refusal or the time one would have come back.
		if (this.probeSeq !== undefined) {
			// It went out alone: a busy n8n reads a burst's refusals one after another, the slowest a
			// second or more after the burst, but a call sent alone comes back about as quickly as
			// the quickest answer. (Timed by the slowest, a first contact after a flood at 2 s an
			// answer started nothing for 1.35 s.)
			const decidedAt = Math.min(
				this.refusedBy(this.probeAt),
				this.probeAt + 2 * this.arrivalMs + ALONE_SLACK_MS,
			);
			if (now < decidedAt) return decidedAt - now;
			this.probeTaken();
		}
		// A candidate lets one call beyond it start, to tell whether it is real.
		if (!quota?.confirmed) return 0;
		const delay = this.windowRoomInMs(now, quota.limit);
		if (delay > 0) this.clean.held = true;
		return delay;
	}

	/** Ms until fewer than `limit` calls are in the window (an unanswered call stays in it). */
	private windowRoomInMs(now: number, limit: number) {
		const placed = this.placedSince(now - this.spanMs());
		if (placed.length < limit) return 0;
		return Math.max(1, placed[placed.length - limit] + this.spanMs() - now);
	}

	private spanMs() {
		return (this.quota?.windowMs ?? 0) + this.marginMs;
	}

	/** Calls in a candidate's window for sure: from their starts, the earliest the service took them. */
	private used(now: number) {
		const since = now - (this.quota?.windowMs ?? 0);
		return [...this.calls.values()].filter((call) => call.startedAt > since).length;
	}

	/** When the service took a call, at the latest (see the class comment). */
	private placedAt({ startedAt, answeredAt }: Call) {
		// In flight: sent at most as late as any answered call was (their spread of round trips),
		// and no later than the quickest answer. (By the quickest alone, a quota of 10 a second at
		// 2 s a page, its first refusal not yet seen, paced one window per round trip: 52 %.)
		if (answeredAt === undefined) return startedAt + Math.min(this.arrivalMs, this.lateMs());
		// An answer bounds the arrival even when a busy n8n sent the call late; the calls sent while
		// n8n was busy starting the run, by an earlier run's quickest page as well.
		const startBurst = this.firstAnswerAt === undefined || startedAt < this.firstAnswerAt;
		const quickest = startBurst ? Math.min(this.quickestMs, this.recalledPageMs) : this.quickestMs;
		return Math.max(startedAt, answeredAt - quickest);
	}

	/** How late n8n sent a call at most, from the answers so far (Infinity before the first). */
	private lateMs() {
		return this.quickestMs === Infinity ? Infinity : this.slowestMs - this.quickestMs;
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
