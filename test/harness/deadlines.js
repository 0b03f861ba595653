'use strict';

// Every wait of the harnesses and the tests' hooks, in one place. Each deadline is sized for the
// worst load `npm test` itself makes on a 2-core machine (scripts/test.sh records it in
// .cache/test-results/load.tsv), not for a quiet one: n8n is ready in 8-11 s alone, and took over
// 60 s at a load average of 19. One setting scales them all: SOUND_SEARCH_TEST_PATIENCE, a factor
// (1 by default; 2 doubles every deadline), for a slower machine. A deadline only bounds a wait:
// nothing is retried after it, and a start that fails for another reason fails at once.

const fs = require('node:fs');
const os = require('node:os');

const PATIENCE = patience(process.env.SOUND_SEARCH_TEST_PATIENCE);

/** Seconds at patience 1, by what is waited for. */
const DEADLINES_S = {
	/** `n8n start` (or a worker) until /healthz/readiness and /rest/settings answer 200 */
	n8nReady: 180,
	/** one `n8n import:*` or `n8n execute` command to its end */
	n8nCommand: 180,
	/** n8n 1.x's REST routes after readiness (the owner's set-up answers 404 until then) */
	n8nRoutes: 90,
	/** a workflow execution to end, run by REST, a trigger or a worker */
	execution: 120,
	/** a local helper server (reference service, fake model) to print its listening line */
	childListening: 30,
	/** Redis or PostgreSQL to answer */
	serviceReady: 90,
	/** one action or wait of the editor's page */
	ui: 60,
	/** a workflow run from the editor's canvas to show its result */
	editorRun: 120,
	/** a webhook of an activated workflow to be registered */
	webhook: 90,
	/** the set-up of a real-n8n test file: users, packages, credentials, n8n started */
	setUp: 600,
	/** stopping what a test file started */
	tearDown: 120,
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
 * A deadline in milliseconds: one of DEADLINES_S by name, or seconds a test states for a wait of
 * its own (what it waits for on the real clock, such as one minute poll), both scaled.
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
 * The error of a deadline that passed: what was waited for, for how long, how loaded the machine
 * was, and the setting that gives more time.
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
