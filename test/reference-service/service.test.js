'use strict';

// The reference service's contract over real HTTP, against a child process started by the client.

const { spawn } = require('node:child_process');
const net = require('node:net');
const os = require('node:os');
const { setTimeout: sleep } = require('node:timers/promises');
const { startReferenceService, withReferenceService } = require('../harness/referenceService');
const { fnv1a32, SOUND_FIELDS } = require('../../reference-service/catalogue');
const { encodeCursor } = require('../../reference-service/cursor');
const { readSettings } = require('../../reference-service/server');

jest.setTimeout(30000);

const [KEY, OTHER_KEY, REVOKED_KEY] = ['key-alpha', 'key-beta', 'key-revoked-9f2c'];
const ISO_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
// The page fields beside items and nextCursor of a fresh reading (spec 2.2).
const FRESH = { cached: false, fetchedAt: null, cacheAgeSeconds: null, sourceTimestamp: null };

/** @type {import('../harness/referenceService').ReferenceService} */
let service;
beforeAll(async () => {
	service = await startReferenceService({ keys: [KEY, OTHER_KEY], revokedKeys: [REVOKED_KEY] });
});
afterAll(() => service?.stop());
beforeEach(() => service.reset());

/** @type {import('../harness/referenceService').ReferenceService['search']} */
const search = (platform, params, auth) => service.search(platform, params, auth);

/** Follows nextCursor to the end; returns every page. */
async function walk(platform, q, limit) {
	const pages = [];
	let cursor = null;
	do {
		const page = await search(platform, { q, limit: String(limit), ...(cursor && { cursor }) });
		expect(page.status).toBe(200);
		pages.push(page);
		cursor = page.body.data.nextCursor;
	} while (cursor !== null);
	return pages;
}

const soundIds = (pages) => pages.flatMap((page) => page.body.data.items.map((i) => i.soundId));
const alive = (pid) => {
	try {
		return process.kill(pid, 0);
	} catch (error) {
		expect(error.code).toBe('ESRCH');
		return false;
	}
};

describe('auth', () => {
	const unauthorized = { code: 'unauthorized', message: 'Missing or invalid API key' };
	it.each([
		['no header', { authorization: null }, 401, unauthorized],
		['another scheme', { authorization: `Token ${KEY}` }, 401, unauthorized],
		['an empty bearer', { authorization: 'Bearer ' }, 401, unauthorized],
		['an unknown key', { authorization: 'Bearer secret-unknown-key-7f3a' }, 401, unauthorized],
		['a revoked key', { key: REVOKED_KEY }, 403, { code: 'forbidden', message: 'API key revoked' }],
	])('refuses %s, charges nothing, does not echo the key', async (_label, auth, status, error) => {
		const answer = await search('photosocial', { q: 'rain' }, auth);
		expect([answer.status, answer.credits]).toEqual([status, '0']);
		expect(answer.headers.get('content-type')).toBe('application/json');
		expect(answer.body).toEqual({ success: false, error });
		expect(answer.text).not.toMatch(/secret-unknown-key-7f3a|key-revoked-9f2c/);
		const { requests, totals } = await service.ledger();
		const seen = requests.map((r) => [r.status, r.outcome, r.creditsCharged]);
		expect(seen).toEqual([[status, error.code, 0]]);
		expect(totals.creditsCharged).toBe(0);
	});

	it('accepts every configured key', async () => {
		expect((await search('shortvideo', { q: 'rain' }, { key: KEY })).status).toBe(200);
		expect((await search('shortvideo', { q: 'snow' }, { key: OTHER_KEY })).status).toBe(200);
		expect(service.keys).toEqual([KEY, OTHER_KEY]);
	});
});

