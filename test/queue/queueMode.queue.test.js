'use strict';

// The package in n8n's queue mode: one n8n main (webhooks, schedule triggers), Redis, three
// workers (each with its own user folder and the packed package installed in it, as on separate
// machines) and a shared PostgreSQL, all of the pinned n8n, on 127.0.0.1 (test/harness/queueStack.js).
// Searches go to the reference service (reference-service/) through a proxy that adds latency to every
// answer, so that executions are still running when a worker is stopped or killed.
//
// One environment for the whole file, in this order:
//   1. a burst of 48 concurrent webhook executions (4 shapes x 2 platforms, 3 of 4 shapes over
//      several pages): exact items and credits in every response, exactly one service request per
//      expected page, executions spread over the workers;
//   2. the scheduled trend-collection example (examples/), triggered by the main's scheduler and
//      run on a worker, writing its CSV;
//   3. worker-3 stopped with SIGTERM mid-burst: its running executions finish, nothing is lost;
//   4. worker-2 killed with SIGKILL mid-burst: what n8n does with its running executions (it does
//      not run them again) and what the node guarantees (no call is ever made twice).
// Every test prints its figures (executions, requests the service saw, per-worker counts).

const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const {
	ensureQueuePrerequisitesSync,
	startQueueStack,
	startDelayProxy,
} = require('../harness/queueStack');
const n8n = require('../harness/n8n');
const { startReferenceService } = require('../harness/referenceService');
const { packageTarball, REPO_ROOT } = require('../harness/packageTarball');
const { readPage, normalizeQuery, overrideKey } = require('../../reference-service/catalogue');

const PRICE = /** @type {Record<string, number>} */ ({ shortvideo: 1, photosocial: 2 });
const SERVICE_KEY = 'queue-mode-test-key';
const CREDENTIAL = {
	id: 'queueSearchCred1',
	name: 'Sound Search (queue test)',
	type: 'soundSearchApi',
};
// The credential the examples refer to (examples/*.json: id soundSearchDemo).
const DEMO_CREDENTIAL = {
	id: 'soundSearchDemo',
	name: 'Sound Search account',
	type: 'soundSearchApi',
};
const EXAMPLE_FILE = path.join(REPO_ROOT, 'examples', 'scheduled-trend-collection.json');
const NODE_TYPE = 'n8n-nodes-sound-search.soundSearch';
const WORKERS = 3;
const CONCURRENCY = 5;
// Bull's job lock: how soon the jobs of a killed worker are declared stalled (n8n's defaults are
// 60 s / 10 s / 30 s; shortened so the SIGKILL test ends in well under a minute).
const STALL = { lockDurationMs: 15_000, lockRenewMs: 3_000, stalledIntervalMs: 5_000 };
const RESPONSE_TIMEOUT_MS = 240_000;

/**
 * Prints a figure of the run, plainly (not through jest's console, which adds a stack location).
 * @param {string} line
 */
const report = (line) => process.stdout.write(`[queue] ${line}\n`);

// Decided at load time: the suite runs wherever Redis and PostgreSQL are or can be installed.
const prerequisites = ensureQueuePrerequisitesSync();
const skipReason = prerequisites.available
	? ''
	: `queue-mode suite skipped: Redis or PostgreSQL cannot be installed on this machine (${prerequisites.reason})`;
if (skipReason) process.stderr.write(`[queue] ${skipReason}\n`);

/**
 * @typedef {object} SearchCase
 * @property {string} keyword
 * @property {'shortvideo' | 'photosocial'} platform
 * @property {boolean} returnAll
 * @property {number} [limit] when not returnAll
 * @property {number} pageSize
 * @property {number} total what the catalogue holds for the keyword (set per test)
 */

// The shapes of a burst: Return All over 3 pages (two ways), Limit in one page, Limit over 3 pages.
const SHAPES = [
	{ returnAll: true, total: 120, pageSize: 50 }, // 50 + 50 + 20
	{ returnAll: true, total: 45, pageSize: 20 }, // 20 + 20 + 5
	{ returnAll: false, limit: 30, pageSize: 50, total: 200 }, // 30
	{ returnAll: false, limit: 70, pageSize: 25, total: 200 }, // 25 + 25 + 20
];

/**
 * @param {string} prefix keywords are `<prefix> 01`, `<prefix> 02`, ...
 * @param {number} count
 * @returns {SearchCase[]}
 */
function makeCases(prefix, count) {
	return Array.from({ length: count }, (_, i) => ({
		keyword: `${prefix} ${String(i + 1).padStart(2, '0')}`,
		platform: Math.floor(i / SHAPES.length) % 2 === 0 ? 'shortvideo' : 'photosocial',
		...SHAPES[i % SHAPES.length],
	}));
}

/**
 * The calls the node must make for a case: the limit it asks for and the sounds it gets, page by page.
 * @param {SearchCase} c
 * @returns {Array<{ limit: number, items: number }>}
 */
function expectedPages(c) {
	const want = c.returnAll ? Infinity : /** @type {number} */ (c.limit);
	const pages = [];
	let got = 0;
	for (let guard = 0; guard < 1000; guard++) {
		const limit = Math.min(c.pageSize, want - got);
		const items = Math.max(0, Math.min(limit, c.total - got));
		pages.push({ limit, items });
		got += items;
		if (got >= c.total || got >= want) break;
	}
	return pages;
}

/**
 * The sounds a case must return, with the page each comes from, read from the reference
 * service's own catalogue code.
 * @param {SearchCase} c
 */
