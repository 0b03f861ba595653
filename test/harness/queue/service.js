'use strict';

// Redis and PostgreSQL run under the same supervisor as n8n (../supervisor.js: it leads its own
// process group, so a stop by pid stops everything the command started, also when this process
// dies). superviseN8n in ../n8n.js only starts the n8n executable, hence this small wrapper for the
// two services; short commands (initdb, createdb, pg_isready) just run to the end.

const { execFile } = require('node:child_process');
const { liveSupervisors, spawnSupervised, stopSupervised } = require('../supervisor');

const SERVICE_STOP_GRACE_MS = 10_000;

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
	const graceMs = SERVICE_STOP_GRACE_MS;
	const supervisor = spawnSupervised(command, { ...options, graceMs });
	const pgid = /** @type {number} */ (supervisor.pid);
	let tail = '';
	const take = (/** @type {string} */ chunk) => (tail = (tail + chunk).slice(-20_000));
	supervisor.stdout?.setEncoding('utf8').on('data', take);
	supervisor.stderr?.setEncoding('utf8').on('data', take);
	/** @type {Exit | undefined} */
	let exit;
	/** @type {(pid: number) => void} */
	let gotPid = () => {};
	/** @type {Promise<number>} */
	const childPid = new Promise((resolve) => (gotPid = resolve));
	supervisor.on('message', (/** @type {any} */ message) => {
		if (message?.event === 'spawned') gotPid(message.pid);
		if (message?.event === 'error') take(`\ncould not start ${name}: ${message.message}\n`);
	});
	/** @type {Promise<Exit>} */
	const exited = new Promise((resolve) =>
		supervisor.on('close', (code, signal) => {
			liveSupervisors.delete(pgid);
			gotPid(-1);
			resolve((exit = { code, signal }));
		}),
	);
	return {
		name,
		supervisorPid: pgid,
		childPid,
		exitStatus: () => exit,
		logs: () => tail,
		stop: () => stopSupervised(pgid, exited, graceMs + 3_000),
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
