'use strict';

// Proves the sandbox's contract over real HTTP, against a child process started by the harness.

const net = require('node:net');
const os = require('node:os');
const { setTimeout: sleep } = require('node:timers/promises');
const { startReferenceService, withReferenceService } = require('../harness/referenceService');
const { fnv1a32 } = require('../../reference-service/catalogue');
const { readSettings } = require('../../reference-service/server');

jest.setTimeout(30000);

const KEY = 'key-alpha';
const OTHER_KEY = 'key-beta';
const REVOKED_KEY = 'key-revoked-9f2c';
const ISO_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

let service;

beforeAll(async () => {
	service = await startReferenceService({ keys: [KEY, OTHER_KEY], revokedKeys: [REVOKED_KEY] });
});

afterAll(async () => {
	await service?.stop();
});

beforeEach(async () => {
	await service.reset();
});

/**
 * One search request. `authorization` replaces the header entirely (null: no header).
 */
async function search(platform, params = {}, { key = KEY, authorization } = {}) {
	const url = new URL(`/v1/${platform}/sound/search`, service.url);
	for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
	const header = authorization === undefined ? `Bearer ${key}` : authorization;
	const response = await fetch(url, { headers: header === null ? {} : { Authorization: header } });
	const text = await response.text();
	return {
		status: response.status,
		headers: response.headers,
		credits: response.headers.get('x-credits-charged'),
		text,
		body: parseJson(text),
	};
}

