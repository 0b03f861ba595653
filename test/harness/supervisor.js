'use strict';

// One supervisor for every long-running process the test harnesses start (n8n, its workers, Redis,
// PostgreSQL). Each runs under a small `node -e` process that leads its own process group, so the
// whole group can be stopped by pid, on success, on failure, and when the test process dies.

const { spawn } = require('node:child_process');

/**
 * Runs inside each supervisor process (`node -e SUPERVISOR <argv-json> <graceMs> <stopSignal>
 * <cleanupDir>`). Starts the command in the supervisor's process group, relays its output, reports
 * its pid over IPC, on SIGTERM/SIGINT sends the child <stopSignal>, stops it when the parent goes
 * away (IPC disconnect, or a ppid change as a backup), SIGKILLs the whole group if the child
 * outlives the grace period, and exits with the child. If the parent went away and <cleanupDir> is
 * set, removes that folder once the child has exited.
 */
const SUPERVISOR = `
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const [cmd, ...args] = JSON.parse(process.argv[1]);
const graceMs = Number(process.argv[2]);
const stopSignal = process.argv[3];
const cleanupDir = process.argv[4] || '';
const parentPid = process.ppid;
const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
let parentGone = false;
for (const [from, to] of [[child.stdout, process.stdout], [child.stderr, process.stderr]]) {
	to.on('error', () => { parentGone = true; });
	from.on('data', (chunk) => { if (!parentGone) to.write(chunk); });
}
let stopping = false;
const killGroup = (sig) => { try { process.kill(-process.pid, sig); } catch {} };
const stop = () => {
	if (stopping) return;
	stopping = true;
	try { child.kill(stopSignal); } catch {}
	setTimeout(() => killGroup('SIGKILL'), graceMs).unref();
};
if (process.send) process.send({ event: 'spawned', pid: child.pid });
process.on('disconnect', () => { parentGone = true; stop(); });
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
setInterval(() => { if (process.ppid !== parentPid) { parentGone = true; stop(); } }, 1000).unref();
child.on('error', (error) => {
	if (process.connected) process.send({ event: 'error', message: String(error && error.message) });
	process.exit(127);
});
child.on('exit', (code, signal) => {
	stopping = true;
	killGroup('SIGTERM');
	let done = false;
	const finish = () => {
		if (done) return;
		done = true;
		if (parentGone && cleanupDir) { try { fs.rmSync(cleanupDir, { recursive: true, force: true }); } catch {} }
		const leave = () => process.exit(code === null ? 1 : code);
		if (process.connected) process.send({ event: 'exit', code, signal }, leave);
		else leave();
	};
	child.on('close', finish);
	setTimeout(finish, 1000);
});
`;

/** Supervisors still running, by pid: asked to stop if this process exits without stopping them. */
const liveSupervisors = new Set();
process.on('exit', () => {
	for (const pid of liveSupervisors) {
		try {
			process.kill(pid, 'SIGTERM');
		} catch {
			// already gone
		}
	}
});

/**
 * Spawns `command` under a supervisor. The caller reads its stdout/stderr and its IPC messages
 * (`spawned` with the child's pid, `exit`, `error`).
 * @param {string[]} command executable and arguments
 * @param {{ env?: NodeJS.ProcessEnv, cwd?: string, graceMs: number, stopSignal?: NodeJS.Signals,
 *   cleanupDir?: string }} options
 * @returns {import('node:child_process').ChildProcess}
 */
function spawnSupervised(
	command,
	{ env = process.env, cwd, graceMs, stopSignal = 'SIGTERM', cleanupDir = '' },
) {
	const supervisor = spawn(
		process.execPath,
		['-e', SUPERVISOR, JSON.stringify(command), String(graceMs), stopSignal, cleanupDir],
		{ cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] },
	);
	liveSupervisors.add(/** @type {number} */ (supervisor.pid));
	return supervisor;
}

/**
 * Stops a supervised process: SIGTERM to its supervisor (which forwards the stop signal), then
 * SIGKILL to the whole group if it is still there `graceMs` later; resolves when it has exited.
 * @template T
 * @param {number} pgid the supervisor's pid (leader of the process group)
 * @param {Promise<T>} exited resolves when the supervisor has exited
 * @param {number} graceMs
 * @returns {Promise<T>}
 */
async function stopSupervised(pgid, exited, graceMs) {
	if (!liveSupervisors.has(pgid)) return await exited;
	signalGroup(pgid, 'SIGTERM');
	const timer = setTimeout(() => signalGroup(-pgid, 'SIGKILL'), graceMs);
	const result = await exited;
	clearTimeout(timer);
	return result;
}

/** @param {number} pid @param {NodeJS.Signals} signal */
function signalGroup(pid, signal) {
	try {
		process.kill(pid, signal);
	} catch {
		// gone already
	}
}

module.exports = { spawnSupervised, stopSupervised, liveSupervisors };
