'use strict';

// Section 7's flooded quota (phases/flood.js) and its verdict rows (issue 30).

const { median } = require('../stats');
const { f1, int, pct, latency, table } = require('./format');
const { throughput, ok, secs, see, TARGET } = require('./quotas');
const { CONTACT } = require('../contacts');

/** Issue 30: right after another client flooded the quota, no run below this share of it. */
const LOWEST = 0.8;

const byLatency = (f) => [...new Set(f.runs.map((r) => r.latencyMs))];
const runsAt = (f, latencyMs) => f.runs.filter((r) => r.latencyMs === latencyMs);

function floodVerdict(f, latencyMs) {
	const runs = runsAt(f, latencyMs);
	const shares = runs.map(throughput);
	const [mid, low] = [median(shares), Math.min(...shares)];
	const lowest = runs[shares.indexOf(low)];
	const over = runs.reduce((sum, r) => sum + Math.max(0, r.credits - r.keywords), 0);
	const by = Math.max(TARGET.throughput - mid, LOWEST - low);
	const busy = median(runs.map((r) => r.foreignCores));
	const why = `each run starts with the window used up by the burst, so its first calls are refused until the window frees; other processes used ${f1(busy)} cores ${see}`;
	return {
		target: `${runs.length} runs of ${int(runs[0].keywords)} keywords at ${f.quota}, ${latency(latencyMs)} per answer, each right after another client's burst of ${f.burst} calls on the same key: ≥ ${pct(TARGET.throughput)} of the quota (median), none below ${pct(LOWEST)}`,
		result: `median **${pct(mid)}**, lowest **${pct(low)}** (run ${lowest.run}); the node's refused calls per run: ${runs.map((r) => r.refused).join(', ')}; ${over ? `${int(over)} credits over the minimum` : 'credits at the minimum in every run'}`,
		verdict:
			by <= 0 && !over ? 'met' : `missed by ${by > 0 ? pct(by) : `${int(over)} credits`}: ${why}`,
	};
}

const floodVerdicts = (f) => (f ? byLatency(f).map((ms) => floodVerdict(f, ms)) : []);

function floodSection(f) {
	if (!f) return '';
	const rows = f.runs.map((r) => [
		latency(r.latencyMs),
		String(r.run),
		CONTACT[r.contact],
		ok(r) ? 'complete' : `failed (${r.status})`,
		secs(r.ms),
		secs(r.idealMs),
		ok(r) ? `**${pct(throughput(r))}**` : '–',
		`${int(r.refused)} of ${int(r.calls)}`,
		int(r.credits),
		`${int(r.flood.refused)} of ${int(r.flood.calls)}`,
	]);
	const cols =
		'latency | run | node | outcome | s | ideal s | share of quota | node: refused calls | credits | burst: refused calls';
	return [
		`**Flooded quota.** Before each run, an HTTP Request workflow on the same API key and service sent ${f.burst} requests at once against the ${f.quota} quota (Never Error, so that it completes with most of them refused), and the node's list started as soon as the whole burst had reached the service: not when its answers were back, which at a latency of a second or more is when the burst's 1 s window has passed and the quota is free again. The node ran on the flood's key, which no other case used (its first run there its first contact); refused calls and credits are the node's own, counted after the burst.`,
		table(cols.split(' | '), rows),
	].join('\n\n');
}

module.exports = { floodSection, floodVerdicts };