describe('platforms and prices', () => {
	it('serves shortvideo for 1 credit with populated items', async () => {
		const answer = await search('shortvideo', { q: 'Ocean Waves' });
		expect([answer.status, answer.credits]).toEqual([200, '1']);
		expect(answer.headers.get('content-type')).toBe('application/json');
		const { items, ...page } = answer.body.data;
		expect(answer.body).toMatchObject({ success: true, available: true });
		expect(page).toEqual({ nextCursor: expect.any(String), ...FRESH });
		expect(items).toHaveLength(20); // default page size
		const [item] = items;
		expect(Object.keys(item)).toEqual(SOUND_FIELDS);
		expect(item.soundId).toMatch(/^7\d{18}$/);
		expect(item.title).toMatch(/Ocean Waves Sound 1\b/);
		expect(typeof item.authorName).toBe('string');
		expect(Number.isInteger(item.postCount)).toBe(true);
		expect(item.durationSeconds).toBeGreaterThanOrEqual(5);
		expect(item.durationSeconds).toBeLessThanOrEqual(180);
		expect(item.url).toEqual({
			uri: expect.any(String),
			width: expect.any(Number),
			height: expect.any(Number),
			url_list: expect.arrayContaining([
				expect.stringMatching(/^https:\/\/audio\.sandbox\.invalid\/.+\.mp3$/),
			]),
			url_prefix: null,
		});
		expect(item.coverUrl.url_list[0]).toMatch(
			/^https:\/\/covers\.sandbox\.invalid\/.+\.jpg\?x-expires=\d+&x-signature=[0-9a-f]+$/,
		);
		expect(item.fetchedAt).toMatch(ISO_SECONDS);
		expect(item).toMatchObject({ cached: false, cacheAgeSeconds: 0 });
	});

	it('serves photosocial for 2 credits with only soundId and title', async () => {
		const answer = await search('photosocial', { q: 'ocean waves', limit: '5' });
		expect(answer.credits).toBe('2');
		expect(answer.body.data.items).toHaveLength(5);
		const nulls = { authorName: null, postCount: null, durationSeconds: null, url: null };
		for (const item of answer.body.data.items) {
			expect(item.soundId).toMatch(/^1\d{15}$/);
			expect(item.title).toEqual(expect.stringContaining('Ocean Waves'));
			expect(item).toMatchObject({ ...nulls, coverUrl: null, cached: false, cacheAgeSeconds: 0 });
		}
	});

	it('is deterministic except for timestamps and cover signatures', async () => {
		const first = await search('shortvideo', { q: 'rain', limit: '3' });
		await service.reset(); // defeat the cache: a second, fresh reading
		const second = await search('shortvideo', { q: 'rain', limit: '3' });
		const stable = (page) =>
			page.body.data.items.map(({ soundId, title, postCount }) => [soundId, title, postCount]);
		expect(stable(second)).toEqual(stable(first));
		const cover = (page) => page.body.data.items[0].coverUrl.url_list[0];
		expect(cover(second)).not.toBe(cover(first));
	});
});

describe('pagination', () => {
	it('pages a 45-match query as 20, 20, 5 and ends with nextCursor null', async () => {
		await service.setCatalogue({ query: 'Forty  Five', total: 45 });
		const pages = await walk('shortvideo', 'forty five', 20);
		expect(pages.map((p) => p.body.data.items.length)).toEqual([20, 20, 5]);
		expect(pages.map((p) => p.body.data.nextCursor === null)).toEqual([false, false, true]);
		expect(new Set(soundIds(pages)).size).toBe(45);
		expect(pages[2].body.data.items[4].title).toMatch(/Forty Five Sound 45\b/);
		expect((await service.ledger()).totals).toEqual({ requests: 3, creditsCharged: 3 });
	});

	it('caps limit at the maximum page size instead of refusing it', async () => {
		const answer = await search('shortvideo', { q: 'lofi', limit: '500' });
		expect(answer.body.success).toBe(true);
		expect(answer.body.data.items).toHaveLength(50);
		expect((await service.ledger()).requests[0]).toMatchObject({ limit: '500', itemCount: 50 });
	});

	it('walks all 10000 lofi matches in 200 pages of 50 with unique soundIds', async () => {
		const started = Date.now();
		const pages = await walk('shortvideo', 'lofi', 50);
		expect(pages).toHaveLength(200);
		const ids = soundIds(pages);
		expect(ids).toHaveLength(10000);
		expect(new Set(ids).size).toBe(10000);
		expect(Date.now() - started).toBeLessThan(20000);
		expect((await service.ledger()).totals).toEqual({ requests: 200, creditsCharged: 200 });
	});

	it('derives other totals from the query hash (40..199)', async () => {
		const pages = await walk('photosocial', 'ocean waves', 50);
		const expected = 40 + (fnv1a32('photosocial:ocean waves') % 160);
		expect(soundIds(pages)).toHaveLength(expected);
	});
});

