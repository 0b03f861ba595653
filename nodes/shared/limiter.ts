import { sleep } from 'n8n-workflow';
import { RunStopped, type FailedCall } from './errors';

// The pace of the calls to one service: two gates, each a published algorithm, and whichever is
// tighter holds a call back.
// 1. Calls in flight, by AIMD (additive increase, multiplicative decrease) as in Netflix's
//    concurrency-limits AIMDLimit: a refusal or a dropped connection multiplies the limit down,
//    at most once per wave; an answer while the limit is in use adds one.
// 2. A window gate: at most `limit` calls started in any rolling window, as the service announces
//    it in its rate-limit headers (IETF RateLimit draft-11 and draft-8, X-RateLimit-*) or, without
//    them, as one reading of a refusal: our calls the service took in the Retry-After before it.
//    A Retry-After closes the gate until it has passed, whatever else is known.
// One Limiter per service (credential and Base URL) in this n8n process, shared by every run and
// execution: runs on one key share its quota instead of each pacing to all of it. Plain values.

/** The headers of an answer, names lower-case (as n8n's HTTP helper gives them). */
export type Headers = Record<string, unknown>;

/** What the service said of its quota: a count per window, and what is left of it. */
export interface Announced {
	limit?: number;
	windowMs?: number;
	remaining?: number;
	resetMs?: number;
}

/** A call the gates let through; `done` once, with what came back. */
export interface Permit {
	done: (answer: FailedCall) => void;
}

/** A refusal multiplies the limit on calls in flight by this (TCP Reno's factor). */
const BACKOFF = 0.5;
/**
 * A call counts against a window from when its run gets the permit, the service's from when it
 * arrives: n8n sends some calls late. The window is taken this much longer so that they do not
 * arrive in the window before.
 */
const WINDOW_MARGIN = 0.05;
/** A refusal without Retry-After closes the gate this long. */
const DEFAULT_RETRY_MS = 1000;
/** Calls remembered for the window gate: enough for any quota a run can use. */
const STARTS_KEPT = 2000;
/** Services remembered in this process, the least recently used forgotten first. */
const SERVICES_KEPT = 100;

const DROPPED_CODES = new Set(['ECONNRESET', 'ECONNREFUSED']);

type Start = { seq: number; at: number };
type Waiter = { maxInFlight: number; start: (granted: Start) => void; stop: (e: Error) => void };

export class Limiter {
	private limit: number;
	private inFlight = 0;
	private nextSeq = 0;
	/** Calls started before this belong to a wave whose refusal already lowered the limit. */
	private waveSeq = 0;
	/** Stated by the service's headers, or read from its refusals. */
	private quota: { limit: number; windowMs: number } | undefined;
	private closedUntil = 0;
	/** A refusal's reading of the quota, taken once the refusals of its wave are in. */
	private reading: { at: number; windowMs: number } | undefined;
	private readonly starts: Start[] = [];
	private readonly queue: Waiter[] = [];
	private wakeAt: number | undefined;

	constructor(private ceiling: number) {
		this.limit = ceiling;
	}

	/** Waits until both gates let a call through, or the signal stops the run. */
	async acquire(maxInFlight: number, signal?: AbortSignal): Promise<Permit> {
		this.ceiling = Math.max(this.ceiling, maxInFlight);
		if (signal?.aborted) throw stopped(signal);
		const start = await new Promise<Start>((resolve, reject) => {
			const onAbort = () => {
				this.queue.splice(this.queue.indexOf(waiter), 1);
				reject(stopped(signal));
			};
			const waiter: Waiter = {
				maxInFlight,
				start: (granted) => {
					signal?.removeEventListener('abort', onAbort);
					resolve(granted);
				},
				stop: reject,
			};
			signal?.addEventListener('abort', onAbort, { once: true });
			this.queue.push(waiter);
			this.pump();
		});
		// Counted from when the run gets it, not when it was granted: n8n may finish other work
		// (the rest of a run's items) first, and a call counted early lands in the next window.
		start.at = Math.max(start.at, Date.now());
		return this.permitFor(start);
	}

