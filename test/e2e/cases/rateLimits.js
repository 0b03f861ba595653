'use strict';

// A keyword list against a request quota in a real n8n (the packed package, run through the REST
// API the editor uses): n8n's own request path, timing and concurrency, and n8n's own process
// keeping what a run learned for the next run. The limiter's rules are proven in test/unit/ and
// test/engine/. The quota is the service's; its reset before each test lifts it again.

/**
 * Runs the 200-keyword workflow against 10 calls a second; returns the calls refused.
 * @param {import('../scenario').E2eScenario} scenario
 */
async function listAtQuota(scenario) {
	await scenario.service.reset();
	await scenario.service.setQuota({ limit: 10, windowMs: 1000 });
	const started = Date.now();
	const { status } = await scenario.run('200-keywords');
	const seconds = (Date.now() - started) / 1000;

	expect(status).toBe('success');
	const { totals, quota, requests } = await scenario.service.ledger();
	// When the refused calls came, for a failure to show: "s0: 190, s2: 1" (seconds since the first).
	const first = Date.parse(requests[0]?.at);
	const bySecond = new Map();
	for (const r of requests.filter((r) => r.status === 429)) {
		const s = `s${Math.floor((Date.parse(r.at) - first) / 1000)}`;
		bySecond.set(s, (bySecond.get(s) ?? 0) + 1);
	}
	const when = [...bySecond].map(([s, n]) => `${s}: ${n}`).join(', ');
	process.stderr.write(
		`[e2e] 200 keywords at 10/s: ${requests.length} requests, ${quota.refused} answered 429 (${when}), ${seconds.toFixed(1)} s (ideal 20 s)\n`,
	);
	const paid = requests.filter((r) => r.status === 200).map((r) => r.q);
	expect(paid.sort()).toEqual(Array.from({ length: 200 }, (_, i) => `quota ${i}`).sort());
	expect(totals.creditsCharged).toBe(200);
	return quota.refused;
}

/** @param {import('../scenario').E2eScenario} scenario (started) */
function rateLimits(scenario) {
	test('200 keywords against 10 calls per second the node is not told: one burst refused at first contact, almost none in the next run', async () => {
		// First contact: the list starts at once and the quota refuses what is over it (190, free),
		// once, plus what AIMD's tries and a loaded machine add. A wave as each second turned would
		// be 190 more.
		expect(await listAtQuota(scenario)).toBeLessThanOrEqual(300);
		// The same n8n, the same credential: the limiter kept in n8n's process paces the run to the
		// quota the first one read. On a loaded machine a refusal read late makes the reading one
		// high (one call a window refused, 19 in CI beside a benchmark) or a window's calls go out
		// late; a burst would be 190.
		expect(await listAtQuota(scenario)).toBeLessThanOrEqual(40);
	});
}

module.exports = { rateLimits };