describe('charged lookups without data', () => {
	it.each([
		['shortvideo', 'No  Such Sound', '1', null, 'empty'],
		['photosocial', 'No  Such Sound', '2', null, 'empty'],
		['photosocial', 'private sound', '2', 'private', 'unavailable'],
		['photosocial', 'deleted sound', '2', 'deleted', 'unavailable'],
		['photosocial', 'unsupported sound', '2', 'unsupported', 'unavailable'],
	])('charges %s "%s" (%s credits), availability status %s', async (...row) => {
		const [platform, q, credits, availabilityStatus, outcome] = row;
		const answer = await search(platform, { q });
		expect([answer.status, answer.credits]).toEqual([200, credits]);
		const availability = availabilityStatus
			? { available: false, availabilityStatus }
			: { available: true };
		const data = { items: [], nextCursor: null, ...FRESH };
		expect(answer.body).toEqual({ success: true, ...availability, data });
		const [request] = (await service.ledger()).requests;
		expect(request).toMatchObject({ outcome, creditsCharged: Number(credits) });
	});

	it('takes availability overrides per platform', async () => {
		const gone = { query: 'gone', platform: 'photosocial', availabilityStatus: 'deleted' };
		await service.setCatalogue(gone);
		expect((await search('photosocial', { q: 'gone' })).body.availabilityStatus).toBe('deleted');
		expect((await search('shortvideo', { q: 'gone' })).body.available).toBe(true);
	});
});

describe('refused requests', () => {
	// The cursors the service hands out for page 2 of rain, and of snow on the other platform.
	const RAIN_2 = encodeCursor('shortvideo', 'rain', 2);
	const PHOTO_SNOW_2 = encodeCursor('photosocial', 'snow', 2);
	it.each([
		['missing q', {}, 'query_required'],
		['empty q', { q: '' }, 'query_required'],
		['whitespace q', { q: ' \t  ' }, 'query_required'],
		['non-numeric limit', { q: 'snow', limit: 'ten' }, 'invalid_limit'],
		['zero limit', { q: 'snow', limit: '0' }, 'invalid_limit'],
		['negative limit', { q: 'snow', limit: '-3' }, 'invalid_limit'],
		['fractional limit', { q: 'snow', limit: '2.5' }, 'invalid_limit'],
		['garbage cursor', { q: 'snow', cursor: 'not a cursor!' }, 'invalid_cursor'],
		['undecodable cursor', { q: 'snow', cursor: 'AAAA' }, 'invalid_cursor'],
		['cursor of another query', { q: 'snow', cursor: RAIN_2 }, 'invalid_cursor'],
		['cursor of another platform', { q: 'snow', cursor: PHOTO_SNOW_2 }, 'invalid_cursor'],
	])('answers %s with 200, success:false, data:null, 0 credits', async (_label, params, code) => {
		const answer = await search('shortvideo', params);
		expect([answer.status, answer.credits]).toEqual([200, '0']);
		expect(answer.body).toEqual({
			success: false,
			available: false,
			error: { code, message: expect.any(String) },
			data: null,
		});
		const { requests, totals } = await service.ledger();
		expect(requests.map((r) => [r.outcome, r.creditsCharged])).toEqual([['refused', 0]]);
		expect(totals).toEqual({ requests: 1, creditsCharged: 0 });
	});

	it('hands out the cursors those cases replay, and accepts an equal query written otherwise', async () => {
		const first = await search('shortvideo', { q: 'rain', limit: '2' });
		const photo = await search('photosocial', { q: 'snow', limit: '2' });
		expect([first.body.data.nextCursor, photo.body.data.nextCursor]).toEqual([
			RAIN_2,
			PHOTO_SNOW_2,
		]);
		const cursor = first.body.data.nextCursor;
		const next = await search('shortvideo', { q: '  RAIN ', limit: '2', cursor });
		expect(next.body.success).toBe(true);
		expect(next.body.data.items[0].title).toMatch(/Rain Sound 3\b/);
	});
});