function parseJson(text) {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

/** Follows nextCursor to the end; returns every page. */
async function walk(platform, q, limit) {
	const pages = [];
	let cursor = null;
	do {
		const params = cursor ? { q, limit: String(limit), cursor } : { q, limit: String(limit) };
		const page = await search(platform, params);
		expect(page.status).toBe(200);
		pages.push(page);
		cursor = page.body.data.nextCursor;
	} while (cursor !== null);
	return pages;
}

const soundIds = (pages) => pages.flatMap((page) => page.body.data.items.map((i) => i.soundId));

describe('auth', () => {
	it.each([
		['no header', null],
		['another scheme', `Token ${KEY}`],
		['an empty bearer', 'Bearer '],
		['an unknown key', 'Bearer secret-unknown-key-7f3a'],
	])('answers 401 for %s, charges nothing, does not echo the key', async (_label, header) => {
		const answer = await search('shortvideo', { q: 'rain' }, { authorization: header });
		expect(answer.status).toBe(401);
		expect(answer.credits).toBe('0');
		expect(answer.headers.get('content-type')).toBe('application/json');
		expect(answer.body).toEqual({
			success: false,
			error: { code: 'unauthorized', message: 'Missing or invalid API key' },
		});
		expect(answer.text).not.toContain('secret-unknown-key-7f3a');
	});

	it('answers 403 for a revoked key, charges nothing, does not echo the key', async () => {
		const answer = await search('photosocial', { q: 'rain' }, { key: REVOKED_KEY });
		expect(answer.status).toBe(403);
		expect(answer.credits).toBe('0');
		expect(answer.body).toEqual({
			success: false,
			error: { code: 'forbidden', message: 'API key revoked' },
		});
		expect(answer.text).not.toContain(REVOKED_KEY);
		const { requests, totals } = await service.ledger();
		expect(requests.map((r) => [r.status, r.outcome, r.creditsCharged])).toEqual([
			[403, 'forbidden', 0],
		]);
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
		expect(answer.status).toBe(200);
		expect(answer.credits).toBe('1');
		expect(answer.headers.get('content-type')).toBe('application/json');
		const { items, ...page } = answer.body.data;
		expect(answer.body).toMatchObject({ success: true, available: true });
		expect(page).toEqual({
			nextCursor: expect.any(String),
			cached: false,
			fetchedAt: null,
			cacheAgeSeconds: null,
			sourceTimestamp: null,
		});
		expect(items).toHaveLength(20); // default page size
		const item = items[0];
		expect(Object.keys(item)).toEqual([
			'soundId',
			'title',
			'authorName',
			'postCount',
			'durationSeconds',
			'url',
			'coverUrl',
			'fetchedAt',
			'cached',
			'cacheAgeSeconds',
		]);
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
		for (const item of answer.body.data.items) {
			expect(item.soundId).toMatch(/^1\d{15}$/);
			expect(item.title).toEqual(expect.stringContaining('Ocean Waves'));
			expect(item).toMatchObject({
				authorName: null,
				postCount: null,
				durationSeconds: null,
				url: null,
				coverUrl: null,
				cached: false,
				cacheAgeSeconds: 0,
			});
		}
	});

	it('is deterministic except for timestamps and cover signatures', async () => {
		const first = await search('shortvideo', { q: 'rain', limit: '3' });
		await service.reset(); // defeat the cache: a second, fresh reading
		const second = await search('shortvideo', { q: 'rain', limit: '3' });
		const stable = (page) =>
			page.body.data.items.map(({ soundId, title, postCount }) => [soundId, title, postCount]);
		expect(stable(second)).toEqual(stable(first));
		expect(second.body.data.items[0].coverUrl.url_list[0]).not.toBe(
			first.body.data.items[0].coverUrl.url_list[0],
		);
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
		['shortvideo', '1'],
		['photosocial', '2'],
	])('charges an empty result on %s', async (platform, credits) => {
		const answer = await search(platform, { q: 'No  Such Sound' });
		expect(answer.credits).toBe(credits);
		expect(answer.body).toEqual({
			success: true,
			available: true,
			data: {
				items: [],
				nextCursor: null,
				cached: false,
				fetchedAt: null,
				cacheAgeSeconds: null,
				sourceTimestamp: null,
			},
		});
		expect((await service.ledger()).requests[0].outcome).toBe('empty');
	});

	it.each([
		['private sound', 'private'],
		['deleted sound', 'deleted'],
		['unsupported sound', 'unsupported'],
	])('charges "%s" as available:false with status %s', async (q, status) => {
		const answer = await search('photosocial', { q });
		expect(answer.status).toBe(200);
		expect(answer.credits).toBe('2');
		expect(answer.body).toEqual({
			success: true,
			available: false,
			availabilityStatus: status,
			data: {
				items: [],
				nextCursor: null,
				cached: false,
				fetchedAt: null,
				cacheAgeSeconds: null,
				sourceTimestamp: null,
			},
		});
		expect((await service.ledger()).requests[0]).toMatchObject({
			outcome: 'unavailable',
			creditsCharged: 2,
		});
	});

	it('takes availability overrides per platform', async () => {
		await service.setCatalogue({
			query: 'gone',
			platform: 'photosocial',
			availabilityStatus: 'deleted',
		});
		expect((await search('photosocial', { q: 'gone' })).body.availabilityStatus).toBe('deleted');
		expect((await search('shortvideo', { q: 'gone' })).body.available).toBe(true);
	});
});

describe('refused requests', () => {
	const refusalCases = async () => {
		const other = await search('shortvideo', { q: 'rain', limit: '2' });
		const photo = await search('photosocial', { q: 'snow', limit: '2' });
		await service.reset();
		return [
			['missing q', {}, 'query_required'],
			['empty q', { q: '' }, 'query_required'],
			['whitespace q', { q: ' \t  ' }, 'query_required'],
			['non-numeric limit', { q: 'snow', limit: 'ten' }, 'invalid_limit'],
			['zero limit', { q: 'snow', limit: '0' }, 'invalid_limit'],
			['negative limit', { q: 'snow', limit: '-3' }, 'invalid_limit'],
			['fractional limit', { q: 'snow', limit: '2.5' }, 'invalid_limit'],
			['garbage cursor', { q: 'snow', cursor: 'not a cursor!' }, 'invalid_cursor'],
			['undecodable cursor', { q: 'snow', cursor: 'AAAA' }, 'invalid_cursor'],
			[
				'cursor of another query',
				{ q: 'snow', cursor: other.body.data.nextCursor },
				'invalid_cursor',
			],
			[
				'cursor of another platform',
				{ q: 'snow', cursor: photo.body.data.nextCursor },
				'invalid_cursor',
			],
		];
	};

	it('answers 200, success:false, data:null and 0 credits for each case', async () => {
		const cases = await refusalCases();
		for (const [label, params, code] of cases) {
			const answer = await search('shortvideo', params);
			expect({ label, status: answer.status, credits: answer.credits }).toEqual({
				label,
				status: 200,
				credits: '0',
			});
			expect(answer.body).toEqual({
				success: false,
				available: false,
				error: { code, message: expect.any(String) },
				data: null,
			});
		}
		const { requests, totals } = await service.ledger();
		expect(requests.every((r) => r.outcome === 'refused' && r.creditsCharged === 0)).toBe(true);
		expect(totals).toEqual({ requests: cases.length, creditsCharged: 0 });
	});

	it('accepts a cursor with a differently written but equal query', async () => {
		const first = await search('shortvideo', { q: 'rain', limit: '2' });
		const next = await search('shortvideo', {
			q: '  RAIN ',
			limit: '2',
			cursor: first.body.data.nextCursor,
		});
		expect(next.body.success).toBe(true);
		expect(next.body.data.items[0].title).toMatch(/Rain Sound 3\b/);
	});
});

describe('cache', () => {
	it('repeats an identical request for free, whatever the key, until reset', async () => {
		const fresh = await search('shortvideo', { q: 'Rain', limit: '5' }, { key: KEY });
		const repeat = await search('shortvideo', { q: '  rain ', limit: '5' }, { key: OTHER_KEY });
		expect(fresh.credits).toBe('1');
		expect(repeat.credits).toBe('0');
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
		expect(repeat.body).toMatchObject({
			available: false,
			availabilityStatus: 'private',
			data: { cached: true },
		});
	});

	it('charges again once the window has passed', async () => {
		await withReferenceService({ cacheSeconds: 1 }, async (short) => {
			const headers = { Authorization: `Bearer ${short.keys[0]}` };
			const url = `${short.url}/v1/shortvideo/sound/search?q=rain`;
			const credits = async () => (await fetch(url, { headers })).headers.get('x-credits-charged');
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
		await search(
			'shortvideo',
			{ q: 'lo fi', limit: '3', cursor: first.body.data.nextCursor },
			{ key: OTHER_KEY },
		);
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
				cursor: first.body.data.nextCursor,
				authorization: `Bearer ${OTHER_KEY}`,
				outcome: 'ok',
			}),
		]);
		expect(totals).toEqual({ requests: 2, creditsCharged: 2 });
	});
});

