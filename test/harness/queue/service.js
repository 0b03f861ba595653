'use strict';

// Redis and PostgreSQL run under the same supervisor as n8n (../supervisor.js: it leads its own
// process group, so a stop by pid stops everything the command started, also when this process
// dies); short commands (initdb, createdb, pg_isready) just run to the end.

const { execFile } = require('node:child_process');
const { supervise } = require('../supervisor');

const STOP_GRACE_MS = 10_000;

/**
 * @typedef {{ code: number | null, signal: string | null }} Exit
 * @typedef {object} Service
 * @property {string} name
 * @property {number} supervisorPid leader of the process group
 * @property {Promise<number>} childPid the command's own pid (-1 if it never started)
 * @property {() => Exit | undefined} exitStatus set once exited
 * @property {() => string} logs the tail of its output
 * @property {() => Promise<unknown>} stop its stop signal, SIGKILL of the group after a grace period
 */

/**
 * @param {string} name
 * @param {string[]} command
 * @param {{ env?: NodeJS.ProcessEnv, cwd: string, stopSignal?: NodeJS.Signals, cleanupDir?: string }} options
 * @returns {Service}
 */
function superviseService(name, command, options) {
	const run = supervise(command, { ...options, graceMs: STOP_GRACE_MS, tailChars: 20_000 });
	/** @type {Exit | undefined} */
	let exit;
	void run.exited.then((e) => (exit = e));
	return {
		name,
		supervisorPid: /** @type {number} */ (run.supervisor.pid),
		childPid: run.childPid,
		exitStatus: () => exit,
		logs: () => `${run.stdout()}${run.stderr()}`,
		stop: () => run.stop(STOP_GRACE_MS),
	};
}

/**
 * Runs a short command to its end.
 * @param {string[]} command
 * @param {{ env?: NodeJS.ProcessEnv, cwd?: string, timeoutMs?: number }} [options]
 * @returns {Promise<{ code: number, stdout: string, stderr: string }>}
 */
function run([file, ...args], { env, cwd, timeoutMs = 60_000 } = {}) {
	return new Promise((resolve) =>
		execFile(file, args, { env, cwd, timeout: timeoutMs }, (error, stdout, stderr) =>
			resolve({ code: error ? Number(error.code ?? 1) || 1 : 0, stdout, stderr }),
		),
	);
}

/**
 * Polls a probe that no library offers (Redis PING, pg_isready, a webhook's CORS preflight) until
 * it holds; fails early when the process it waits for has exited.
 * @param {string} what
 * @param {() => Promise<boolean>} probe
 * @param {{ timeoutMs: number, process?: Pick<Service, 'exitStatus' | 'logs'> }} options
 */
async function waitUntil(what, probe, { timeoutMs, process: proc }) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const exit = proc?.exitStatus();
		if (exit)
			throw new Error(`${what} exited while starting (${JSON.stringify(exit)})\n${proc?.logs()}`);
		if (await probe().catch(() => false)) return;
		if (Date.now() > deadline)
			throw new Error(`${what}: not ready after ${timeoutMs} ms\n${proc?.logs() ?? ''}`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

module.exports = { superviseService, run, waitUntil };
