'use strict';

// The package in n8n's queue mode: one main (webhooks, triggers), Redis, three workers (each with
// its own user folder and the packed package, as on separate machines) and PostgreSQL, all of the
// pinned n8n on 127.0.0.1 (test/harness/queue/). One environment for the whole file
// (./environment.js); every test prints its figures (executions, service requests, per worker).

const { ensureQueuePrerequisitesSync } = require('../harness/queue/prerequisites');
const { runningOn, longestRunningMs, idsOf } = require('../harness/queue/events');
const n8n = require('../harness/n8n');
const env = require('./environment');
const { deadlineMs } = require('../harness/deadlines');
const s = require('./scenarios');
const { scheduledExample, trendTrigger } = require('./workflows');
const { EXIT_WAIT_MS, prepare, signalMidBurst, lostOnKill } = require('./midBurst');

const { report, sleep, waitFor } = env;
// Decided at load time: the suite runs wherever Redis and PostgreSQL are or can be installed.
const found = ensureQueuePrerequisitesSync();
const skipReason = found.available
	? ''
	: `queue-mode suite skipped: Redis or PostgreSQL cannot be installed on this machine (${found.reason})`;
if (skipReason) process.stderr.write(`[queue] ${skipReason}\n`);

// Hooks run only when a test of the file runs (never when the suite is skipped).
const suite = skipReason && !process.env.CI ? describe.skip : describe;
/** @type {Awaited<ReturnType<typeof env.startEnvironment>>} */
let e;
beforeAll(async () => {
	if (skipReason) throw new Error(skipReason); // only reached in CI, where a skip would hide it
	e = await env.startEnvironment(found);
}, deadlineMs('setUp'));
afterAll(() => e?.stop(), deadlineMs('tearDown'));

suite('queue mode: executions spread over the workers', () => {
	test('a burst of 48 concurrent webhook executions: exact items and credits, one request per page, spread over the workers', async () => {
		const cases = s.makeCases('queue burst', 48);
		await prepare(e, cases);
		const t0 = Date.now();
		const answers = await env.burst(e.stack, cases);
		const wallMs = Date.now() - t0;
		const { requests: ledger } = await e.service.ledger();
		const ids = answers.flatMap((a) => a.executionId ?? []);
		await waitFor(() => ids.every((id) => e.stack.mainFinished().has(id)), deadlineMs(30));
		const perWorker = e.stack.countByWorker(ids);
		const expectedCredits = cases.reduce(
			(sum, c) => sum + s.expectedPages(c).length * s.PRICE[c.platform],
			0,
		);
		const items = answers.reduce(
			(sum, a) => sum + (Array.isArray(a.items) ? a.items.length : 0),
			0,
		);
		const count = (/** @type {(c: s.SearchCase) => boolean} */ which) => cases.filter(which).length;
		report(
			`burst: ${cases.length} executions (${count((c) => c.platform === 'shortvideo')} shortvideo, ${count((c) => c.platform === 'photosocial')} photosocial; ${count((c) => c.returnAll)} Return All, ${count((c) => s.expectedPages(c).length > 1)} over several pages) in ${(wallMs / 1000).toFixed(1)} s`,
		);
		report(
			`burst: responses 200: ${answers.filter((a) => a.status === 200).length}/${cases.length}; items ${items}; slowest ${Math.max(...answers.map((a) => a.ms))} ms`,
		);
		report(
			`burst: requests seen by the service ${ledger.length} (expected ${s.pagesOf(cases)}), credits ${s.credits(ledger)} (expected ${expectedCredits}), duplicates ${s.duplicateRequests(ledger).length}, most in flight at once ${e.proxy.stats().maxInFlight}`,
		);
		report(
			`burst: executions per worker ${JSON.stringify(perWorker)}; worker ids reported to the main ${JSON.stringify(e.stack.workerIds())}`,
		);

		expect(s.checkAnswers(answers)).toEqual([]);
		expect(s.checkLedger(cases, ledger)).toEqual([]);
		expect(ledger).toHaveLength(s.pagesOf(cases));
		expect(s.credits(ledger)).toBe(expectedCredits);
		expect(s.duplicateRequests(ledger)).toEqual([]);
		expect(new Set(ids).size).toBe(cases.length);
		expect(perWorker['(no worker)'] ?? 0).toBe(0);
		expect(Object.values(perWorker).filter((n) => n > 0).length).toBeGreaterThan(1);
		// The main's view agrees: every execution finished on the worker whose log started it.
		const [finished, workerIds] = [e.stack.mainFinished(), e.stack.workerIds()];
		for (const id of ids) {
			expect(finished.get(id)?.success).toBe(true);
			expect(workerIds[String(e.stack.workerOf(id))]).toEqual([finished.get(id)?.workerId]);
		}
	});

	// Once: that a later run in the same n8n process starts at what the first learned is proven in
	// e2e on both lines (cases/rateLimits.js); a worker is such a process.
	test('500 keywords in one execution on a worker, against a service capped at 4 calls in flight: every keyword paid once, the refusals free', async () => {
		await e.service.reset();
		await e.service.setCapacity({ capacity: 4, latencyMs: 30 });
		const keywords = Array.from({ length: 500 }, (_, index) => `queue keyword ${index}`);
		const t0 = Date.now();
		const response = await env.post(`${e.stack.mainUrl}/webhook/queue-keyword-list`, {
			keywords,
		});
		const items = await response.json();
		const id = String(response.headers.get('x-execution-id'));
		const { requests: ledger, capacity } = await e.service.ledger();
		const paid = ledger.filter((/** @type {any} */ r) => r.status === 200);
		const refused = ledger.filter((/** @type {any} */ r) => r.status === 429);
		await waitFor(() => e.stack.mainFinished().has(id), deadlineMs(30));
		const worker = String(e.stack.workerOf(id));
		report(
			`keyword list on ${worker}: 500 keywords in ${((Date.now() - t0) / 1000).toFixed(1)} s; ${ledger.length} requests, ${refused.length} answered 429 (free), most in flight at the service ${capacity.mostInFlight}, credits ${s.credits(ledger)}`,
		);

		expect(response.status).toBe(200);
		expect(items).toHaveLength(1000);
		expect(worker).toMatch(/worker/);
		expect(paid.map((/** @type {any} */ r) => r.q).sort()).toEqual([...keywords].sort());
		expect(s.duplicateRequests(paid)).toEqual([]);
		expect(refused.every((/** @type {any} */ r) => r.creditsCharged === 0)).toBe(true);
		expect(s.credits(ledger)).toBe(500);
	});
});

