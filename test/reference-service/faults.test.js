'use strict';

// Injected faults (scripted failures in place of a search's answer) and the routes that are not
// searches.

const { serviceForFile } = require('./shared');

const service = serviceForFile();
/** @type {typeof service.search} */
const search = (...args) => service.search(...args);

describe('injected faults', () => {
	it('serve once, uncached and after the auth check, then normal answers resume', async () => {
		const body = { success: false, error: { code: 'upstream_timeout' } };
		const match = { platform: 'shortvideo', query: 'Rain' };
		await service.injectFaults([{ match, response: { status: 503, body } }]);
		// An unauthorized request does not take the fault.
		expect((await search('shortvideo', { q: 'rain' }, { authorization: null })).status).toBe(401);
		const faulted = await search('shortvideo', { q: 'rain' });
		expect([faulted.status, faulted.credits, faulted.body]).toEqual([503, '0', body]);
		expect((await search('shortvideo', { q: 'rain' })).credits).toBe('1');
		const { requests } = await service.ledger();
		expect(requests.map((r) => [r.status, r.outcome, r.creditsCharged])).toEqual([
			[401, 'unauthorized', 0],
			[503, 'fault', 0],
			[200, 'ok', 1],
		]);
	});

	it('send raw bodies and their headers, and can leave the credits header out', async () => {
		const body = '<html>slow down</html>';
		const response = { status: 429, headers: { 'Retry-After': '2' }, body, creditsCharged: null };
		await service.injectFaults([{ response }]);
		const answer = await search('shortvideo', { q: 'rain' });
		expect([answer.status, answer.text, answer.headers.get('retry-after')]).toEqual([
			429,
			body,
			'2',
		]);
		expect(answer.headers.has('x-credits-charged')).toBe(false);
	});

	it('apply from the nth matching request, as many times as asked', async () => {
		const match = { query: 'storm', cursor: 'none', nth: 2 };
		await service.injectFaults([{ match, times: 'always', response: { status: 502 } }]);
		const statuses = [];
		for (const limit of ['1', '2', '3'])
			statuses.push((await search('shortvideo', { q: 'storm', limit })).status);
		statuses.push((await search('shortvideo', { q: 'calm' })).status);
		expect(statuses).toEqual([200, 502, 502, 200]);
	});

	it('can delay an answer and drop the connection', async () => {
		await service.injectFaults([{ response: { destroy: true, delayMs: 200 } }]);
		const started = Date.now();
		await expect(search('shortvideo', { q: 'rain' })).rejects.toThrow();
		expect(Date.now() - started).toBeGreaterThanOrEqual(180);
		expect((await service.ledger()).requests[0]).toMatchObject({ status: null, outcome: 'fault' });
		expect((await search('shortvideo', { q: 'rain' })).status).toBe(200);
	});

	it('refuses a malformed fault list', async () => {
		await expect(service.injectFaults([{ response: { status: 'boom' } }])).rejects.toThrow(/400/);
	});
});

it('answers health, 404 and 405 in JSON; neither is a search in the ledger', async () => {
	expect(await (await fetch(`${service.url}/healthz`)).json()).toEqual({ ok: true });
	const missing = await search('videos', { q: 'rain' });
	expect([missing.status, missing.body.error.code]).toEqual([404, 'not_found']);
	const post = await fetch(`${service.url}/v1/shortvideo/sound/search?q=rain`, { method: 'POST' });
	expect([post.status, post.headers.get('x-credits-charged')]).toEqual([405, '0']);
	expect((await service.ledger()).requests).toEqual([]);
});
