import { sleep } from 'n8n-workflow';
import { RunStopped, type FailedCall } from './errors';

// The pace of the calls to one service: two gates that keep adapting, each by a published rule.
// 1. Calls in flight, by BBR's `inflight_hi` (draft-ietf-ccwg-bbr): cruise where refusals began,
//    probe one above it a few percent of the time, grow while probes are answered (Netflix AIMD).
// 2. The send rate: as the service states it (IETF RateLimit draft-11/-8, X-RateLimit-*), not
//    learnt; else learnt without end by the AWS SDKs' adaptive retry mode (botocore adaptive.py,
//    aws-sdk-js-v3 DefaultRateLimiter): a token bucket off until the first throttle, CUBIC's rate.
// A refusal sent with no more in flight than a count answered is the rate's, with more the cap's.
// A Retry-After closes both. One Limiter per service (credential, Base URL) in a process.

/** The headers of an answer, names lower-case (as n8n's HTTP helper gives them). */
export type Headers = Record<string, unknown>;

/** What the service said of its quota: a count per window, and what is left of it. */
export type Announced = { limit?: number; windowMs?: number; remaining?: number; resetMs?: number };

/** A call the gates let through; `done` once, with what came back. */
export type Permit = { done: (answer: FailedCall) => void };

/** CUBIC as the AWS SDKs set it: the rate falls to BETA of W_max and grows back by C·(t − K)³. */
const BETA = 0.7;
const SCALE = 0.4;
/** The learnt rate never falls below this (calls a second; AWS's minimum fill rate). */
const MIN_RATE = 0.5;
/** A refused probe costs one call and a Retry-After: probes come this many Retry-Afters apart. */
const PROBE_SPACING = 20;
/** A stated window is taken this much longer: n8n sends some calls after it got their permit. */
const WINDOW_MARGIN = 0.05;
/** A refusal without Retry-After closes the gates this long. */
const DEFAULT_RETRY_MS = 1000;
/** Calls remembered for a stated window: enough for any quota a run can use. */
const STARTS_KEPT = 2000;
/** Services remembered in this process, the least recently used forgotten first. */
const SERVICES_KEPT = 100;
const DROPPED_CODES = new Set(['ECONNRESET', 'ECONNREFUSED']);

/** A call let out: its order, when, the calls in flight with it (itself too), if a cap was known. */
type Start = { seq: number; at: number; inFlight: number; gated: boolean; appLimited?: boolean };
type Waiter = { maxInFlight: number; start: (granted: Start) => void };

/** The learnt rate: CUBIC's W_max (calls a second), when it was read, the last call it let out. */
type Rate = { wMax: number; at: number; plateauMs: number; sentAt: number };
/** A refusal that lowered a gate: calls sent before `seq` were out with it (one wave). */
type Wave = { seq: number; at: number; windowMs: number; start: Start };

export class Limiter {
	private inFlight = 0;
	private nextSeq = 0;
	/** BBR's inflight_hi: the most calls in flight known to be taken; none until a cap refuses. */
	private inflightHi: number | undefined;
	/** The most calls in flight at which a call was answered: fewer, and a refusal is the rate's. */
	private safe = 0;
	/** No probe above inflight_hi before this. */
	private probeAt = 0;
	/** Calls sent before these were out at a gate's last lowering (one wave). */
	private capSeq = 0;
	private rateSeq = 0;
	/** The rate is read once a throttle's Retry-After has passed: its wave's refusals are in. */
	private reading: Wave | undefined;
	private quota: { limit: number; windowMs: number } | undefined;
	private rate: Rate | undefined;
	private closedUntil = 0;
	private readonly starts: Start[] = [];
	private readonly queue: Waiter[] = [];
	private wakeAt: number | undefined;

	constructor(private ceiling: number) {}

