import { sleep } from 'n8n-workflow';
import { RunStopped } from '../../nodes/shared/errors';
import { CallScheduler } from '../../nodes/shared/scheduler';

// A run stopping (another item failed, the execution cancelled) and what each call reports.

const BUDGET = { rateLimitWaitMs: 10_000 };

/** A call that stays out until `finish`; `calls` counts the ones the scheduler let start. */
function openCall(counts: { calls: number }) {
	let finish: () => void = () => {};
	const call = async () => {
		counts.calls += 1;
		await new Promise<void>((resolve) => (finish = resolve));
		return 'answered';
	};
	return { call, finish: () => finish() };
}

describe('CallScheduler: a run that stops', () => {
	it('drops queued calls with the reason, lets calls in flight finish and starts no new one', async () => {
		const scheduler = new CallScheduler({ maxInFlight: 1, ...BUDGET });
		const counts = { calls: 0 };
		const first = openCall(counts);
		const sent = scheduler.send(first.call);
		const queued = scheduler.send(openCall(counts).call);
		await sleep(0);
		const reason = new RunStopped('Another input item failed');
		scheduler.stop(reason);
		scheduler.stop(new RunStopped('a later reason'));
		expect(scheduler.isStopped).toBe(true);
		await expect(queued).rejects.toBe(reason);
		first.finish();
		const { outcome, release } = await sent;
		expect(outcome).toBe('answered');
		release({ kind: 'ok' }); // a free slot: still nothing starts
		await expect(scheduler.send(openCall(counts).call)).rejects.toBe(reason);
		expect(counts.calls).toBe(1);
	});

	it('ends a backoff in progress at once, and refuses a new one', async () => {
		const scheduler = new CallScheduler({ maxInFlight: 1, ...BUDGET });
		expect(scheduler.isStopped).toBe(false);
		const backoff = scheduler.wait(500);
		const reason = new RunStopped('Another keyword failed');
		scheduler.stop(reason);
		await expect(backoff).rejects.toBe(reason);
		await expect(scheduler.wait(1)).rejects.toBe(reason);
	});

	it('a backoff the run does not stop ends on time', async () => {
		const scheduler = new CallScheduler({ maxInFlight: 1, ...BUDGET });
		await expect(scheduler.wait(10)).resolves.toBeUndefined();
		// A stop after the backoff ended rejects nothing that is gone.
		scheduler.stop(new RunStopped());
	});

	it('a cancelled execution stops the run, before or after the scheduler exists', async () => {
		const cancelled = new AbortController();
		cancelled.abort();
		const early = new CallScheduler({ maxInFlight: 2, cancelSignal: cancelled.signal, ...BUDGET });
		await expect(early.send(async () => 'never')).rejects.toThrow('The execution was cancelled');

		const later = new AbortController();
		const scheduler = new CallScheduler({ maxInFlight: 1, cancelSignal: later.signal, ...BUDGET });
		const counts = { calls: 0 };
		const first = openCall(counts);
		const sent = scheduler.send(first.call);
		const queued = scheduler.send(openCall(counts).call);
		await sleep(0);
		later.abort();
		await expect(queued).rejects.toBeInstanceOf(RunStopped);
		first.finish();
		await sent;
		expect(counts.calls).toBe(1);
	});
});

describe('CallScheduler: what a call reports', () => {
	it('a call that throws reports the error as its outcome; a thrown non-error becomes one', async () => {
		const scheduler = new CallScheduler({ maxInFlight: 1, ...BUDGET });
		const failure = new Error('socket hang up');
		const thrown = await scheduler.send(async () => await Promise.reject(failure));
		expect(thrown.outcome).toBe(failure);
		thrown.release({ kind: 'neutral' });
		const odd = await scheduler.send(async () => await Promise.reject('ETIMEDOUT'));
		expect(odd.outcome).toEqual(new Error('ETIMEDOUT'));
		odd.release({ kind: 'neutral' });
	});

	it('a call released twice frees one slot', async () => {
		const scheduler = new CallScheduler({ maxInFlight: 2, ...BUDGET });
		const counts = { calls: 0 };
		const first = await scheduler.send(async () => 'answered');
		const held = openCall(counts);
		void scheduler.send(held.call);
		first.release({ kind: 'ok' });
		first.release({ kind: 'ok' });
		// Bound 2, one slot freed (two would let a third start): the held call and one more.
		const later = [openCall(counts), openCall(counts), openCall(counts)];
		const sent = later.map((open) => scheduler.send(open.call));
		await sleep(0);
		expect(counts.calls).toBe(2);
		scheduler.stop(new RunStopped());
		for (const promise of sent) promise.catch(() => undefined);
		for (const open of [held, ...later]) open.finish();
	});
});
