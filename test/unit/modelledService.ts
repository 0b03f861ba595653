import { sleep } from 'n8n-workflow';
import type { QuotaHint } from '../../nodes/shared/quota';
import { CallScheduler, type CallVerdict, type Learned } from '../../nodes/shared/scheduler';

// A service modelled on jest's fake clock, and a keyword list sent through the scheduler as
// fetchPage sends it (a refusal is released as congestion and retried after its Retry-After).
// Accepted calls take the service's latency; refusals come back at once (free), as the
// reference service's do.

/** Whether a call arriving now is taken, and what the answer's headers announce. */
export interface Service {
	admit: (now: number) => boolean;
	leave: () => void;
	/** Seconds a refusal asks to wait (Retry-After). */
	retryAfterS: (now: number) => number;
	/** What an answer's rate-limit headers state, when the service sends them. */
	announced?: (now: number) => Omit<QuotaHint, 'retryAfterMs'>;
}

/** No limit at all. */
export const unlimited = (): Service => ({
	admit: () => true,
	leave: () => undefined,
	retryAfterS: () => 1,
});

/** At most `capacity` calls at once. */
export function capped(capacity: number): Service {
	let inFlight = 0;
	return {
		admit: () => (inFlight < capacity ? ++inFlight > 0 : false),
		leave: () => void (inFlight -= 1),
		retryAfterS: () => 1,
	};
}

/**
 * At most `capacity` calls at once, each holding its slot `holdMs` at the service; n8n reads the
 * answer later (the list's latency: n8n's own time per call on top). So n8n counts more calls in
 * flight than the service does, and a call beyond its bound is often taken.
 */
export function cappedAtService(capacity: number, holdMs: number): Service {
	const taken: number[] = [];
	return {
		admit: (now) =>
			taken.filter((at) => at > now - holdMs).length < capacity ? taken.push(now) > 0 : false,
		leave: () => undefined,
		retryAfterS: () => 1,
	};
}

/**
 * At most `limit` calls taken in any rolling `windowMs`; `flood`: calls another client of the same
 * key made, in ms from now; `headers` announces the quota on every answer (RateLimit-Policy,
 * -Remaining, -Reset).
 */
export function quota(
	limit: number,
	windowMs: number,
	{ flood = [] as number[], headers = false } = {},
): Service {
	const taken = flood.map((ms) => Date.now() + ms);
	const inWindow = (now: number) => taken.filter((at) => at > now - windowMs);
	const toSlotMs = (now: number) => {
		const window = inWindow(now);
		return window.length < limit ? 0 : window[window.length - limit] + windowMs - now;
	};
	return {
		admit: (now) => (inWindow(now).length < limit ? taken.push(now) > 0 : false),
		leave: () => undefined,
		retryAfterS: (now) => Math.max(1, Math.ceil(toSlotMs(now) / 1000)),
		...(headers && {
			announced: (now: number) => ({
				limit,
				windowMs,
				remaining: Math.max(0, limit - inWindow(now).length),
				resetMs: Math.ceil(toSlotMs(now) / 1000) * 1000,
			}),
		}),
	};
}

export interface ListRun {
	ms: number;
	taken: number;
	refused: number;
	mostInFlight: number;
	learned: Learned;
}

/**
 * n8n's one event loop, busy: `startMs` building the run's requests before any is sent, then
 * `perCallMs` to send each call and to read each answer, one at a time. `scrambleMs`: each answer
 * ready up to that much later than the one before it, the call's number scrambling the order (a
 * burst of refusals is read out of order, as a real n8n reads one).
 */
export interface Busy {
	startMs: number;
	perCallMs: number;
	scrambleMs?: number;
}

/** Waits its turn on the event loop, then holds it for `ms`. */
function eventLoop({ startMs }: Busy) {
	let freeAt = Date.now() + startMs;
	return async (ms: number) => {
		freeAt = Math.max(Date.now(), freeAt) + ms;
		if (freeAt > Date.now()) await sleep(freeAt - Date.now());
	};
}

/** Sends `count` searches of one page each; resolves when all are in. */
export async function keywordList(
	count: number,
	service: Service,
	{
		latencyMs = 150,
		maxInFlight = 96,
		learned = undefined as Learned | undefined,
		busy = { startMs: 0, perCallMs: 0 } as Busy,
	} = {},
): Promise<ListRun> {
	const startedAt = Date.now();
	const scheduler = new CallScheduler({ maxInFlight, rateLimitWaitMs: 300_000, learned });
	const tally = { refused: 0, taken: 0, inFlight: 0, mostInFlight: 0 };
	const hold = eventLoop(busy);
	let calls = 0;
	const call = async () => {
		const readLateMs = ((calls++ * 7919) % 97) * ((busy.scrambleMs ?? 0) / 97);
		await hold(busy.perCallMs);
		const taken = service.admit(Date.now());
		// The service says when to come back as it refuses, not when n8n reads the refusal.
		const retryAfterS = service.retryAfterS(Date.now());
		if (taken) {
			tally.inFlight += 1;
			tally.mostInFlight = Math.max(tally.mostInFlight, tally.inFlight);
			await sleep(latencyMs);
			tally.inFlight -= 1;
			service.leave();
		}
		if (readLateMs > 0) await sleep(readLateMs);
		await hold(busy.perCallMs);
		return taken ? 'ok' : retryAfterS;
	};
	const search = async () => {
		for (;;) {
			const { outcome, release } = await scheduler.send(call);
			const announced = service.announced?.(Date.now());
			if (outcome === 'ok') {
				tally.taken += 1;
				return release({ kind: 'ok', ...(announced && { announced }) });
			}
			if (outcome instanceof Error) throw outcome;
			tally.refused += 1;
			const waitMs = outcome * 1000;
			release(refusal(waitMs, announced));
			await scheduler.wait(waitMs);
		}
	};
	const done = Promise.all(Array.from({ length: count }, search));
	let finished = false;
	void done.then(() => (finished = true));
	while (!finished) await jest.advanceTimersByTimeAsync(10);
	const { refused, taken, mostInFlight } = tally;
	return { ms: Date.now() - startedAt, refused, taken, mostInFlight, learned: scheduler.learned() };
}

function refusal(waitMs: number, announced?: Omit<QuotaHint, 'retryAfterMs'>): CallVerdict {
	return { kind: 'congested', waitMs, hint: { retryAfterMs: waitMs, ...announced } };
}