function expectedItems(c) {
	const query = normalizeQuery(c.keyword);
	const pages = expectedPages(c);
	const count = pages.reduce((sum, p) => sum + p.items, 0);
	const overrides = new Map([
		[overrideKey(c.platform, query), { total: c.total, availabilityStatus: null }],
	]);
	const { items } = readPage({
		platform: c.platform,
		query,
		offset: 0,
		limit: count,
		readingMs: Date.now(),
		overrides,
	});
	/** @type {number[]} */
	const pageOf = pages.flatMap((p, index) => Array(p.items).fill(index + 1));
	return items.map((/** @type {any} */ item, i) => ({
		soundId: item.soundId,
		title: item.title,
		authorName: item.authorName,
		durationSeconds: item.durationSeconds,
		page: pageOf[i],
		creditsCharged: PRICE[c.platform],
	}));
}

/**
 * What is wrong with one webhook answer (empty when it is exactly right).
 * @param {SearchCase} c
 * @param {{ status: number, items: any }} answer
 * @returns {string[]}
 */
function checkAnswer(c, answer) {
	const where = `${c.platform} "${c.keyword}"`;
	if (answer.status !== 200)
		return [`${where}: HTTP ${answer.status} ${JSON.stringify(answer.items).slice(0, 300)}`];
	if (!Array.isArray(answer.items))
		return [`${where}: not a JSON array: ${JSON.stringify(answer.items).slice(0, 300)}`];
	const expected = expectedItems(c);
	const problems = [];
	if (answer.items.length !== expected.length)
		problems.push(`${where}: ${answer.items.length} items, expected ${expected.length}`);
	expected.forEach((want, i) => {
		const got = answer.items[i] ?? {};
		for (const [key, value] of Object.entries(want)) {
			if (got[key] !== value)
				problems.push(
					`${where} item ${i}: ${key} = ${JSON.stringify(got[key])}, expected ${JSON.stringify(value)}`,
				);
		}
	});
	return problems.slice(0, 10);
}

/**
 * Ledger records of a case, in the order the service received them.
 * @param {any[]} ledger
 * @param {SearchCase} c
 */
function recordsOf(ledger, c) {
	const query = normalizeQuery(c.keyword);
	return ledger
		.filter((r) => r.platform === c.platform && r.query === query)
		.sort((a, b) => a.seq - b.seq);
}

/**
 * What is wrong with the service's ledger for cases that must have run completely: exactly one
 * charged request per expected page, with the expected limits and sizes.
 * @param {SearchCase[]} cases
 * @param {any[]} ledger
 * @returns {string[]}
 */
function checkLedger(cases, ledger) {
	const problems = [];
	for (const c of cases) {
		const records = recordsOf(ledger, c);
		const pages = expectedPages(c);
		const where = `${c.platform} "${c.keyword}"`;
		if (records.length !== pages.length) {
			problems.push(
				`${where}: the service saw ${records.length} requests, expected ${pages.length} (one per page)`,
			);
			continue;
		}
		records.forEach((r, i) => {
			const bad = [];
			if (Number(r.limit) !== pages[i].limit)
				bad.push(`limit ${r.limit} (expected ${pages[i].limit})`);
			if (r.itemCount !== pages[i].items)
				bad.push(`${r.itemCount} items (expected ${pages[i].items})`);
			if (r.outcome !== 'ok' || r.status !== 200) bad.push(`outcome ${r.outcome} / ${r.status}`);
			if (r.creditsCharged !== PRICE[c.platform])
				bad.push(`${r.creditsCharged} credits (expected ${PRICE[c.platform]})`);
			if ((i === 0) !== !r.cursor)
				bad.push(i === 0 ? 'a cursor on the first page' : 'no cursor after the first page');
			if (r.authorization !== `Bearer ${SERVICE_KEY}`) bad.push("not the credential's key");
			if (bad.length > 0) problems.push(`${where} page ${i + 1}: ${bad.join(', ')}`);
		});
	}
	return problems;
}

/**
 * Requests the service saw more than once (same platform, query, limit and cursor): a call paid twice.
 * @param {any[]} ledger
 * @returns {string[]}
 */
function duplicateRequests(ledger) {
	/** @type {Map<string, number>} */
	const seen = new Map();
	for (const r of ledger) {
		const key = `${r.platform}|${r.query}|${r.limit}|${r.cursor ?? ''}`;
		seen.set(key, (seen.get(key) ?? 0) + 1);
	}
	return [...seen].filter(([, n]) => n > 1).map(([key, n]) => `${key} x${n}`);
}

/**
 * @param {any[]} records
 */
const credits = (records) => records.reduce((sum, r) => sum + (r.creditsCharged ?? 0), 0);

/**
 * Respond to Webhook with all the items and the execution id as a header (the answer is relayed
 * from the worker that ran the execution).
 * @param {string} id
 * @param {number} x
 */
function respondNode(id, x) {
	return {
		id,
		name: 'Respond',
		type: 'n8n-nodes-base.respondToWebhook',
		typeVersion: 1.5,
		position: [x, 0],
		parameters: {
			respondWith: 'allIncomingItems',
			options: {
				responseHeaders: { entries: [{ name: 'x-execution-id', value: '={{ $execution.id }}' }] },
			},
		},
	};
}

/**
 * A webhook workflow: Webhook (POST /webhook/<path>) -> Sound Search (platform, keyword, page size
 * and limit from the request body) -> Respond to Webhook with all the items and the execution id
 * as a header. The answer is relayed from the worker that ran the execution.
 * @param {string} id
 * @param {string} webhookPath
 * @param {boolean} returnAll
 */
