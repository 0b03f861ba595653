'use strict';

// Injected faults (scripted failures in place of a search's answer) and the routes that are not
// searches.

const { serviceForFile } = require('./shared');

const service = serviceForFile();
/** @type {typeof service.search} */
const search = (...args) => service.search(...args);

describe('injected faults', () => {
	it('serves a fault once, then normal answers resume', async () => {
		const body = { success: false, error: { code: 'upstream_timeout' } };
		const match = { platform: 'shortvideo', query: 'Rain' };
		await service.injectFaults([{ match, response: { status: 503, body } }]);
		const faulted = await search('shortvideo', { q: 'rain' });
		expect([faulted.status, faulted.credits, faulted.body]).toEqual([503, '0', body]);
		const normal = await search('shortvideo', { q: 'rain' });
		expect(normal.status).toBe(200);
		expect(normal.credits).toBe('1'); // faulted answers are not cached
		const { requests } = await service.ledger();
		expect(requests.map((r) => [r.status, r.outcome, r.creditsCharged])).toEqual([
			[503, 'fault', 0],
			[200, 'ok', 1],
		]);
	});

	it('checks auth before faults: an unauthorized request does not consume one', async () => {
		await service.injectFaults([{ response: { status: 500 } }]);
		expect((await search('photosocial', { q: 'rain' }, { authorization: null })).status).toBe(401);
		expect((await search('photosocial', { q: 'rain' })).status).toBe(500);
	});

	it('sends raw bodies, custom headers and can omit the credits header', async () => {
		const body = '<html>slow down</html>';
		const headers = { 'Retry-After': '2' };
		await service.injectFaults([
			{ response: { status: 429, headers, body, creditsCharged: null } },
		]);
		const answer = await search('shortvideo', { q: 'rain' });
		expect([answer.status, answer.text]).toEqual([429, body]);
		expect(answer.headers.get('retry-after')).toBe('2');
		expect(answer.headers.has('x-credits-charged')).toBe(false);
	});

	it('applies from the nth matching request, as many times as asked', async () => {
		const match = { query: 'storm', cursor: 'none', nth: 2 };
		await service.injectFaults([{ match, times: 'always', response: { status: 502 } }]);
		const statuses = [];
		for (const limit of ['1', '2', '3']) {
			statuses.push((await search('shortvideo', { q: 'storm', limit })).status);
		}
		expect(statuses).toEqual([200, 502, 502]);
		expect((await search('shortvideo', { q: 'calm' })).status).toBe(200);
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

describe('other routes', () => {
	it('answers health, 404 and 405 in JSON', async () => {
		expect(await (await fetch(`${service.url}/healthz`)).json()).toEqual({ ok: true });
		const missing = await search('videos', { q: 'rain' });
		expect([missing.status, missing.body.error.code]).toEqual([404, 'not_found']);
		const url = `${service.url}/v1/shortvideo/sound/search?q=rain`;
		const post = await fetch(url, { method: 'POST' });
		expect(post.status).toBe(405);
		expect(post.headers.get('x-credits-charged')).toBe('0');
		expect((await service.ledger()).requests).toEqual([]);
	});
});