suite('queue mode: triggers fire on the main, their executions run on workers', () => {
	test('the Sound Search Trigger polls on the main, its executions run on workers, each new sound once', async () => {
		const { stack, service } = e;
		const { id } = trendTrigger;
		await service.reset();
		await stack.createWorkflow(trendTrigger);
		// Publishing polls at once, on the main: the first time the baseline, then new sounds.
		const republish = async () => (
			await stack.deactivateWorkflow(id),
			await stack.activateWorkflow(id)
		);
		try {
			await stack.activateWorkflow(id);
			await sleep(2000);
			expect(await stack.executionsOf(id)).toEqual([]);
			await service.passTime({ newSounds: { 'queue trend': 3 } });
			const answer = await service.search('shortvideo', { q: 'queue trend', limit: '3' });
			const expected = answer.body.data.items.map((/** @type {any} */ x) => x.soundId);
			await republish();
			await waitFor(async () => (await stack.executionsOf(id)).length > 0, deadlineMs('execution'));
			const [summary] = await stack.executionsOf(id);
			const execution = await stack.waitForExecutionEnd(summary.id);
			await waitFor(() => stack.workerOf(summary.id) !== undefined, deadlineMs(30));
			const items = n8n.nodeOutputItems(
				{ data: n8n.parseExecutionData(execution.data) },
				'Sound Trends',
			);
			report(
				`trigger: the main polled, ${stack.workerOf(summary.id)} ran execution ${summary.id} (${execution.mode}, ${execution.status}) with ${items.length} new sounds`,
			);

			expect(execution).toMatchObject({ mode: 'trigger', status: 'success' });
			expect(stack.workerOf(summary.id)).toMatch(/^worker-/);
			expect(items.map((item) => item.soundId)).toEqual(expected);
			await republish();
			await sleep(3000);
			expect(await stack.executionsOf(id)).toHaveLength(1);
		} finally {
			await stack.deactivateWorkflow(id);
		}
	});

	test('the scheduled trend-collection example runs on a worker and writes its CSV', async () => {
		const { stack, service } = e;
		const { workflow, keywords, expected } = scheduledExample(stack.filesDir);
		await service.reset();
		for (const keyword of keywords) await service.setCatalogue({ query: keyword, total: 200 });
		await stack.createWorkflow(workflow);
		const { fired, activatedAt, ended } = await env.publishUntilFired(stack, workflow.id);
		const { requests: ledger } = await service.ledger();
		const csv = env.readCsv(stack.filesDir, /^sound-trends-\d{4}-\d{2}-\d{2}\.csv$/);
		const firstStart = Math.min(...ended.map((x) => Date.parse(x?.startedAt)));
		report(
			`schedule: published, first run started ${((firstStart - activatedAt) / 1000).toFixed(1)} s later (every 10 s); runs before unpublishing ${ended.length}, statuses ${JSON.stringify(ended.map((x) => `${x?.mode}/${x?.status}`))}, ran on ${JSON.stringify(ended.map((x) => stack.workerOf(String(x?.id))))}`,
		);
		report(
			`schedule: requests seen ${ledger.length} (expected ${expected.requests} per run), credits ${s.credits(ledger)} (expected ${expected.credits} per run); CSV ${csv.files.join(', ') || '(none)'} with ${csv.rows.length} rows (expected ${expected.rows})`,
		);

		expect(fired).toBe(true);
		for (const execution of ended) {
			expect(execution).toMatchObject({ mode: 'trigger', status: 'success' });
			expect(stack.workerOf(String(execution.id))).toMatch(/^worker-/);
			expect(idsOf(stack.main, 'enqueued')).toContain(String(execution.id));
		}
		expect(ledger).toHaveLength(expected.requests * ended.length);
		expect(s.credits(ledger)).toBe(expected.credits * ended.length);
		expect(csv.files).toHaveLength(1);
		expect(csv.rows).toHaveLength(expected.rows);
		// The header names the fields of the items the search gave the CSV node.
		const run = n8n.parseExecutionData((await stack.execution(String(ended[0].id))).data);
		const columns = Object.keys(n8n.nodeOutputItems({ data: run }, 'Sound Search')[0] ?? {});
		expect(columns.length).toBeGreaterThan(0);
		expect([...csv.header].sort()).toEqual(columns.sort());
	});
});

