import { sleep } from 'n8n-workflow';
import {
	CallScheduler,
	RunStopped,
	type Release,
} from '../../nodes/SoundSearch/shared/callScheduler';

/** A call the test finishes by hand; `started` counts the calls the scheduler let start. */
function calls(scheduler: CallScheduler) {
	const counts = { started: 0 };
	const start = () => {
		let finish: (value: string) => void = () => {};
		const sent = scheduler.send(async () => {
			counts.started += 1;
			return await new Promise<string>((resolve) => (finish = resolve));
		});
		return { sent, finish: (value: string) => finish(value) };
	};
	return { counts, start };
}

async function settle(call: { sent: Promise<{ release: Release }>; finish: (v: string) => void }) {
	call.finish('answered');
	return (await call.sent).release;
}

/** Ends a test: queued calls are dropped (their rejection expected), started ones finished. */
function stopAll(
	scheduler: CallScheduler,
	all: Array<ReturnType<ReturnType<typeof calls>['start']>>,
) {
	scheduler.stop(new RunStopped());
	for (const call of all) {
		call.sent.catch(() => undefined);
		call.finish('answered');
	}
}

describe('CallScheduler', () => {
	it('a wave of refusals read late does not push the limit below what the service served', async () => {
		const scheduler = new CallScheduler({ maxInFlight: 8, rateLimitWaitMs: 10_000 });
		const { counts, start } = calls(scheduler);
		const wave = Array.from({ length: 8 }, start);
		await sleep(0);
		expect(counts.started).toBe(8);

		// The service served calls 0-3 and refused 4-7. The first refusal read says 4.
		(await settle(wave[4]))({ kind: 'congested', waitMs: 0 });
		// Calls 0 and 1 end before the other refusals of the same wave are read.
		(await settle(wave[0]))({ kind: 'ok' });
		(await settle(wave[1]))({ kind: 'ok' });
		for (const refused of wave.slice(5)) (await settle(refused))({ kind: 'congested', waitMs: 0 });

		// Calls 2 and 3 are still out: a limit of 4 lets two more start (2 would let none).
		const next = Array.from({ length: 3 }, start);
		await sleep(0);
		expect(counts.started).toBe(10);
		stopAll(scheduler, [...wave, ...next]);
	});

	it('a refusal from a new wave lowers the limit to what was served before it', async () => {
		const scheduler = new CallScheduler({ maxInFlight: 6, rateLimitWaitMs: 10_000 });
		const { counts, start } = calls(scheduler);
		const wave = Array.from({ length: 6 }, start);
		await sleep(0);
		(await settle(wave[3]))({ kind: 'congested', waitMs: 0 });

		const next = Array.from({ length: 2 }, start);
		await sleep(0);
		// 5 still out, limit 3: nothing more starts.
		expect(counts.started).toBe(6);
		stopAll(scheduler, [...wave, ...next]);
	});
});