describe('injected faults', () => {
	it('serves a fault once, then normal answers resume', async () => {
		await service.injectFaults([
			{
				match: { platform: 'shortvideo', query: 'Rain' },
				response: { status: 503, body: { success: false, error: { code: 'upstream_timeout' } } },
			},
		]);
		const faulted = await search('shortvideo', { q: 'rain' });
		expect(faulted.status).toBe(503);
		expect(faulted.credits).toBe('0');
		expect(faulted.body).toEqual({ success: false, error: { code: 'upstream_timeout' } });
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
		await service.injectFaults([
			{
				response: {
					status: 429,
					headers: { 'Retry-After': '2' },
					body: '<html>slow down</html>',
					creditsCharged: null,
				},
			},
		]);
		const answer = await search('shortvideo', { q: 'rain' });
		expect(answer.status).toBe(429);
		expect(answer.text).toBe('<html>slow down</html>');
		expect(answer.headers.get('retry-after')).toBe('2');
		expect(answer.headers.has('x-credits-charged')).toBe(false);
	});

	it('applies from the nth matching request, as many times as asked', async () => {
		await service.injectFaults([
			{
				match: { query: 'storm', cursor: 'none', nth: 2 },
				times: 'always',
				response: { status: 502 },
			},
		]);
		const statuses = [];
		for (let i = 0; i < 3; i++)
			statuses.push((await search('shortvideo', { q: 'storm', limit: String(i + 1) })).status);
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
		const health = await fetch(`${service.url}/healthz`);
		expect(await health.json()).toEqual({ ok: true });
		const missing = await fetch(`${service.url}/v1/videos/sound/search`);
		expect(missing.status).toBe(404);
		expect((await missing.json()).error.code).toBe('not_found');
		const post = await fetch(`${service.url}/v1/shortvideo/sound/search?q=rain`, {
			method: 'POST',
		});
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
			socket.once('connect', () => {
				socket.destroy();
				resolve('connected');
			});
			socket.once('timeout', () => {
				socket.destroy();
				resolve('timeout');
			});
			socket.once('error', (error) => resolve(error.code));
		});

	it('binds 127.0.0.1 only', async () => {
		const { hostname, port } = new URL(service.url);
		expect(hostname).toBe('127.0.0.1');
		expect(await tryConnect('127.0.0.1', Number(port))).toBe('connected');
		const elsewhere = Object.values(os.networkInterfaces())
			.flat()
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
		expect(() => process.kill(started.pid, 0)).not.toThrow();
		expect(await started.stop()).toEqual({ code: 0, signal: null });
		expect(() => process.kill(started.pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));

		let pid;
		await expect(
			withReferenceService({}, async (svc) => {
				pid = svc.pid;
				throw new Error('test body failed');
			}),
		).rejects.toThrow('test body failed');
		expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
	});

	it('exits by itself when its --parent-pid is gone', async () => {
		const { spawn } = require('node:child_process');
		const parent = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 300)']);
		const parentGone = new Promise((resolve) => parent.once('exit', resolve));
		const orphan = await startReferenceService({ args: ['--parent-pid', String(parent.pid)] });
		await parentGone;
		const deadline = Date.now() + 5000;
		let alive = true;
		while (alive && Date.now() < deadline) {
			await sleep(100);
			try {
				process.kill(orphan.pid, 0);
			} catch {
				alive = false;
			}
		}
		expect(alive).toBe(false);
		expect(await orphan.stop()).toEqual({ code: 0, signal: null });
	});

	it('logs each request without the key when not quiet', async () => {
		await withReferenceService({ quiet: false, keys: ['log-secret-key'] }, async (svc) => {
			await fetch(`${svc.url}/v1/photosocial/sound/search?q=rain`, {
				headers: { Authorization: 'Bearer log-secret-key' },
			});
			await sleep(100);
			expect(svc.stderr()).toContain('GET /v1/photosocial/sound/search 200 credits=2');
			expect(svc.stderr()).not.toContain('log-secret-key');
		});
	});

	it('reads port and keys from the environment when no flag is given', () => {
		const env = { SOUND_SEARCH_SANDBOX_PORT: '4321', SOUND_SEARCH_SANDBOX_KEYS: 'x, y' };
		expect(readSettings([], env)).toMatchObject({
			port: 4321,
			keys: ['x', 'y'],
			host: '127.0.0.1',
		});
		expect(readSettings(['--port', '0', '--keys', 'z'], env)).toMatchObject({
			port: 0,
			keys: ['z'],
		});
		expect(() => readSettings(['--max-page-size', '0'], {})).toThrow(/max-page-size/);
	});
});