suite('queue mode: workers stopped mid-burst', () => {
	test('a worker stopped with SIGTERM mid-burst finishes its running executions; nothing is lost', async () => {
		const r = await signalMidBurst(
			e,
			'queue term',
			'worker-3',
			'SIGTERM',
			// Signalled while it runs all it may (--concurrency), so it holds no job taken but not
			// started: n8n 2.41.1's worker loses some of those. In a loop of early signals (one
			// execution running) 4 of 6 workers lost executions of this burst, exiting 0; in one CI
			// run it crashed with SIGSEGV. That is n8n's shutdown, not the node's pace.
			(w) => runningOn(w).length >= env.CONCURRENCY,
		);
		const { worker, running, answers, ledger, burstIds } = r;
		const exit = worker.exitStatus();
		const okIds = answers.filter((a) => a.status === 200).map((a) => String(a.executionId));
		const finished = new Set(idsOf(worker, 'worker-finished'));
		const ran = idsOf(worker, 'worker-started').filter((id) => burstIds.includes(id));
		const startedAfter = worker.events.filter(
			(x) => x.kind === 'worker-started' && x.at > r.signalledAt,
		);
		report(
			`SIGTERM: ${worker.name} (pid ${worker.pid}) signalled ${r.into} s into a burst of ${r.cases.length} executions, running ${running.length} (${JSON.stringify(running)}); it exited ${exit ? `with code ${exit.code}, signal ${exit.signal}` : `(not within ${EXIT_WAIT_MS / 1000} s)`} ${((Date.now() - r.signalledAt) / 1000).toFixed(1)} s after the signal`,
		);
		report(
			`SIGTERM: ${worker.name} ran ${ran.length} executions of this burst (${startedAfter.length} logged as started after the signal: jobs it had already taken), finished ${ran.filter((id) => finished.has(id)).length} of them`,
		);
		report(
			`SIGTERM: executions enqueued ${burstIds.length}, responses 200 ${okIds.length}/${r.cases.length}; requests seen ${ledger.length} (expected ${s.pagesOf(r.cases)}), duplicates ${s.duplicateRequests(ledger).length}; executions per worker ${JSON.stringify(e.stack.countByWorker(okIds))}`,
		);

		// Once in some 40 CI runs a worker signalled early in the burst exited with SIGSEGV 47 s later,
		// most of what it held not run: its own log is the only account of that.
		if (exit?.code !== 0)
			report(`SIGTERM: ${worker.name}'s log, its end:\n${worker.logs().slice(-8000)}`);
		expect(r.wasCaught).toBe(true);
		expect(exit?.code).toBe(0);
		// It took nothing new after the signal (what it logged as started afterwards fits in what it
		// held: --concurrency jobs at most), and every execution it had, it finished ...
		expect(startedAfter.length).toBeLessThanOrEqual(env.CONCURRENCY - running.length);
		for (const id of ran) expect(finished.has(id)).toBe(true);
		// ... and every execution of the burst was answered, exactly right, with one call per page.
		expect(burstIds).toHaveLength(r.cases.length);
		expect(s.checkAnswers(answers)).toEqual([]);
		expect(new Set(okIds).size).toBe(r.cases.length);
		expect(s.checkLedger(r.cases, ledger)).toEqual([]);
		expect(s.duplicateRequests(ledger)).toEqual([]);
	});

	test('a worker killed with SIGKILL mid-burst: its executions fail and are not run again; no call is made twice', async () => {
		expect(
			e.stack.workers.filter((w) => w.name !== 'worker-2' && !w.exitStatus()).length,
		).toBeGreaterThan(0); // someone must take the queue and notice the stall
		// Killed while it runs at least two executions, one of them for long enough (each page
		// takes at least 0.7 s) to be in the middle of its pages: paid calls made, more to come.
		const caught = (/** @type {any} */ w) =>
			runningOn(w).length >= 2 && longestRunningMs(w) >= 1_200;
		const r = await signalMidBurst(e, 'queue kill', 'worker-2', 'SIGKILL', caught);
		const { worker, ledger, burstIds, running } = r;
		const l = await lostOnKill(e, r);
		const { STALL } = env;
		report(
			`SIGKILL: ${worker.name} (pid ${worker.pid}) killed ${r.into} s into a burst of ${r.cases.length} executions, running ${running.length} ${JSON.stringify(running)} (service calls in flight on all workers: ${r.callsInFlight}); the lost executions were marked failed ${(l.endedAfterMs / 1000).toFixed(1)} s and every caller answered ${(r.answeredMs / 1000).toFixed(1)} s after the kill (job lock ${STALL.lockDurationMs / 1000} s, stall check every ${STALL.stalledIntervalMs / 1000} s)`,
		);
		report(
			`SIGKILL: executions enqueued ${burstIds.length}; lost ${l.lostIds.length} ${JSON.stringify(l.lostIds)} (${l.lostStarted.length} started on ${worker.name}, ${l.lostIds.length - l.lostStarted.length} taken by it but not started); stored as ${JSON.stringify(l.lost.map((x) => x?.status))}; run again by another worker: ${l.reRun.length}`,
		);
		report(
			`SIGKILL: their callers got HTTP ${JSON.stringify(l.failed.map((a) => a.status))} ${String(JSON.stringify(l.failed[0]?.items)).slice(0, 120)}`,
		);
		report(
			`SIGKILL: paid calls the lost executions had made: ${l.lostCalls.length} of their ${s.pagesOf(l.lostCases)} pages (${s.credits(l.lostCalls)} credits; answers the killed worker never read: ${e.proxy.stats().undelivered}); duplicate requests in the whole ledger: ${s.duplicateRequests(ledger).length}`,
		);
		report(
			`SIGKILL: the other ${l.ok.length} executions: all 200 and exact; requests seen ${ledger.length - l.lostCalls.length} (expected ${s.pagesOf(l.ok.map((a) => a.c))}); executions per worker ${JSON.stringify(e.stack.countByWorker([...l.okIds]))}`,
		);

		expect(r.wasCaught).toBe(true);
		expect(burstIds).toHaveLength(r.cases.length);
		// n8n: the killed worker's executions fail, and are not run again (no retry, no second run).
		expect(l.lostIds.length).toBeGreaterThanOrEqual(1);
		expect(l.failed).toHaveLength(l.lostIds.length);
		for (const id of running) expect(l.okIds.has(id) || l.lostIds.includes(id)).toBe(true);
		for (const x of l.lost) expect(['crashed', 'error']).toContain(x?.status);
		expect(l.reRun).toEqual([]);
		// The node: never a call twice, never more calls than pages; every other execution exact.
		expect(s.duplicateRequests(ledger)).toEqual([]);
		for (const c of l.lostCases)
			expect(s.recordsOf(ledger, c).length).toBeLessThanOrEqual(s.expectedPages(c).length);
		expect(s.checkAnswers(l.ok)).toEqual([]);
		expect(
			s.checkLedger(
				l.ok.map((a) => a.c),
				ledger,
			),
		).toEqual([]);
	});
});

if (skipReason && !process.env.CI) test.skip(skipReason, () => {});
