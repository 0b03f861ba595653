'use strict';

// One supervisor for every long-running process the harnesses start (n8n, its workers, Redis,
// PostgreSQL): a small `node -e` process that leads its own process group, so the whole group can
// be stopped by pid, on success, on failure, and when the test process dies (even by SIGKILL, which
// no exit handler of ours would see). No installed library stops a child when its parent dies.

const { spawn } = require('node:child_process');

// argv: <command-json> <graceMs> <stopSignal> <cleanupDir>. Relays the child's output, reports its
// pid over IPC, on SIGTERM/SIGINT or when the parent goes away (IPC disconnect, or a ppid change as
// a backup) sends it <stopSignal> and SIGKILLs the group after <graceMs>; exits with the child. If
// the parent went away, removes <cleanupDir> (if set) once the child has exited.
const SUPERVISOR = `
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const [cmd, ...args] = JSON.parse(process.argv[1]);
const [graceMs, stopSignal, cleanupDir] = [Number(process.argv[2]), process.argv[3], process.argv[4]];
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
const parentLeft = () => { parentGone = true; stop(); };
if (process.send) process.send({ event: 'spawned', pid: child.pid });
process.on('disconnect', parentLeft);
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
setInterval(() => { if (process.ppid !== parentPid) parentLeft(); }, 1000).unref();
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
process.on('exit', () => liveSupervisors.forEach((pid) => kill(pid, 'SIGTERM')));

/**
 * Spawns `command` under a supervisor; the caller reads its output and its IPC messages
 * (`spawned` with the child's pid, `exit`, `error`).
 * @param {string[]} command
 * @param {{ env?: NodeJS.ProcessEnv, cwd?: string, graceMs: number, stopSignal?: NodeJS.Signals,
 *   cleanupDir?: string }} options
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
	liveSupervisors.add(supervisor.pid);
	return supervisor;
}

/**
 * SIGTERM to the supervisor (it forwards its stop signal), SIGKILL to the whole group if it is
 * still there `graceMs` later; resolves with `exited`.
 * @template T
 * @param {number} pgid the supervisor's pid
 * @param {Promise<T>} exited
 * @param {number} graceMs
 */
async function stopSupervised(pgid, exited, graceMs) {
	if (!liveSupervisors.has(pgid)) return await exited;
	kill(pgid, 'SIGTERM');
	const timer = setTimeout(() => kill(-pgid, 'SIGKILL'), graceMs);
	const result = await exited;
	clearTimeout(timer);
	return result;
}

/**
 * `command` under a supervisor, its output kept (the last tailChars of each stream) and its exit
 * awaited: childPid resolves the command's own pid (-1 if it never started); stop(ms) sends the
 * stop signal, then SIGKILLs the group ms + 2 s later.
 * @param {string[]} command
 * @param {Parameters<typeof spawnSupervised>[1] & { tailChars?: number }} options
 */
function supervise(command, { tailChars = Infinity, ...options }) {
	const supervisor = spawnSupervised(command, options);
	const pgid = /** @type {number} */ (supervisor.pid);
	const output = { out: '', err: '' };
	const take = (/** @type {'out' | 'err'} */ key, /** @type {string} */ chunk) => {
		output[key] = (output[key] + chunk).slice(-tailChars);
	};
	supervisor.stdout?.setEncoding('utf8').on('data', (chunk) => take('out', chunk));
	supervisor.stderr?.setEncoding('utf8').on('data', (chunk) => take('err', chunk));
	/** @type {{ code: number | null, signal: string | null } | undefined} */
	let childExit;
	/** @type {(pid: number) => void} */
	let gotPid = () => {};
	/** @type {Promise<number>} */
	const childPid = new Promise((resolve) => (gotPid = resolve));
	supervisor.on('message', (/** @type {any} */ message) => {
		if (message?.event === 'spawned') gotPid(message.pid);
		if (message?.event === 'exit') childExit = { code: message.code, signal: message.signal };
		if (message?.event === 'error')
			take('err', `\n[harness] could not start: ${message.message}\n`);
	});
	/** @type {Promise<{ code: number | null, signal: string | null }>} */
	const exited = new Promise((resolve) =>
		// 'close': the process exited and its stdout/stderr are fully read.
		supervisor.on('close', (code, signal) => {
			liveSupervisors.delete(pgid);
			kill(-pgid, 'SIGKILL'); // anything left in the group
			gotPid(-1);
			resolve(childExit ?? { code, signal });
		}),
	);
	const stop = async (/** @type {number} */ ms) =>
		void (await stopSupervised(pgid, exited, ms + 2_000));
	return { supervisor, childPid, exited, stdout: () => output.out, stderr: () => output.err, stop };
}

/** @param {number} pid @param {NodeJS.Signals} name */
function kill(pid, name) {
	try {
		process.kill(pid, name);
	} catch {
		// gone already
	}
}

module.exports = { supervise };