function searchWorkflow(id, webhookPath, returnAll) {
	const n = returnAll ? '1' : '2';
	/** @type {Record<string, unknown>} */
	const search = {
		resource: 'sound',
		operation: 'search',
		platform: '={{ $json.body.platform }}',
		query: '={{ $json.body.keyword }}',
		returnAll,
		options: { pageSize: '={{ $json.body.pageSize }}' },
	};
	if (!returnAll) search.limit = '={{ $json.body.limit }}';
	return {
		id,
		name: `Queue test: search by webhook (${returnAll ? 'Return All' : 'Limit'})`,
		nodes: [
			{
				id: `6f1c0a6e-0000-4000-8000-00000000010${n}`,
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2.1,
				position: [0, 0],
				webhookId: `6f1c0a6e-0000-4000-8000-00000000020${n}`,
				parameters: {
					httpMethod: 'POST',
					path: webhookPath,
					responseMode: 'responseNode',
					options: {},
				},
			},
			{
				id: `6f1c0a6e-0000-4000-8000-00000000030${n}`,
				name: 'Sound Search',
				type: NODE_TYPE,
				typeVersion: 1,
				position: [220, 0],
				parameters: search,
				credentials: { soundSearchApi: { id: CREDENTIAL.id, name: CREDENTIAL.name } },
			},
			respondNode(`6f1c0a6e-0000-4000-8000-00000000040${n}`, 440),
		],
		connections: {
			Webhook: { main: [[{ node: 'Sound Search', type: 'main', index: 0 }]] },
			'Sound Search': { main: [[{ node: 'Respond', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

/**
 * Webhook with `{ keywords: [...] }` -> one item per keyword -> Sound Search (2 sounds each) ->
 * all items back to the caller: a spreadsheet-sized keyword list in one execution.
 */
function keywordListWorkflow() {
	const node = (/** @type {number} */ n, /** @type {object} */ fields) => ({
		id: `6f1c0a6e-0000-4000-8000-00000000050${n}`,
		position: [n * 220, 0],
		...fields,
	});
	return {
		id: 'QueueKeywordLst1',
		name: 'Queue test: a keyword list in one execution',
		nodes: [
			node(1, {
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2.1,
				webhookId: '6f1c0a6e-0000-4000-8000-000000000600',
				parameters: {
					httpMethod: 'POST',
					path: 'queue-keyword-list',
					responseMode: 'responseNode',
					options: {},
				},
			}),
			node(2, {
				name: 'Keywords',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				parameters: {
					jsCode: 'return $json.body.keywords.map((keyword) => ({ json: { keyword } }));',
				},
			}),
			node(3, {
				name: 'Sound Search',
				type: NODE_TYPE,
				typeVersion: 1,
				parameters: {
					resource: 'sound',
					operation: 'search',
					query: '={{ $json.keyword }}',
					limit: 2,
				},
				credentials: { soundSearchApi: { id: CREDENTIAL.id, name: CREDENTIAL.name } },
			}),
			respondNode('6f1c0a6e-0000-4000-8000-000000000504', 880),
		],
		connections: {
			Webhook: { main: [[{ node: 'Keywords', type: 'main', index: 0 }]] },
			Keywords: { main: [[{ node: 'Sound Search', type: 'main', index: 0 }]] },
			'Sound Search': { main: [[{ node: 'Respond', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

const WORKFLOW_ALL = searchWorkflow('QueueSearchAll01', 'queue-search-all', true);
const WORKFLOW_LIMIT = searchWorkflow('QueueSearchLim01', 'queue-search-limit', false);
const WORKFLOW_KEYWORDS = keywordListWorkflow();
const SCHEDULED_ID = 'QueueTrendSched1';

/**
 * The scheduled example as a user would publish it on a queue-mode instance, with its two
 * settings adapted to this test: the schedule fires every 10 seconds instead of daily, and the
 * CSV goes to the folder the workers may write to.
 * @param {string} outputFolder
 */
function scheduledExample(outputFolder) {
	const workflow = JSON.parse(fs.readFileSync(EXAMPLE_FILE, 'utf8'));
	const trigger = workflow.nodes.find(
		(/** @type {any} */ n) => n.type === 'n8n-nodes-base.scheduleTrigger',
	);
	const settings = workflow.nodes.find((/** @type {any} */ n) =>
		n.parameters?.assignments?.assignments?.some(
			(/** @type {any} */ a) => a.name === 'outputFolder',
		),
	);
	const search = workflow.nodes.find((/** @type {any} */ n) => n.type === NODE_TYPE);
	if (!trigger || !settings || !search) {
		throw new Error(
			`${EXAMPLE_FILE}: expected a Schedule Trigger, a Set node with "outputFolder" and a Sound Search node`,
		);
	}
	trigger.parameters = { rule: { interval: [{ field: 'seconds', secondsInterval: 10 }] } };
	/** @type {Record<string, any>} */
	const values = {};
	for (const assignment of settings.parameters.assignments.assignments) {
		if (assignment.name === 'outputFolder') assignment.value = outputFolder;
		values[assignment.name] = assignment.value;
	}
	return { workflow: { ...workflow, id: SCHEDULED_ID }, values, searchNode: search };
}

/** @param {string} text comma-separated list, as the example's Settings node holds it */
const list = (text) =>
	String(text)
		.split(',')
		.map((part) => part.trim())
		.filter(Boolean);

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The promise's value, or undefined after ms (the timer does not keep the process alive).
 * @template T
 * @param {Promise<T>} promise
 * @param {number} ms
 * @returns {Promise<T | undefined>}
 */
function within(promise, ms) {
	/** @type {NodeJS.Timeout | undefined} */
	let timer;
	const timeout = new Promise((resolve) => {
		timer = setTimeout(() => resolve(undefined), ms);
	});
	return Promise.race([promise, /** @type {Promise<undefined>} */ (timeout)]).finally(() =>
		clearTimeout(timer),
	);
}

/**
 * @param {() => boolean | Promise<boolean>} condition
 * @param {number} timeoutMs
 * @param {number} [intervalMs]
 * @returns {Promise<boolean>} whether it became true in time
 */
async function waitFor(condition, timeoutMs, intervalMs = 100) {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (await condition()) return true;
		await sleep(intervalMs);
	}
	return condition();
}

(skipReason && !process.env.CI ? describe.skip : describe)(
	'the package in n8n queue mode (main + Redis + workers + PostgreSQL)',
	() => {
		/** @type {import('../harness/queueStack').QueueStack} */
		let stack;
		/** @type {Awaited<ReturnType<typeof startReferenceService>>} */
		let service;
		/** @type {import('../harness/queueStack').DelayProxy} */
		let proxy;
		const suiteStart = Date.now();

		/**
		 * Fires one webhook call per case, all at once.
		 * @param {SearchCase[]} cases
		 * @returns {Promise<Array<{ c: SearchCase, status: number, executionId: string | null, items: any, ms: number }>>}
		 */
		function burst(cases) {
			return Promise.all(
				cases.map(async (c) => {
					const t0 = Date.now();
					const webhookPath = c.returnAll ? 'queue-search-all' : 'queue-search-limit';
					try {
						const response = await fetch(`${stack.main?.url}/webhook/${webhookPath}`, {
							method: 'POST',
							headers: { 'content-type': 'application/json' },
							body: JSON.stringify({
								keyword: c.keyword,
								platform: c.platform,
								pageSize: c.pageSize,
								limit: c.limit,
							}),
							signal: AbortSignal.timeout(RESPONSE_TIMEOUT_MS),
						});
						const text = await response.text();
						let items;
						try {
							items = JSON.parse(text);
						} catch {
							items = text;
						}
						return {
							c,
							status: response.status,
							executionId: response.headers.get('x-execution-id'),
							items,
							ms: Date.now() - t0,
						};
					} catch (error) {
						return { c, status: 0, executionId: null, items: String(error), ms: Date.now() - t0 };
					}
				}),
			);
		}

		/** @param {SearchCase[]} cases */
		async function setCatalogue(cases) {
			for (const c of cases)
				await service.setCatalogue({ query: c.keyword, total: c.total, platform: c.platform });
		}

		/**
		 * How long the longest-running execution of a worker has been running (0 if none).
		 * @param {import('../harness/queueStack').N8nProcess} worker
		 */
		function longestRunningMs(worker) {
			const running = new Set(runningOn(worker));
			const starts = worker.events
				.filter((e) => e.kind === 'worker-started' && running.has(e.executionId))
				.map((e) => e.at);
			return starts.length === 0 ? 0 : Date.now() - Math.min(...starts);
		}

		/** Ids of the executions the main has put on the queue so far. */
		function enqueuedIds() {
			return new Set(
				(stack.main?.events ?? []).filter((e) => e.kind === 'enqueued').map((e) => e.executionId),
			);
		}

		/**
		 * Executions a worker has started and not finished, per its own log.
		 * @param {import('../harness/queueStack').N8nProcess} worker
		 */
		function runningOn(worker) {
			const finished = new Set(
				worker.events.filter((e) => e.kind === 'worker-finished').map((e) => e.executionId),
			);
			return worker.events
				.filter((e) => e.kind === 'worker-started' && !finished.has(e.executionId))
				.map((e) => e.executionId);
		}

		beforeAll(async () => {
			if (skipReason) throw new Error(skipReason); // only reached in CI, where a skip would hide it
			const tarball = packageTarball();
			const files = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).stdout;
			for (const file of [
				'package/dist/nodes/SoundSearch/SoundSearch.node.js',
				'package/dist/credentials/SoundSearchApi.credentials.js',
			]) {
				if (!files.includes(file))
					throw new Error(`${tarball} lacks ${file} (was dist rebuilt while it was packed?)`);
			}
			service = await startReferenceService({ keys: [SERVICE_KEY], cacheSeconds: 0 });
			proxy = await startDelayProxy(service.url, { delayMs: 100 });
			report(
				`Redis ${prerequisites.redisVersion}, PostgreSQL ${prerequisites.pgVersion}; starting main + ${WORKERS} workers (concurrency ${CONCURRENCY} each)`,
			);
			stack = await startQueueStack({
				packageTarball: tarball,
				workers: WORKERS,
				concurrency: CONCURRENCY,
				stall: STALL,
				credentials: [CREDENTIAL, DEMO_CREDENTIAL].map((c) => ({
					...c,
					data: { apiKey: SERVICE_KEY, baseUrl: proxy.url },
				})),
				workflows: [WORKFLOW_ALL, WORKFLOW_LIMIT, WORKFLOW_KEYWORDS],
				log: (line) => report(`stack: ${line}`),
			});
			await stack.activateWorkflow(WORKFLOW_ALL.id);
			await stack.activateWorkflow(WORKFLOW_LIMIT.id);
			await stack.activateWorkflow(WORKFLOW_KEYWORDS.id);
			const waited = [
				await stack.waitForWebhook('queue-search-all'),
				await stack.waitForWebhook('queue-search-limit'),
				await stack.waitForWebhook('queue-keyword-list'),
			];
			report(`webhooks registered ${waited.join(' ms, ')} ms after publishing`);
			const w = stack.workers
				.map((x) => `${x.name} pid ${x.pid} host ${x.hostName ?? '(shared)'}`)
				.join('; ');
			report(
				`environment ready in ${((Date.now() - suiteStart) / 1000).toFixed(1)} s: redis pid ${stack.redis?.pid}, postgres pid ${stack.postgres?.pid}, main pid ${stack.main?.pid}; ${w}`,
			);
		}, 420_000);

		afterAll(async () => {
			const t0 = Date.now();
			await stack?.stop();
			await proxy?.stop();
			await service?.stop();
			if (stack) {
				const leftovers = Object.values(stack.pids().supervisors).filter((pid) => {
					try {
						process.kill(pid, 0);
						return true;
					} catch {
						return false;
					}
				});
				report(
					`teardown by pid in ${((Date.now() - t0) / 1000).toFixed(1)} s; processes left: ${leftovers.length}; suite wall time ${((Date.now() - suiteStart) / 1000).toFixed(1)} s`,
				);
			}
		}, 120_000);

		test('a burst of 48 concurrent webhook executions: exact items and credits, one request per page, spread over the workers', async () => {
			const cases = makeCases('queue burst', 48);
			await service.reset();
			await setCatalogue(cases);
			const t0 = Date.now();
			const answers = await burst(cases);
			const wallMs = Date.now() - t0;
			const { requests: ledger } = await service.ledger();

			const problems = answers.flatMap((a) => checkAnswer(a.c, a));
			const ledgerProblems = checkLedger(cases, ledger);
			const executionIds = answers.map((a) => a.executionId).filter((id) => id !== null);
			await waitFor(() => executionIds.every((id) => stack.mainFinished().has(String(id))), 10_000);
			const perWorker = stack.countByWorker(executionIds);
			const expectedRequests = cases.reduce((sum, c) => sum + expectedPages(c).length, 0);
			const expectedCredits = cases.reduce(
				(sum, c) => sum + expectedPages(c).length * PRICE[c.platform],
				0,
			);
			const items = answers.reduce(
				(sum, a) => sum + (Array.isArray(a.items) ? a.items.length : 0),
				0,
			);
			const multiPage = cases.filter((c) => expectedPages(c).length > 1).length;

			report(
				`burst: ${cases.length} executions (${cases.filter((c) => c.platform === 'shortvideo').length} shortvideo, ${cases.filter((c) => c.platform === 'photosocial').length} photosocial; ${cases.filter((c) => c.returnAll).length} Return All, ${multiPage} over several pages) in ${(wallMs / 1000).toFixed(1)} s`,
			);
			report(
				`burst: responses 200: ${answers.filter((a) => a.status === 200).length}/${cases.length}; items ${items}; slowest ${Math.max(...answers.map((a) => a.ms))} ms`,
			);
			report(
				`burst: requests seen by the service ${ledger.length} (expected ${expectedRequests}), credits ${credits(ledger)} (expected ${expectedCredits}), duplicates ${duplicateRequests(ledger).length}, most in flight at once ${proxy.stats().maxInFlight}`,
			);
			report(
				`burst: executions per worker ${JSON.stringify(perWorker)}; worker ids reported to the main ${JSON.stringify(stack.workerIds())}`,
			);

			expect(problems).toEqual([]);
			expect(ledgerProblems).toEqual([]);
			expect(ledger).toHaveLength(expectedRequests);
			expect(credits(ledger)).toBe(expectedCredits);
			expect(duplicateRequests(ledger)).toEqual([]);
			expect(new Set(executionIds).size).toBe(cases.length);
			expect(perWorker['(no worker)'] ?? 0).toBe(0);
			expect(Object.values(perWorker).filter((n) => n > 0).length).toBeGreaterThan(1);
			// The main's view agrees: every execution finished on the worker whose log started it.
			const finished = stack.mainFinished();
			const ids = stack.workerIds();
			for (const id of executionIds) {
				const worker = /** @type {string} */ (stack.workerOf(String(id)));
				expect(finished.get(String(id))?.success).toBe(true);
				expect(ids[worker]).toEqual([finished.get(String(id))?.workerId]);
			}
		});

		test('500 keywords in one execution on a worker, against a service capped at 4 calls in flight', async () => {
			await service.reset();
			await service.setCapacity({ capacity: 4, latencyMs: 30 });
			const keywords = Array.from({ length: 500 }, (_, index) => `queue keyword ${index}`);
			const t0 = Date.now();
			const response = await fetch(`${stack.main?.url}/webhook/queue-keyword-list`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ keywords }),
				signal: AbortSignal.timeout(RESPONSE_TIMEOUT_MS),
			});
			const items = await response.json();
			const executionId = String(response.headers.get('x-execution-id'));
			const { requests: ledger, capacity } = await service.ledger();
			const paid = ledger.filter((/** @type {any} */ r) => r.status === 200);
			const refused = ledger.filter((/** @type {any} */ r) => r.status === 429);
			await waitFor(() => stack.mainFinished().has(executionId), 10_000);
			report(
				`keyword list: 500 keywords in ${((Date.now() - t0) / 1000).toFixed(1)} s on ${stack.workerOf(executionId)}; ${ledger.length} requests, ${refused.length} answered 429 (free), most in flight at the service ${capacity.mostInFlight}, credits ${credits(ledger)}`,
			);

			expect(response.status).toBe(200);
			expect(items).toHaveLength(1000);
			expect(stack.workerOf(executionId)).toMatch(/worker/);
			expect(paid.map((/** @type {any} */ r) => r.q).sort()).toEqual([...keywords].sort());
			expect(duplicateRequests(paid)).toEqual([]);
			expect(refused.every((/** @type {any} */ r) => r.creditsCharged === 0)).toBe(true);
			expect(credits(ledger)).toBe(500);
		});

		test('the Sound Search Trigger polls on the main, its executions run on workers, each new sound once', async () => {
			await service.reset();
			const id = 'QueueTrendTrig01';
			await stack.createWorkflow({
				id,
				name: 'Queue test: new sounds trigger',
				nodes: [
					{
						id: '6f1c0a6e-0000-4000-8000-000000000701',
						name: 'Sound Trends',
						type: 'n8n-nodes-sound-search.soundSearchTrigger',
						typeVersion: 1,
						position: [0, 0],
						parameters: {
							pollTimes: { item: [{ mode: 'everyHour' }] },
							keywords: 'queue trend',
							limit: 10,
							options: { minPollInterval: 0 }, // polled again at once below
						},
						credentials: { soundSearchApi: { id: CREDENTIAL.id, name: CREDENTIAL.name } },
					},
				],
				connections: {},
				settings: { executionOrder: 'v1' },
			});
			try {
				await stack.activateWorkflow(id); // n8n polls at once, on the main: the baseline
				await sleep(2000);
				expect(await stack.executionsOf(id)).toEqual([]);
				await service.passTime({ newSounds: { 'queue trend': 3 } });
				const answer = await fetch(
					`${service.url}/v1/shortvideo/sound/search?q=queue+trend&limit=3`,
					{
						headers: { Authorization: `Bearer ${SERVICE_KEY}` },
					},
				);
				const expected = (await answer.json()).data.items.map((/** @type {any} */ s) => s.soundId);
				await stack.deactivateWorkflow(id);
				await stack.activateWorkflow(id); // polls again at once
				await waitFor(async () => (await stack.executionsOf(id)).length > 0, 20_000);
				const [summary] = await stack.executionsOf(id);
				const execution = await stack.waitForExecutionEnd(summary.id, 30_000);
				await waitFor(() => stack.workerOf(summary.id) !== undefined, 10_000);
				const items = n8n.nodeOutputItems(
					{ data: n8n.parseExecutionData(execution.data) },
					'Sound Trends',
				);
				report(
					`trigger: the main polled, ${stack.workerOf(summary.id)} ran execution ${summary.id} (${execution.mode}, ${execution.status}) with ${items.length} new sounds`,
				);

				expect(execution).toMatchObject({ mode: 'trigger', status: 'success' });
				expect(stack.workerOf(summary.id)).toMatch(/^worker-/);
				expect(items.map((/** @type {any} */ item) => item.soundId)).toEqual(expected);
				await stack.deactivateWorkflow(id);
				await stack.activateWorkflow(id);
				await sleep(3000);
				expect(await stack.executionsOf(id)).toHaveLength(1);
			} finally {
				await stack.deactivateWorkflow(id);
			}
		});

		test('the scheduled trend-collection example runs on a worker and writes its CSV', async () => {
			if (!fs.existsSync(EXAMPLE_FILE)) throw new Error(`${EXAMPLE_FILE} is missing`);
			const { workflow, values, searchNode } = scheduledExample(stack.filesDir);
			const keywords = list(values.keywords);
			const platforms = list(values.platforms);
			const perSearch = Number(values.soundsPerSearch);
			const pageSize = Number(searchNode.parameters?.options?.pageSize ?? 50);
			const pagesPerSearch = Math.ceil(perSearch / pageSize);
			await service.reset();
			for (const keyword of keywords) await service.setCatalogue({ query: keyword, total: 200 });

			await stack.createWorkflow(workflow);
			const activatedAt = Date.now();
			await stack.activateWorkflow(SCHEDULED_ID);
			/** @type {any[]} */
			let executions = [];
			const fired = await waitFor(
				async () => {
					executions = await stack.executionsOf(SCHEDULED_ID);
					return executions.length > 0;
				},
				60_000,
				500,
			);
			await stack.deactivateWorkflow(SCHEDULED_ID);
			expect(fired).toBe(true);
			// A second run may have fired between the first one and the deactivation: count them all.
			await sleep(1_000);
			executions = await stack.executionsOf(SCHEDULED_ID);
			const ended = await Promise.all(
				executions.map((e) => stack.waitForExecutionEnd(String(e.id), 120_000)),
			);
			const runs = ended.length;
			const { requests: ledger } = await service.ledger();
			const files = fs
				.readdirSync(stack.filesDir)
				.filter((f) => /^sound-trends-\d{4}-\d{2}-\d{2}\.csv$/.test(f));
			const csv =
				files.length === 1 ? fs.readFileSync(path.join(stack.filesDir, files[0]), 'utf8') : '';
			const lines = csv.split(/\r?\n/).filter((line) => line.length > 0);
			const ranOn = ended.map((e) => stack.workerOf(String(e?.id)));
			const expectedRequests = keywords.length * platforms.length * pagesPerSearch;
			const expectedCredits =
				keywords.length * platforms.reduce((sum, p) => sum + PRICE[p] * pagesPerSearch, 0);

			const firstStart = Math.min(
				...ended.map((e) => Date.parse(e?.startedAt ?? '')).filter((t) => !Number.isNaN(t)),
			);
			report(
				`schedule: published, first run started ${((firstStart - activatedAt) / 1000).toFixed(1)} s later (every 10 s); runs before unpublishing ${runs}, statuses ${JSON.stringify(ended.map((e) => `${e?.mode}/${e?.status}`))}, ran on ${JSON.stringify(ranOn)}`,
			);
			report(
				`schedule: requests seen ${ledger.length} (expected ${expectedRequests} per run), credits ${credits(ledger)} (expected ${expectedCredits} per run); CSV ${files.join(', ') || '(none)'} with ${Math.max(0, lines.length - 1)} rows (expected ${keywords.length * platforms.length * perSearch})`,
			);

			for (const execution of ended) {
				expect(execution?.mode).toBe('trigger');
				expect(execution?.status).toBe('success');
				expect(stack.workerOf(String(execution?.id))).toMatch(/^worker-/);
				expect(
					stack.main?.events.some(
						(e) => e.kind === 'enqueued' && e.executionId === String(execution?.id),
					),
				).toBe(true);
			}
			expect(ledger).toHaveLength(expectedRequests * runs);
			expect(credits(ledger)).toBe(expectedCredits * runs);
			expect(files).toHaveLength(1);
			expect(lines).toHaveLength(1 + keywords.length * platforms.length * perSearch);
			for (const column of [
				'soundId',
				'title',
				'audioUrl',
				'platform',
				'query',
				'creditsCharged',
				'page',
			]) {
				expect(lines[0]).toContain(column);
			}
		});

		test('a worker stopped with SIGTERM mid-burst finishes its running executions; nothing is lost', async () => {
			const worker = /** @type {import('../harness/queueStack').N8nProcess} */ (
				stack.workers.find((w) => w.name === 'worker-3')
			);
			const cases = makeCases('queue term', 24);
			await service.reset();
			await setCatalogue(cases);
			proxy.setDelay(700);
			const before = enqueuedIds();
			const t0 = Date.now();
			const pending = burst(cases);
			const caught = await waitFor(() => runningOn(worker).length >= 2, 60_000, 50);
			const inFlight = runningOn(worker);
			await worker.signal('SIGTERM');
			const signalledAt = Date.now();
			const answers = await pending;
			const exit = await within(worker.exited, 60_000);
			proxy.setDelay(100);
			const { requests: ledger } = await service.ledger();
			const burstIds = [...enqueuedIds()].filter((id) => !before.has(id));
			const okIds = answers.filter((a) => a.status === 200).map((a) => String(a.executionId));
			const startedOnWorker = worker.events
				.filter((e) => e.kind === 'worker-started')
				.map((e) => e.executionId);
			const finishedOnWorker = new Set(
				worker.events.filter((e) => e.kind === 'worker-finished').map((e) => e.executionId),
			);
			const burstOnWorker = startedOnWorker.filter((id) => burstIds.includes(id));
			const startedAfterSignal = worker.events
				.filter((e) => e.kind === 'worker-started' && e.at > signalledAt)
				.map((e) => e.executionId);
			const problems = answers.flatMap((a) => checkAnswer(a.c, a));

			report(
				`SIGTERM: ${worker.name} (pid ${worker.pid}) signalled ${((signalledAt - t0) / 1000).toFixed(1)} s into a burst of ${cases.length} executions, running ${inFlight.length} (${JSON.stringify(inFlight)}); it exited ${exit ? `with code ${exit.code}, signal ${exit.signal}` : '(not within 60 s)'} ${((Date.now() - signalledAt) / 1000).toFixed(1)} s after the signal`,
			);
			report(
				`SIGTERM: ${worker.name} ran ${burstOnWorker.length} executions of this burst (${startedAfterSignal.length} logged as started after the signal: jobs it had already taken), finished ${burstOnWorker.filter((id) => finishedOnWorker.has(id)).length} of them`,
			);
			report(
				`SIGTERM: executions enqueued ${burstIds.length}, responses 200 ${okIds.length}/${cases.length}; requests seen ${ledger.length} (expected ${cases.reduce((sum, c) => sum + expectedPages(c).length, 0)}), duplicates ${duplicateRequests(ledger).length}; executions per worker ${JSON.stringify(stack.countByWorker(okIds))}`,
			);

			expect(caught).toBe(true);
			expect(exit?.code).toBe(0);
			// It took nothing new after the signal (what it logged as started afterwards fits in what it
			// held: --concurrency jobs at most), and every execution it had finished on it ...
			expect(startedAfterSignal.length).toBeLessThanOrEqual(CONCURRENCY - inFlight.length);
			for (const id of burstOnWorker) expect(finishedOnWorker.has(id)).toBe(true);
			// ... and every execution of the burst was answered, exactly right, with one call per page.
			expect(burstIds).toHaveLength(cases.length);
			expect(problems).toEqual([]);
			expect(new Set(okIds).size).toBe(cases.length);
			expect(checkLedger(cases, ledger)).toEqual([]);
			expect(duplicateRequests(ledger)).toEqual([]);
		});

		test('a worker killed with SIGKILL mid-burst: its executions fail and are not run again; no call is made twice', async () => {
			const worker = /** @type {import('../harness/queueStack').N8nProcess} */ (
				stack.workers.find((w) => w.name === 'worker-2')
			);
			const survivors = stack.workers.filter((w) => w !== worker && !w.exitStatus());
			expect(survivors.length).toBeGreaterThan(0); // someone must take the queue and notice the stall
			const cases = makeCases('queue kill', 24);
			await service.reset();
			await setCatalogue(cases);
			proxy.setDelay(700);
			proxy.resetStats();
			const before = enqueuedIds();
			const t0 = Date.now();
			const pending = burst(cases);
			// Killed while it runs at least two executions, one of them for long enough (each page
			// takes at least 0.7 s) to be in the middle of its pages: paid calls made, more to come.
			const caught = await waitFor(
				() => runningOn(worker).length >= 2 && longestRunningMs(worker) >= 1_200,
				60_000,
				50,
			);
			const runningAtKill = runningOn(worker);
			const callsInFlight = proxy.stats().inFlight;
			await worker.signal('SIGKILL');
			const killedAt = Date.now();
			const answers = await pending;
			const answeredMs = Date.now() - killedAt;
			proxy.setDelay(100);
			const { requests: ledger } = await service.ledger();

			// Executions of this burst that were not answered: the ones the killed worker held. Bull
			// hands a worker up to --concurrency jobs at once; it had logged some as started, others it
			// had taken but not started yet.
			const burstIds = [...enqueuedIds()].filter((id) => !before.has(id));
			const okAnswers = answers.filter((a) => a.status === 200);
			const failedAnswers = answers.filter((a) => a.status !== 200);
			const okIds = new Set(okAnswers.map((a) => String(a.executionId)));
			const lostIds = burstIds.filter((id) => !okIds.has(id));
			const startedBy = (/** @type {string} */ id) =>
				stack.workers
					.filter((w) => w.events.some((e) => e.kind === 'worker-started' && e.executionId === id))
					.map((w) => w.name);
			const lostStarted = lostIds.filter((id) => startedBy(id).includes(worker.name));
			const reRun = lostIds.filter((id) => startedBy(id).some((name) => name !== worker.name));
			const lostExecutions = await Promise.all(
				lostIds.map((id) => stack.waitForExecutionEnd(id, 60_000)),
			);
			const lostCases = failedAnswers.map((a) => a.c);
			const lostCalls = lostCases.flatMap((c) => recordsOf(ledger, c));
			const lostPages = lostCases.reduce((sum, c) => sum + expectedPages(c).length, 0);

			const endedAfterMs = Math.max(
				...lostExecutions
					.map((e) => Date.parse(e?.stoppedAt ?? '') - killedAt)
					.filter((ms) => !Number.isNaN(ms)),
			);
			report(
				`SIGKILL: ${worker.name} (pid ${worker.pid}) killed ${((killedAt - t0) / 1000).toFixed(1)} s into a burst of ${cases.length} executions, running ${runningAtKill.length} ${JSON.stringify(runningAtKill)} (service calls in flight on all workers: ${callsInFlight}); the lost executions were marked failed ${(endedAfterMs / 1000).toFixed(1)} s and every caller answered ${(answeredMs / 1000).toFixed(1)} s after the kill (job lock ${STALL.lockDurationMs / 1000} s, stall check every ${STALL.stalledIntervalMs / 1000} s)`,
			);
			report(
				`SIGKILL: executions enqueued ${burstIds.length}; lost ${lostIds.length} ${JSON.stringify(lostIds)} (${lostStarted.length} started on ${worker.name}, ${lostIds.length - lostStarted.length} taken by it but not started); stored as ${JSON.stringify(lostExecutions.map((e) => e?.status))}; run again by another worker: ${reRun.length}`,
			);
			report(
				`SIGKILL: their callers got HTTP ${JSON.stringify(failedAnswers.map((a) => a.status))} ${JSON.stringify(failedAnswers[0]?.items).slice(0, 120)}`,
			);
			report(
				`SIGKILL: paid calls the lost executions had made: ${lostCalls.length} of their ${lostPages} pages (${credits(lostCalls)} credits; answers the killed worker never read: ${proxy.stats().undelivered}); duplicate requests in the whole ledger: ${duplicateRequests(ledger).length}`,
			);
			report(
				`SIGKILL: the other ${okAnswers.length} executions: all 200 and exact; requests seen ${ledger.length - lostCalls.length} (expected ${okAnswers.reduce((sum, a) => sum + expectedPages(a.c).length, 0)}); executions per worker ${JSON.stringify(stack.countByWorker([...okIds]))}`,
			);

			expect(caught).toBe(true);
			expect(burstIds).toHaveLength(cases.length);
			// n8n: the killed worker's executions fail, and are not run again (no retry, no second run).
			expect(lostIds.length).toBeGreaterThanOrEqual(1);
			expect(failedAnswers).toHaveLength(lostIds.length);
			for (const id of runningAtKill) expect(okIds.has(id) || lostIds.includes(id)).toBe(true);
			for (const e of lostExecutions) expect(['crashed', 'error']).toContain(e?.status);
			expect(reRun).toEqual([]);
			// The node: never a call twice, never more calls than pages; every other execution exact.
			expect(duplicateRequests(ledger)).toEqual([]);
			for (const c of lostCases)
				expect(recordsOf(ledger, c).length).toBeLessThanOrEqual(expectedPages(c).length);
			expect(okAnswers.flatMap((a) => checkAnswer(a.c, a))).toEqual([]);
			expect(
				checkLedger(
					okAnswers.map((a) => a.c),
					ledger,
				),
			).toEqual([]);
		});
	},
);

if (skipReason && !process.env.CI) {
	test.skip(skipReason, () => {});
}