describe('cache', () => {
	it('repeats an identical request for free, whatever the key, until reset', async () => {
		const fresh = await search('shortvideo', { q: 'Rain', limit: '5' }, { key: KEY });
		const repeat = await search('shortvideo', { q: '  rain ', limit: '5' }, { key: OTHER_KEY });
		expect([fresh.credits, repeat.credits]).toEqual(['1', '0']);
		expect(repeat.body.data).toMatchObject({
			cached: true,
			fetchedAt: null,
			cacheAgeSeconds: expect.any(Number),
		});
		repeat.body.data.items.forEach((item, index) => {
			const original = fresh.body.data.items[index];
			expect(item).toEqual({ ...original, cached: true, cacheAgeSeconds: expect.any(Number) });
			expect(Number.isInteger(item.cacheAgeSeconds)).toBe(true);
		});
		// Another limit is another request: charged.
		expect((await search('shortvideo', { q: 'rain', limit: '6' })).credits).toBe('1');
		expect((await service.ledger()).requests.map((r) => r.outcome)).toEqual(['ok', 'cached', 'ok']);

		await service.reset();
		const again = await search('shortvideo', { q: 'rain', limit: '5' });
		expect(again.credits).toBe('1');
		expect(again.body.data.cached).toBe(false);
	});

	it('reports the age of the reading in whole seconds', async () => {
		const fresh = await search('shortvideo', { q: 'thunder', limit: '2' });
		await sleep(1100);
		const repeat = await search('shortvideo', { q: 'thunder', limit: '2' });
		expect(repeat.body.data.cacheAgeSeconds).toBeGreaterThanOrEqual(1);
		expect(repeat.body.data.items[0].cacheAgeSeconds).toBe(repeat.body.data.cacheAgeSeconds);
		expect(repeat.body.data.items[0].fetchedAt).toBe(fresh.body.data.items[0].fetchedAt);
	});

	it('caches available:false answers like successes', async () => {
		await search('shortvideo', { q: 'private sound' });
		const repeat = await search('shortvideo', { q: 'private sound' });
		expect(repeat.credits).toBe('0');
		const unavailable = { available: false, availabilityStatus: 'private' };
		expect(repeat.body).toMatchObject({ ...unavailable, data: { cached: true } });
	});

	it('charges again once the window has passed', async () => {
		await withReferenceService({ cacheSeconds: 1 }, async (short) => {
			const credits = async () => (await short.search('shortvideo', { q: 'rain' })).credits;
			expect(await credits()).toBe('1');
			expect(await credits()).toBe('0');
			await sleep(1100);
			expect(await credits()).toBe('1');
		});
	});
});

describe('ledger', () => {
	it('records every search with its raw inputs and outcome, but not control calls', async () => {
		const first = await search('shortvideo', { q: ' Lo  Fi ', limit: '3' });
		const cursor = first.body.data.nextCursor;
		await search('shortvideo', { q: 'lo fi', limit: '3', cursor }, { key: OTHER_KEY });
		await fetch(`${service.url}/healthz`);
		const { requests, totals } = await service.ledger();
		expect(requests).toEqual([
			{
				seq: 1,
				at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/),
				method: 'GET',
				path: '/v1/shortvideo/sound/search',
				platform: 'shortvideo',
				q: ' Lo  Fi ',
				query: 'lo fi',
				limit: '3',
				cursor: null,
				authorization: `Bearer ${KEY}`,
				status: 200,
				creditsCharged: 1,
				outcome: 'ok',
				itemCount: 3,
			},
			expect.objectContaining({
				seq: 2,
				cursor,
				authorization: `Bearer ${OTHER_KEY}`,
				outcome: 'ok',
			}),
		]);
		expect(totals).toEqual({ requests: 2, creditsCharged: 2 });
	});
});

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
		const missing = await fetch(`${service.url}/v1/videos/sound/search`);
		expect(missing.status).toBe(404);
		expect((await missing.json()).error.code).toBe('not_found');
		const url = `${service.url}/v1/shortvideo/sound/search?q=rain`;
		const post = await fetch(url, { method: 'POST' });
		expect(post.status).toBe(405);
		expect(post.headers.get('x-credits-charged')).toBe('0');
		expect((await service.ledger()).requests).toEqual([]);
	});
});

