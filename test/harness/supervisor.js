'use strict';

// One supervisor for every long-running process the harnesses start (n8n, its workers, Redis,
// PostgreSQL): a small `node -e` process leading its own process group, so that the whole group
// stops by pid, also when the test process dies (even by SIGKILL, which no exit handler sees).

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

/** Supervisors still running, by pid: stopped if this process exits first. */
const liveSupervisors = new Set();
process.on('exit', () => liveSupervisors.forEach((pid) => kill(pid, 'SIGTERM')));

/**
 * `command` under a supervisor, its output kept (the last tailChars of each stream) and its exit
 * awaited: childPid resolves the command's own pid (-1 if it never started); stop(ms) sends the
 * stop signal, then SIGKILLs the group ms + 2 s later.
 * @param {string[]} command
 * @param {{ env?: NodeJS.ProcessEnv, cwd?: string, graceMs: number, stopSignal?: NodeJS.Signals,
 *   cleanupDir?: string, tailChars?: number }} options
 */
function supervise(command, options) {
	const { env = process.env, cwd, graceMs, stopSignal = 'SIGTERM', cleanupDir = '' } = options;
	const supervisor = spawn(
		process.execPath,
		['-e', SUPERVISOR, JSON.stringify(command), String(graceMs), stopSignal, cleanupDir],
		{ cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] },
	);
	const pgid = /** @type {number} */ (supervisor.pid);
	liveSupervisors.add(pgid);
	const output = { out: '', err: '' };
	const take = (/** @type {'out' | 'err'} */ key, /** @type {string} */ chunk) => {
		output[key] = (output[key] + chunk).slice(-(options.tailChars ?? Infinity));
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
	/** SIGTERM to the supervisor (it forwards the stop signal); SIGKILL ms + 2 s later. */
	const stop = async (/** @type {number} */ ms) => {
		if (!liveSupervisors.has(pgid)) return void (await exited);
		kill(pgid, 'SIGTERM');
		const timer = setTimeout(() => kill(-pgid, 'SIGKILL'), ms + 2_000);
		await exited;
		clearTimeout(timer);
	};
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

/** Whether that process is running (another user's too). @param {number | undefined} pid */
function isAlive(pid) {
	try {
		return Boolean(pid && pid > 0 && process.kill(pid, 0));
	} catch (error) {
		return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM';
	}
}

module.exports = { supervise, isAlive };
