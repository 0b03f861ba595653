'use strict';

// A keyword list against a request quota in a real n8n (the packed package, run through the REST
// API the editor uses): what the engine layer proves of the limiter, here with n8n's own
// request path, timing and concurrency, and n8n's own process keeping what a run learned for the
// next run. The quota is the service's, and the service's reset before each test lifts it again.

/**
 * When the refused calls came, for a failure to show: "s0: 190, s2: 1", seconds since the run's
 * first request.
 * @param {Array<{ at: string, status: number }>} rows the service's ledger
 */
function refusedBySecond(rows) {
	const first = Date.parse(rows[0]?.at);
	const seconds = rows
		.filter((r) => r.status === 429)
		.map((r) => Math.floor((Date.parse(r.at) - first) / 1000));
	const counts = new Map(seconds.map((s) => [s, seconds.filter((t) => t === s).length]));
	return [...counts].map(([s, n]) => `s${s}: ${n}`).join(', ');
}

/**
 * Runs the 200-keyword workflow against 10 calls a second; returns the calls refused.
 * @param {import('../scenario').E2eScenario} scenario
 */
async function listAtQuota(scenario) {
	await scenario.service.reset();
	await scenario.service.setQuota({ limit: 10, windowMs: 1000 });
	const started = Date.now();
	const { status, items } = await scenario.run('200-keywords');
	const seconds = (Date.now() - started) / 1000;

	expect(status).toBe('success');
	const { totals, quota, requests: rows } = await scenario.service.ledger();
	const requests = await scenario.ledger();
	const paid = requests.filter((r) => r.status === 200);
	process.stderr.write(
		`[e2e] 200 keywords at 10/s: ${requests.length} requests, ${quota.refused} answered 429 (${refusedBySecond(rows)}), ${seconds.toFixed(1)} s (ideal 20 s)\n`,
	);
	const keywords = Array.from({ length: 200 }, (_, index) => `quota ${index}`);
	expect(paid.map((r) => r.q).sort()).toEqual(keywords.sort());
	expect(totals.creditsCharged).toBe(200);
	expect(requests.filter((r) => r.status === 429).every((r) => r.credits === 0)).toBe(true);
	const sounds = items('Sound Search');
	expect(sounds).toHaveLength(400);
	expect(sounds.every((s) => s.creditsCharged === 1)).toBe(true);
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