	/** The limit on calls in flight, the quota paced to and how long the window gate stays shut. */
	state(now = Date.now()) {
		const closedForMs = Math.max(0, this.openAt(now) - now);
		return { limit: this.limit, quota: this.quota && { ...this.quota }, closedForMs };
	}

	private openAt(now: number): number {
		const quota = this.quota;
		if (!quota) return this.closedUntil;
		const since = now - quota.windowMs * (1 + WINDOW_MARGIN);
		const recent = this.starts.filter((start) => start.at > since).map((start) => start.at);
		if (recent.length < quota.limit) return this.closedUntil;
		const oldest = recent.sort((a, b) => a - b)[recent.length - quota.limit];
		return Math.max(this.closedUntil, oldest + quota.windowMs * (1 + WINDOW_MARGIN));
	}

	/** Starts waiting calls while both gates let them; wakes itself when the window gate opens. */
	private pump() {
		const now = Date.now();
		if (this.reading && now >= this.closedUntil) this.readQuota(this.reading);
		while (this.queue.length > 0) {
			const cap = Math.min(this.limit, this.queue[0].maxInFlight);
			if (this.inFlight >= cap) return;
			const openAt = this.openAt(now);
			if (openAt > now) return this.wake(openAt);
			this.queue.shift()?.start(this.take(now));
		}
	}

	private wake(at: number) {
		if (this.wakeAt !== undefined && this.wakeAt <= at) return;
		this.wakeAt = at;
		void sleep(at - Date.now()).then(() => {
			if (this.wakeAt === at) this.wakeAt = undefined;
			this.pump();
		});
	}

	private take(now: number): Start {
		const start = { seq: this.nextSeq++, at: now };
		this.inFlight += 1;
		this.starts.push(start);
		if (this.starts.length > STARTS_KEPT) this.starts.shift();
		return start;
	}

	private permitFor(start: Start): Permit {
		let done = false;
		return {
			done: (answer) => {
				if (done) return;
				done = true;
				this.inFlight -= 1;
				this.settle(start, answer, Date.now());
				this.pump();
			},
		};
	}

	private settle(start: Start, answer: FailedCall, now: number) {
		const headers = answer.headers ?? {};
		const refused = answer.status === 429;
		if (refused) {
			// Not counted by the service: it leaves the window.
			this.starts.splice(this.starts.indexOf(start), 1);
			const waitMs = refusalWaitMs(headers, now);
			this.closedUntil = Math.max(this.closedUntil, now + waitMs);
			// Read from the first refusal of its wave: n8n reads the others later, some after the window.
			if (!this.quota) this.reading ??= { at: now, windowMs: waitMs };
		}
		this.readHeaders(announcedIn(headers, now), now);
		if (refused || (answer.code !== undefined && DROPPED_CODES.has(answer.code))) {
			this.backOff(start);
		} else if (
			// AIMD's increase, only while half the limit is in use: then the limit may be what
			// holds calls back; a run that uses less would raise it without learning anything.
			answer.status !== undefined &&
			answer.status < 500 &&
			this.inFlight * 2 >= this.limit
		) {
			this.limit = Math.min(this.ceiling, this.limit + 1);
		}
	}

	/** AIMD's decrease, once for the calls that were already out when the first refusal came. */
	private backOff(start: Start) {
		if (start.seq < this.waveSeq) return;
		this.waveSeq = this.nextSeq;
		this.limit = Math.max(1, Math.floor(this.limit * BACKOFF));
	}

	/**
	 * Without headers, a refusal after a full window tells the quota: the calls of ours that the
	 * service took in the Retry-After before it. Read once its wave's refusals are in.
	 */
	private readQuota({ at, windowMs }: { at: number; windowMs: number }) {
		// No quota to keep: headers that state one clear the reading (readHeaders).
		this.reading = undefined;
		const taken = this.starts.filter((start) => start.at > at - windowMs && start.at <= at).length;
		if (taken > 0) this.quota = { limit: taken, windowMs };
	}

