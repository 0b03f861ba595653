'use strict';

// One keyword-list run against the scale service (phases/keylists.js): the service reset and set
// up for it, the list POSTed to a workflow, what came out and what the service's ledger saw.

const fs = require('node:fs');
const path = require('node:path');

const { callWebhook } = require('../client');
const { foreignCpuMeter } = require('../system');
const { assert, ledgerSummary, resetScale, webhookUrl, n8nCpuSeconds } = require('./common');
const { expectedKeywordItems } = require('./keywords');
const { nodeWorkflowOf, CONTACT } = require('../contacts');
const { KEYLISTS, PACKAGE_NAME } = require('../workflows');

/**
 * What a run calls and how the service answers it: Sound Search on `slot` (contacts.js; the run
 * records whether it was first contact) or the workflow `key`; the service's latency and cap.
 * @typedef {{ slot?: string, key?: string, latencyMs?: number, capacity?: number }} RunSetup
 */

/** One run on a freshly reset service; logged, not checked. @param {RunSetup} setup */
async function keylistRun(ctx, part, setup, size) {
	const { slot, latencyMs = KEYLISTS.LATENCY_MS, capacity = 0 } = setup;
	await resetScale(ctx, { latencyMs, capacity });
	const key = slot ? nodeWorkflowOf(slot) : setup.key;
	const contact = slot ? ctx.contact(slot) : undefined;
	const keywords = Array.from({ length: size }, (_, i) => `scale kw ${i}`);
	const cpu0 = n8nCpuSeconds(ctx);
	// Other processes' CPU during this run: the machine is shared, and n8n's CPU sets the pace.
	const meter = foreignCpuMeter();
	const r = await callWebhook(webhookUrl(ctx, key), { method: 'POST', body: { keywords } });
	const n8nCpuMs = (n8nCpuSeconds(ctx) - cpu0) * 1000;
	const { foreignCores } = meter.stop();
	const { calls, credits, mostInFlight, outcomes } = await ledgerSummary(ctx.scale);
	const ok = r.status === 200;
	const run = {
		key,
		...(slot && { slot, contact }),
		keywords: size,
		latencyMs,
		capacity,
		capped: capacity > 0,
		status: r.status,
		ms: r.ms,
		n8nCpuMs,
		foreignCores,
		items: ok ? r.json.count_soundId : 0,
		expected: expectedKeywordItems(keywords, KEYLISTS.LIMIT),
		error: ok ? undefined : JSON.stringify(r.json).slice(0, 300),
		calls,
		rateLimited: outcomes.rate_limited ?? 0,
		credits,
		mostInFlight,
	};
	const service = `${capacity ? `capped ${capacity}, ` : ''}${latencyMs} ms`;
	ctx.log(
		`keylists: ${part}: ${key} ${size} (${service}${contact ? `, ${CONTACT[contact]}` : ''}): ${r.status} in ${(r.ms / 1000).toFixed(1)} s, ${run.items} items, ${calls} calls, ${run.rateLimited} x 429`,
	);
	return run;
}

/** A run that must complete: every sound out, one answered (non-429) call per keyword. */
function complete(run) {
	const what = `keylists ${run.key} ${run.keywords}${run.capped ? ' capped' : ''}`;
	assert(run.status === 200, `${what}: webhook answered ${run.status} ${run.error}`);
	assert(run.items === run.expected, `${what}: ${run.items} items, expected ${run.expected}`);
	const answered = run.calls - run.rateLimited;
	assert(answered === run.keywords, `${what}: ${answered} calls answered, ${run.rateLimited} 429`);
	return run;
}

/**
 * The Max Calls in Flight default of the installed package, read from its built description:
 * loading the node would need n8n-workflow, which the installed package does not carry.
 */
function installedDefault(folder) {
	const dist = path.join(folder, '.n8n/nodes/node_modules', PACKAGE_NAME, 'dist');
	try {
		const source = fs.readFileSync(`${dist}/nodes/SoundSearch/description.js`, 'utf8');
		const match = /name: 'maxInFlight',[\s\S]*?default: (\d+)/.exec(source);
		return match ? Number(match[1]) : null;
	} catch {
		return null;
	}
}

module.exports = { keylistRun, complete, installedDefault };
