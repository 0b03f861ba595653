import type { Limiter } from '../../nodes/shared/limiter';
import { capped, keywordList, listsAtOnce, quota, unlimited, type Busy } from './modelledService';

// The limiter against a modelled service on jest's fake clock (modelledService.ts): keyword lists
// of one page per keyword, as the node sends them, at a quick service's latency and at a real
// one's (a search that reads public data takes seconds). Each case states a requirement of issue
// 43 (BENCHMARKS.md measures the same in a real n8n): a share of the best time the service allows,
// and how many calls it refuses. "A busy n8n" sends and reads each call late and out of order.

beforeEach(() => jest.useFakeTimers({ now: 0 }));
afterEach(() => jest.useRealTimers());

const BUSY: Busy = { startMs: 100, perCallMs: 3, scrambleMs: 300 };
const IDLE: Busy = { startMs: 0, perCallMs: 0 };

/** 200 calls at 10 a second: the last window opens 19 s after the first, its answers a latency on. */
const tenASecondIdealMs = (latencyMs: number, calls = 200) =>
	(Math.ceil(calls / 10) - 1) * 1000 + latencyMs;

describe.each([150, 2000])(
	'the limiter against a modelled service, %i ms an answer',
	(latencyMs) => {
		it('no limit: 200 searches all start at once, in one round trip', async () => {
			const run = await keywordList(200, unlimited(), { latencyMs });
			expect(run).toMatchObject({ ms: latencyMs, refused: 0, mostInFlight: 200 });
		});

		it('1,000 searches: Max Calls in Flight at a time', async () => {
			const run = await keywordList(1000, unlimited(), { latencyMs, maxInFlight: 200 });
			expect(run).toMatchObject({ ms: 5 * latencyMs, mostInFlight: 200 });
		});

		describe.each([
			['an idle n8n', IDLE],
			['a busy n8n', BUSY],
		])('%s', (_name, busy) => {
			const options = { latencyMs, busy };
			const ideal = tenASecondIdealMs(latencyMs);

			it.each([false, true])(
				'10 a second (headers: %s): 85 % at first contact, 88 % later with at most 5 % refused',
				async (headers) => {
					const first = await keywordList(200, quota(10, 1000, { headers }), options);
					expect(first.taken).toBe(200);
					expect(ideal / first.ms).toBeGreaterThan(0.83);
					const later = await keywordList(200, quota(10, 1000, { headers }), {
						...options,
						limiter: first.limiter,
					});
					expect(ideal / later.ms).toBeGreaterThan(0.88);
					// A busy n8n sends the first calls of a run late: they can land in the next window.
					expect(later.refused).toBeLessThanOrEqual(busy === BUSY ? 10 : 0);
				},
			);

			it('60 a minute: the quota read from the refusals of the first minute, none refused later', async () => {
				const idealMs = 3 * 60_000 + latencyMs;
				const first = await keywordList(200, quota(60, 60_000), options);
				expect(idealMs / first.ms).toBeGreaterThan(0.9);
				expect(first.limiter.state().quota).toMatchObject({ limit: 60, windowMs: 60_000 });
				const later = await keywordList(200, quota(60, 60_000), {
					...options,
					limiter: first.limiter,
				});
				expect(idealMs / later.ms).toBeGreaterThan(0.9);
				expect(later.refused).toBe(0);
			});

			it('a quota another client of the key used up: every run near what is left of it', async () => {
				let limiter: Limiter | undefined;
				for (let run = 0; run < 4; run++) {
					const flooded = quota(10, 1000, { flood: Array(10).fill(-5) });
					const list = await keywordList(200, flooded, { ...options, limiter });
					expect(ideal / list.ms).toBeGreaterThan(0.8);
					limiter = list.limiter;
				}
			});

			it('two executions at once on one key share its quota: together near it, few refused from the second round', async () => {
				let limiter: Limiter | undefined;
				for (let round = 0; round < 3; round++) {
					const startedAt = Date.now();
					const lists = await listsAtOnce([200, 200], quota(10, 1000), {
						...options,
						limiter,
						shared: true,
					});
					limiter = lists[0].limiter;
					expect(tenASecondIdealMs(latencyMs, 400) / (Date.now() - startedAt)).toBeGreaterThan(
						0.85,
					);
					const refused = lists[0].refused + lists[1].refused;
					if (round > 0) expect(refused / (400 + refused)).toBeLessThanOrEqual(0.1);
				}
			});
		});
	},
);

describe('a service capped at 20 calls in flight, 2 s an answer', () => {
	const idealMs = 10 * 2000;

	it.each([
		['an idle n8n', IDLE, 0.9],
		['a busy n8n', BUSY, 0.83],
	])('%s: near the cap at first contact and later', async (_name, busy, share) => {
		const first = await keywordList(200, capped(20), { latencyMs: 2000, busy });
		expect(idealMs / first.ms).toBeGreaterThan(share);
		const later = await keywordList(200, capped(20), {
			latencyMs: 2000,
			busy,
			limiter: first.limiter,
		});
		expect(idealMs / later.ms).toBeGreaterThan(share);
	});
});
