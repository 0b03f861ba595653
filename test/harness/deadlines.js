'use strict';

// Every wait of the harnesses and the tests' hooks (issue 27), sized for the worst load `npm test`
// itself makes on a 2-core machine, not for a quiet one: n8n is ready in 8-11 s alone, and took
// over 60 s at a load average of 19. SOUND_SEARCH_TEST_PATIENCE scales them all (a factor, 1 by
// default) for a slower machine. A deadline only bounds a wait: nothing is retried after it.

const fs = require('node:fs');
const os = require('node:os');

const PATIENCE = patience(process.env.SOUND_SEARCH_TEST_PATIENCE);

/** Seconds at patience 1, by what is waited for. */
const DEADLINES_S = {
	n8nReady: 180, // `n8n start` or a worker until /healthz/readiness and /rest/settings answer 200
	n8nCommand: 180, // one `n8n import:*` or `n8n execute` to its end
	n8nRoutes: 90, // n8n 1.x's REST routes after readiness (the owner's set-up answers 404 till then)
	execution: 120, // a workflow execution to end, run by REST, a trigger or a worker
	childListening: 30, // a local server (reference service, fake model) to print its listening line
	serviceReady: 90, // Redis or PostgreSQL to answer
	ui: 60, // one action or wait of the editor's page
	editorRun: 120, // a workflow run from the editor's canvas to show its result
	webhook: 90, // a webhook of an activated workflow to be registered
	setUp: 600, // the set-up of a real-n8n test file: users, packages, credentials, n8n started
	tearDown: 120, // stopping what a test file started
};

/** @param {string | undefined} value */
function patience(value) {
	if (value === undefined || value === '') return 1;
	const factor = Number(value);
	if (!(factor >= 1 && factor <= 20)) {
		throw new Error(`SOUND_SEARCH_TEST_PATIENCE must be a number from 1 to 20, got "${value}"`);
	}
	return factor;
}

/**
 * A deadline in ms, scaled: one of DEADLINES_S by name, or a test's own seconds on the real clock.
 * @param {keyof typeof DEADLINES_S | number} what
 */
function deadlineMs(what) {
	const seconds = typeof what === 'number' ? what : DEADLINES_S[what];
	return Math.round(seconds * 1000 * PATIENCE);
}

/** "load average 3.10 2.40 1.20 on 2 cores" now, for a timeout's message. */
function machineLoad() {
	let load = os.loadavg().map((x) => x.toFixed(2));
	try {
		load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3);
	} catch {
		// not Linux: os.loadavg() says the same
	}
	return `load average ${load.join(' ')} (1, 5, 15 min) on ${os.availableParallelism()} cores`;
}

/**
 * The error of a deadline that passed: what, how long, the load and the setting for more time.
 * @param {string} what
 * @param {number} waitedMs
 */
function timedOut(what, waitedMs) {
	const seconds = (waitedMs / 1000).toFixed(0);
	return new Error(
		`${what}: not done after ${seconds} s; ${machineLoad()}; ` +
			`deadlines × ${PATIENCE} (SOUND_SEARCH_TEST_PATIENCE)`,
	);
}

module.exports = { DEADLINES_S, PATIENCE, deadlineMs, machineLoad, timedOut };