	/** A quota the service states is paced to; none left, without a window, holds off till the reset. */
	private readHeaders({ limit, windowMs, remaining, resetMs }: Announced, now: number) {
		if (limit !== undefined && windowMs !== undefined) {
			this.quota = { limit, windowMs };
			this.reading = undefined;
		} else if (remaining === 0 && resetMs !== undefined) {
			this.closedUntil = Math.max(this.closedUntil, now + resetMs);
		}
	}
}

function stopped(signal?: AbortSignal): RunStopped {
	const reason: unknown = signal?.reason;
	return reason instanceof RunStopped ? reason : new RunStopped('The execution was cancelled');
}

const limiters = new Map<string, Limiter>();

/** The limiter of one service (credential id, never its key, and Base URL) in this process. */
export function limiterFor(serviceKey: string, maxInFlight: number): Limiter {
	const limiter = limiters.get(serviceKey) ?? new Limiter(maxInFlight);
	limiters.delete(serviceKey);
	limiters.set(serviceKey, limiter);
	for (const oldest of limiters.keys()) {
		if (limiters.size <= SERVICES_KEPT) break;
		limiters.delete(oldest);
	}
	return limiter;
}

/** Forgets every service's limits (a test's fresh start). */
export function forgetLimiters() {
	limiters.clear();
}

/** How long a refusal (429) closes the window gate. */
export function refusalWaitMs(headers: Headers, now = Date.now()): number {
	return retryAfterMs(headers, now) ?? DEFAULT_RETRY_MS;
}

/** Retry-After in ms (delta-seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
	const raw = headers['retry-after'];
	if (typeof raw !== 'string' || raw.trim() === '') return undefined;
	const seconds = Number(raw);
	if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
	const date = Date.parse(raw);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** A whole number at the start of a header value ("10", "10;w=1"), or after `;key=`. */
function countIn(raw: unknown, key?: string): number | undefined {
	const pattern = key ? new RegExp(`;\\s*${key}=(\\d+)`) : /^\s*(\d+)/;
	const match = typeof raw === 'string' ? pattern.exec(raw) : null;
	return match ? Number(match[1]) : undefined;
}

const positive = (n: number | undefined) => (n !== undefined && n > 0 ? n : undefined);

/** Seconds from now, or (X-RateLimit-Reset of some services) a Unix time in seconds. */
const resetMsOf = (seconds: number | undefined, now: number) =>
	seconds === undefined
		? undefined
		: seconds > 1e9
			? Math.max(0, seconds * 1000 - now)
			: seconds * 1000;

/**
 * What an answer's headers state of a quota: RateLimit-Policy `"default";q=10;w=1` (draft-11) or
 * `10;w=1` (draft-8), RateLimit `"default";r=3;t=1` (draft-11), RateLimit-Limit/-Remaining/-Reset
 * and X-RateLimit-*. None is required.
 */
export function announcedIn(headers: Headers, now = Date.now()): Announced {
	const policy = headers['ratelimit-policy'];
	const limit = headers['ratelimit-limit'] ?? headers['x-ratelimit-limit'];
	const windowS = positive(countIn(policy, 'w') ?? countIn(limit, 'w'));
	const remaining = headers['ratelimit-remaining'] ?? headers['x-ratelimit-remaining'];
	const reset = headers['ratelimit-reset'] ?? headers['x-ratelimit-reset'];
	return {
		limit: positive(countIn(policy, 'q') ?? countIn(policy) ?? countIn(limit)),
		windowMs: windowS && windowS * 1000,
		remaining: countIn(headers.ratelimit, 'r') ?? countIn(remaining),
		resetMs: resetMsOf(countIn(headers.ratelimit, 't') ?? countIn(reset), now),
	};
}
