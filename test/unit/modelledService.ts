import { sleep } from 'n8n-workflow';
import { Limiter } from '../../nodes/shared/limiter';

// A service modelled on jest's fake clock, and keyword lists sent through a Limiter as the node
// sends them (a refusal is handed back and the page asked again once the gates let it). Accepted
// calls take the service's latency; refusals come back at once (free), as the reference
// service's do.

type Headers = Record<string, string>;

/** Whether a call arriving now is taken; what a refusal and an answer carry in their headers. */
export interface Service {
	admit: (now: number) => boolean;
	leave: () => void;
	/** The headers of an answer (taken or refused) at `now`: Retry-After, RateLimit-*. */
	headers: (now: number, taken: boolean) => Headers;
}

const retryAfter = (seconds: number): Headers => ({ 'retry-after': String(seconds) });

/** No limit at all. */
export const unlimited = (): Service => ({
	admit: () => true,
	leave: () => undefined,
	headers: () => ({}),
});

/** At most `capacity` calls at once; a refusal asks to come back in a second. */
export function capped(capacity: number): Service {
	let inFlight = 0;
	return {
		admit: () => (inFlight < capacity ? ++inFlight > 0 : false),
		leave: () => void (inFlight -= 1),
		headers: (_now, taken) => (taken ? {} : retryAfter(1)),
	};
}

/**
 * At most `limit` calls taken in any rolling `windowMs`, as the reference service counts them;
 * `flood`: calls another client of the same key made, in ms from now; `headers`: the quota on
 * every answer (RateLimit-Policy, -Remaining, -Reset), as `--quota-headers` sends it.
 */
export function quota(
	limit: number,
	windowMs: number,
	{ flood = [] as number[], headers = false } = {},
): Service {
	const taken = flood.map((ms) => Date.now() + ms);
	// The flood's later calls join the window as their time comes.
	const inWindow = (now: number) =>
		taken.filter((at) => at > now - windowMs && at <= now).sort((a, b) => a - b);
	const toSlotS = (now: number) => {
		const window = inWindow(now);
		if (window.length < limit) return 0;
		return Math.max(1, Math.ceil((window[window.length - limit] + windowMs - now) / 1000));
	};
	const announced = (now: number): Headers => ({
		'ratelimit-policy': `${limit};w=${Math.ceil(windowMs / 1000)}`,
		'ratelimit-remaining': String(Math.max(0, limit - inWindow(now).length)),
		'ratelimit-reset': String(toSlotS(now)),
	});
	return {
		admit: (now) => (inWindow(now).length < limit ? taken.push(now) > 0 : false),
		leave: () => undefined,
		headers: (now, ok) => ({
			...(ok ? {} : retryAfter(toSlotS(now))),
			...(headers ? announced(now) : {}),
		}),
	};
}

/**
 * A token bucket (a bursty quota): `burst` calls at once, refilled at `perSecond`; a refusal asks
 * to come back when the next token is due (at least a second, as the reference service rounds).
 */
export function tokenBucket(perSecond: number, burst: number): Service {
	let tokens = burst;
	let at = Date.now();
	const refill = (now: number) => {
		tokens = Math.min(burst, tokens + ((now - at) / 1000) * perSecond);
		at = now;
	};
	return {
		admit: (now) => {
			refill(now);
			return tokens >= 1 ? (tokens -= 1) >= 0 : false;
		},
		leave: () => undefined,
		headers: (_now, taken) => (taken ? {} : retryAfter(1)),
	};
}

/** Another client's calls: `perSecond` for `forMs` from now, in ms from now (a `flood`). */
export const floodFor = (perSecond: number, forMs: number) =>
	Array.from({ length: Math.floor((forMs / 1000) * perSecond) }, (_, n) => (n * 1000) / perSecond);

/**
 * n8n's one event loop, busy: `startMs` building the run's requests before any is sent, then
 * `perCallMs` to send each call and to read each answer, one at a time. `scrambleMs`: each answer
 * ready up to that much later, the call's number scrambling the order (a burst of refusals is
 * read out of order, as a real n8n reads one).
 */
export interface Busy {
	startMs: number;
	perCallMs: number;
	scrambleMs?: number;
}

export interface ListRun {
	ms: number;
	taken: number;
	refused: number;
	mostInFlight: number;
}

interface ListOptions {
	latencyMs?: number;
	maxInFlight?: number;
	/** An earlier run's limiter: what it learnt of the service. */
	limiter?: Limiter;
	busy?: Busy;
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
async function sendList(count: number, service: Service, options: ListOptions = {}) {
	const { latencyMs = 150, maxInFlight = 200, busy = { startMs: 0, perCallMs: 0 } } = options;
	const limiter = options.limiter ?? new Limiter(maxInFlight);
	const tally = { refused: 0, taken: 0, inFlight: 0, mostInFlight: 0 };
	const hold = eventLoop(busy);
	let calls = 0;
	const call = async () => {
		const readLateMs = ((calls++ * 7919) % 97) * ((busy.scrambleMs ?? 0) / 97);
		await hold(busy.perCallMs);
		const taken = service.admit(Date.now());
		// The service writes its headers as it answers, not when n8n reads them.
		let headers = service.headers(Date.now(), taken);
		if (taken) {
			tally.inFlight += 1;
			tally.mostInFlight = Math.max(tally.mostInFlight, tally.inFlight);
			await sleep(latencyMs);
			headers = service.headers(Date.now(), true);
			tally.inFlight -= 1;
			service.leave();
		}
		if (readLateMs > 0) await sleep(readLateMs);
		await hold(busy.perCallMs);
		return { status: taken ? 200 : 429, headers };
	};
	const search = async () => {
		for (;;) {
			const permit = await limiter.acquire(maxInFlight);
			const answer = await call();
			permit.done(answer);
			if (answer.status === 200) return void (tally.taken += 1);
			tally.refused += 1;
			await sleep(Number(answer.headers['retry-after']) * 1000);
		}
	};
	const startedAt = Date.now();
	await Promise.all(Array.from({ length: count }, search));
	const { refused, taken, mostInFlight } = tally;
	return { ms: Date.now() - startedAt, refused, taken, mostInFlight, limiter };
}

/** Runs the fake clock until `work` is done. */
export async function onFakeClock<T>(work: Promise<T>): Promise<T> {
	let finished = false;
	void work.finally(() => (finished = true));
	while (!finished) await jest.advanceTimersByTimeAsync(10);
	return await work;
}

/** One keyword list on the fake clock; `limiter` in the result carries what it learnt. */
export async function keywordList(count: number, service: Service, options: ListOptions = {}) {
	return await onFakeClock(sendList(count, service, options));
}

/** Several lists at once, on one limiter (executions of one n8n sharing a key) or on their own. */
export async function listsAtOnce(
	counts: number[],
	service: Service,
	options: ListOptions & { shared: boolean; limiters?: Limiter[] },
) {
	const shared = options.limiter ?? new Limiter(options.maxInFlight ?? 200);
	const lists = counts.map(
		async (count, n) =>
			await sendList(count, service, {
				...options,
				limiter: options.shared ? shared : options.limiters?.[n],
			}),
	);
	return await onFakeClock(Promise.all(lists));
}