describe('process', () => {
	/** Resolves 'connected' or the connection error code. */
	const tryConnect = (host, port) =>
		new Promise((resolve) => {
			const socket = net.connect({ host, port, timeout: 2000 });
			const end = (result) => {
				socket.destroy();
				resolve(result);
			};
			socket.once('connect', () => end('connected'));
			socket.once('timeout', () => end('timeout'));
			socket.once('error', (error) => resolve(error.code));
		});

	it('binds 127.0.0.1 only', async () => {
		const { hostname, port } = new URL(service.url);
		expect(hostname).toBe('127.0.0.1');
		expect(await tryConnect('127.0.0.1', Number(port))).toBe('connected');
		const elsewhere = Object.values(os.networkInterfaces())
			.flatMap((addresses) => addresses ?? [])
			.filter((address) => address.family === 'IPv4' && !address.internal)
			.map((address) => address.address);
		// On Linux all of 127/8 is loopback: a server on 0.0.0.0 would answer 127.0.0.2 too.
		if (process.platform === 'linux') elsewhere.push('127.0.0.2');
		for (const host of elsewhere) {
			expect([host, await tryConnect(host, Number(port))]).toEqual([host, 'ECONNREFUSED']);
		}
	});

	it('stop() ends the process cleanly and withReferenceService always stops', async () => {
		const started = await startReferenceService();
		expect(alive(started.pid)).toBe(true);
		expect(await started.stop()).toEqual({ code: 0, signal: null });
		expect(alive(started.pid)).toBe(false);

		let pid;
		const failing = withReferenceService({}, async (svc) => {
			pid = svc.pid;
			throw new Error('test body failed');
		});
		await expect(failing).rejects.toThrow('test body failed');
		expect(alive(pid)).toBe(false);
	});

	it('exits by itself when its --parent-pid is gone', async () => {
		const parent = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 300)']);
		const parentGone = new Promise((resolve) => parent.once('exit', resolve));
		const orphan = await startReferenceService({ args: ['--parent-pid', String(parent.pid)] });
		await parentGone;
		for (const deadline = Date.now() + 5000; alive(orphan.pid) && Date.now() < deadline; ) {
			await sleep(100);
		}
		expect(alive(orphan.pid)).toBe(false);
		expect(await orphan.stop()).toEqual({ code: 0, signal: null });
	});

	it('logs each request without the key when not quiet', async () => {
		await withReferenceService({ quiet: false, keys: ['log-secret-key'] }, async (svc) => {
			await svc.search('photosocial', { q: 'rain' });
			await sleep(100);
			expect(svc.stderr()).toContain('GET /v1/photosocial/sound/search 200 credits=2');
			expect(svc.stderr()).not.toContain('log-secret-key');
		});
	});

	it('reads port and keys from the environment when no flag is given', () => {
		const env = { SOUND_SEARCH_SANDBOX_PORT: '4321', SOUND_SEARCH_SANDBOX_KEYS: 'x, y' };
		const fromEnv = { port: 4321, keys: ['x', 'y'], host: '127.0.0.1' };
		expect(readSettings([], env)).toMatchObject(fromEnv);
		expect(readSettings(['--port', '0', '--keys', 'z'], env)).toMatchObject({
			port: 0,
			keys: ['z'],
		});
		expect(() => readSettings(['--max-page-size', '0'], {})).toThrow(/max-page-size/);
	});
});
