'use strict';

// Runs a README command as a user types it, from the repository root, in a process group of its
// own: stopping it by pid stops what npm started under it too.
const { spawn } = require('node:child_process');
const path = require('node:path');
const { deadlineMs, timedOut } = require('./deadlines');

const REPO_ROOT = path.resolve(__dirname, '..', '..');

/**
 * Runs to the end; past its deadline (seconds, scaled by deadlines.js) the group is killed and
 * the call rejected with its output.
 * @param {string} command a shell command line, as in the README
 * @param {{ timeoutS: number, env?: Record<string, string> }} options
 * @returns {Promise<{ code: number | null, output: string }>}
 */
function runToEnd(command, { timeoutS, env = {} }) {
	const child = start(command, env);
	const timeoutMs = deadlineMs(timeoutS);
	return new Promise((resolve, reject) => {
		const timer = setTimeout(() => {
			stopGroup(child.pid);
			const late = timedOut(`"${command}" to end`, timeoutMs);
			reject(Object.assign(late, { message: `${late.message}:\n${child.output()}` }));
		}, timeoutMs);
		child.process.on('exit', (code) => {
			clearTimeout(timer);
			resolve({ code, output: child.output() });
		});
	});
}

/**
 * Starts a command that serves until stopped, in the environment of a terminal: without the log
 * level of the `npm run --silent` that started this test run, which npm would pass on.
 * @param {string} command
 * @param {Record<string, string>} [env]
 */
function start(command, env = {}) {
	const typed = { ...process.env, ...env };
	delete typed.npm_config_loglevel;
	const child = spawn('bash', ['-c', command], {
		cwd: REPO_ROOT,
		env: typed,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	const collect = (/** @type {Buffer} */ chunk) => (output += chunk.toString());
	child.stdout?.on('data', collect);
	child.stderr?.on('data', collect);
	return { process: child, pid: child.pid, output: () => output };
}

/** @param {number | undefined} pid the group leader */
function stopGroup(pid) {
	try {
		if (pid) process.kill(-pid, 'SIGTERM');
	} catch {
		// already gone
	}
}

module.exports = { runToEnd, start, stopGroup, REPO_ROOT };
