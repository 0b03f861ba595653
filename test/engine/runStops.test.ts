import { sleep } from 'n8n-workflow';
import { startForwardProxy } from '../harness/forwardProxy';
import { BY_KEYWORD, keywordItems, useReferenceService } from '../harness/engine/searchFixture';

// What a run that stops leaves behind, in n8n-core over real HTTP: no place held in the limiter
// that every later execution on the key shares, and no call sent on once the run is doomed.

const { service, search, searchKeywords, calls } = useReferenceService();

it('calls the credit budget refuses hold no place in the limiter: a later execution on the key gets all of its Max Calls in Flight', async () => {
	await service().setCapacity({ latencyMs: 300 });
	const spent = await searchKeywords(3, { maxInFlight: 2, maxCredits: 1 });
	expect(spent.error?.message).toMatch(/^This run reached its Max Credits \(1\)/);

	await service().reset();
	await service().setCapacity({ latencyMs: 300 });
	const later = await searchKeywords(4, { maxInFlight: 4 });
	expect(later.error).toBeUndefined();
	expect((await service().ledger()).capacity.mostInFlight).toBe(4);
});

it('a doomed run cancels its calls n8n has not sent on: none reaches the service after the 402', async () => {
	await service().injectFaults([
		{ match: { query: 'rain' }, times: 'always', response: { status: 402 } },
	]);
	// "rain" passes at once; every other call is held a second: taken by n8n, not yet sent on.
	const proxy = await startForwardProxy({
		holdMs: (url) => (url.searchParams.get('q') === 'rain' ? 0 : 1000),
	});
	try {
		const run = await search(
			{ ...BY_KEYWORD, limit: 1, requestOptions: { proxy: proxy.url } },
			{ input: keywordItems('rain', 'piano', 'jazz', 'birds') },
		);
		expect(run.error?.message).toBe('The API key has no credits left (402 Payment Required)');
		// Past the hold: a call n8n still sent would have reached the service by now.
		await sleep(1500);
		expect((await calls()).map((call) => call.q)).toEqual(['rain']);
	} finally {
		await proxy.close();
	}
});
