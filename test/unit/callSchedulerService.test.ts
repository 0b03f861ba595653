import { sleep } from 'n8n-workflow';
import { CallScheduler, type CallVerdict } from '../../nodes/shared/scheduler';

// The scheduler against a modelled service on jest's fake clock: every call of a keyword list
// through it, as the node sends them, and what the service did with them. The service answers
// in 150 ms and refuses at once (429, Retry-After 1 s, free) beyond its limit.

beforeEach(() => jest.useFakeTimers({ now: 0 }));
afterEach(() => jest.useRealTimers());

const LATENCY_MS = 150;
const refused: CallVerdict = {
	kind: 'congested',
	waitMs: 1000,
	hint: { retryAfterMs: 1000 },
};

/** What the service would refuse: `admit` says whether a call arriving now is taken. */
interface Service {
	admit: (now: number) => boolean;
	leave: () => void;
}

/** At most `capacity` calls at once. */
function capped(capacity: number): Service {
	let inFlight = 0;
	return {
		admit: () => (inFlight < capacity ? ++inFlight > 0 : false),
		leave: () => void (inFlight -= 1),
	};
}

/** At most `limit` calls taken in any rolling `windowMs`. */
function quota(limit: number, windowMs: number): Service {
	const taken: number[] = [];
	return {
		admit: (now) => {
			const inWindow = taken.filter((at) => at > now - windowMs).length;
			return inWindow < limit ? taken.push(now) > 0 : false;
		},
		leave: () => undefined,
	};
}

/** Sends `count` searches as fetchPage does (retrying refusals); resolves when all are in. */
async function keywordList(count: number, service: Service) {
	const scheduler = new CallScheduler({ maxInFlight: 96, rateLimitWaitMs: 300_000 });
	const tally = { refused: 0, taken: 0 };
	const search = async () => {
		for (;;) {
			const { outcome, release } = await scheduler.send(async () => {
				if (!service.admit(Date.now())) return 'refused';
				await sleep(LATENCY_MS);
				service.leave();
				return 'ok';
			});
			if (outcome === 'ok') return void ((tally.taken += 1), release({ kind: 'ok' }));
			tally.refused += 1;
			release(refused);
			await scheduler.wait(1000);
		}
	};
	const done = Promise.all(Array.from({ length: count }, search));
	let finished = false;
	void done.then(() => (finished = true));
	while (!finished) await jest.advanceTimersByTimeAsync(10);
	return { ms: Date.now(), ...tally };
}

describe('CallScheduler against a modelled service', () => {
	it('capped at 4 in flight: 400 searches near its capacity, few refused', async () => {
		const run = await keywordList(400, capped(4));
		expect(run.taken).toBe(400);
		const ideal = (400 * LATENCY_MS) / 4;
		expect(ideal / run.ms).toBeGreaterThan(0.85);
		expect(run.refused).toBeLessThanOrEqual(20);
	});

	it('at 10 a second: 100 searches near the quota, few refused', async () => {
		const run = await keywordList(100, quota(10, 1000));
		expect(run.taken).toBe(100);
		expect(9000 / run.ms).toBeGreaterThan(0.85);
		expect(run.refused).toBeLessThanOrEqual(10);
	});
});