	/** Waits until both gates let a call through, or the signal stops the run. */
	async acquire(maxInFlight: number, signal?: AbortSignal): Promise<Permit> {
		this.ceiling = Math.max(this.ceiling, maxInFlight);
		if (signal?.aborted) throw stopped(signal);
		const askedAt = Date.now();
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
			};
			signal?.addEventListener('abort', onAbort, { once: true });
			this.queue.push(waiter);
			this.pump();
		});
		// Counted from when the run gets it, not when it was granted: n8n may finish other work
		// (the rest of a run's items) first, and a call counted early lands in the next window.
		// Let out the moment it asked, no call was waiting for the gate: BBR's app-limited sample.
		start.appLimited = start.at === askedAt;
		start.at = Math.max(start.at, Date.now());
		return this.permitFor(start);
	}

	/** What is known: inflight_hi, the stated quota, the learnt rate, how long the gates stay shut. */
	state(now = Date.now()) {
		const rate = this.rate && this.fillRate(now);
		const closedForMs = Math.max(0, this.openAt(now) - now);
		return { inflightHi: this.inflightHi, quota: this.quota, rate, closedForMs };
	}

	/** The calls in flight the gate lets out: inflight_hi, and one more while a probe is due. */
	private cap(now: number, maxInFlight: number) {
		const hi = this.inflightHi;
		const cap = hi === undefined ? this.ceiling : now >= this.probeAt ? hi + 1 : hi;
		return Math.min(cap, maxInFlight);
	}

	private openAt(now: number): number {
		const quota = this.quota;
		// AWS's token bucket, holding one call at most: a quota's window counts a burst too.
		const paced = this.rate ? this.rate.sentAt + 1000 / this.fillRate(now) : now;
		if (!quota) return Math.max(this.closedUntil, paced);
		const since = now - quota.windowMs * (1 + WINDOW_MARGIN);
		const recent = this.starts.filter((start) => start.at > since).map((start) => start.at);
		if (recent.length < quota.limit) return this.closedUntil;
		const oldest = recent.sort((a, b) => a - b)[recent.length - quota.limit];
		return Math.max(this.closedUntil, oldest + quota.windowMs * (1 + WINDOW_MARGIN));
	}

	/**
	 * CUBIC: C·(t − K)³ + W_max, K = ∛(W_max·(1 − β)/C), back at W_max in K; flat there for the
	 * probe spacing (its cost a few percent), then above it.
	 */
	private fillRate(now: number): number {
		const rate = this.rate;
		if (!rate) return Infinity;
		const t = (now - rate.at) / 1000;
		const k = Math.cbrt((rate.wMax * (1 - BETA)) / SCALE);
		const x = t < k ? t - k : Math.max(0, t - k - rate.plateauMs / 1000);
		return Math.max(MIN_RATE, SCALE * x ** 3 + rate.wMax);
	}

	/** Starts waiting calls while both gates let them; wakes itself when one opens. */
	private pump() {
		const now = Date.now();
		if (this.reading && now >= this.closedUntil) this.readRate(this.reading);
		while (this.queue.length > 0) {
			const { maxInFlight } = this.queue[0];
			if (this.inFlight >= this.cap(now, maxInFlight)) {
				if (this.inFlight < this.cap(Infinity, maxInFlight)) this.wake(this.probeAt);
				return;
			}
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
		const gated = this.inflightHi !== undefined;
		const start = { seq: this.nextSeq++, at: now, inFlight: ++this.inFlight, gated };
		if (this.rate) this.rate.sentAt = now;
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
		this.readHeaders(announcedIn(headers, now), now);
		const refused = answer.status === 429;
		if (refused || (answer.code !== undefined && DROPPED_CODES.has(answer.code))) {
			const waitMs = refusalWaitMs(headers, now);
			if (refused) {
				// Not counted by the service: it leaves the window.
				this.starts.splice(this.starts.indexOf(start), 1);
				this.closedUntil = Math.max(this.closedUntil, now + waitMs);
			}
			const wave = { seq: this.nextSeq, at: now, windowMs: waitMs, start };
			if (start.inFlight > this.safe) {
				this.capAt(start, wave);
			} else if (start.seq >= this.rateSeq && !this.quota) {
				this.reading = wave;
				this.rateSeq = wave.seq;
			}
		} else if (answer.status !== undefined && answer.status < 500) {
			// Only a call let out under a known inflight_hi: n8n sends a burst over hundreds of ms.
			if (!start.gated) return;
			this.safe = Math.max(this.safe, start.inFlight);
			// Probing, AIMD: one more an answer while the limit is in use and calls wait (BBR).
			const hi = this.inflightHi ?? Infinity;
			if (now >= this.probeAt && this.inFlight * 2 >= hi && this.queue.length > 0) {
				this.inflightHi = Math.min(this.ceiling, Math.max(hi, start.inFlight) + 1);
			}
		}
	}

	/** BBR: refusals begin above the fewest calls in flight any was sent with, read in any order. */
	private capAt(start: Start, wave: Wave) {
		const probe = start.seq >= this.capSeq && this.inflightHi !== undefined;
		if (probe) this.probeAt = wave.at + wave.windowMs * PROBE_SPACING;
		this.inflightHi = Math.min(this.inflightHi ?? Infinity, Math.max(1, start.inFlight - 1));
		this.capSeq = Math.max(this.capSeq, wave.seq);
	}

	/**
	 * A throttle (AWS): W_max is our calls the service took in the Retry-After before the refusal
	 * (none tells nothing), or the rate in force if that call was app-limited (BBR: such a sample
	 * lowers no estimate); the rate drops to β of it. A refusal at W_max is no probe: spacing stays.
	 */
	private readRate({ at, windowMs, start }: Wave) {
		this.reading = undefined;
		const [rate, fill, sentAt] = [this.rate, this.fillRate(at), start.at];
		const taken = this.starts.filter((s) => s.at > sentAt - windowMs && s.at <= sentAt).length;
		const wMax = rate && start.appLimited ? fill : taken / (windowMs / 1000);
		if (wMax === 0) return;
		const kept = rate && fill <= rate.wMax ? rate.plateauMs : 0;
		this.rate = { wMax, at, plateauMs: Math.max(kept, windowMs * PROBE_SPACING), sentAt: 0 };
	}

	/** A quota the service states is paced to; none left, without a window, holds off till the reset. */
	private readHeaders({ limit, windowMs, remaining, resetMs }: Announced, now: number) {
		if (limit !== undefined && windowMs !== undefined) {
			this.quota = { limit, windowMs };
			this.rate = this.reading = undefined;
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
	while (limiters.size > SERVICES_KEPT) limiters.delete([...limiters.keys()][0]);
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
