'use strict';

// Runs a README command the way a user types it, from the repository root, for the commands
// layer. A command that serves until stopped runs in its own process group, so stopping it by pid
// also stops what npm started under it.
const { spawn } = require('node:child_process');
const path = require('node:path');
const { deadlineMs, timedOut } = require('../harness/deadlines');

const REPO_ROOT = path.resolve(__dirname, '..', '..');

/**
 * Runs to the end; rejects when it outlives its deadline (the whole group is killed then). A
 * command that starts n8n gets n8n's own start deadline and then some: its own error says more.
 * @param {string} command a shell command line, as in the README
 * @param {{ timeoutS: number, env?: Record<string, string> }} options timeoutS: seconds at
 *   SOUND_SEARCH_TEST_PATIENCE 1 (deadlines.js)
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
 * Starts a command that serves until stopped.
 * @param {string} command
 * @param {Record<string, string>} [env]
 */
function start(command, env = {}) {
	const child = spawn('bash', ['-c', command], {
		cwd: REPO_ROOT,
		env: asTyped({ ...process.env, ...env }),
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	const collect = (/** @type {Buffer} */ chunk) => (output += chunk.toString());
	child.stdout?.on('data', collect);
	child.stderr?.on('data', collect);
	return { process: child, pid: child.pid, output: () => output };
}

/**
 * The environment of a command typed in a terminal: not the log level of the `npm run --silent`
 * that started this test run, which npm would pass on to the npm under test.
 * @param {NodeJS.ProcessEnv} env
 */
function asTyped(env) {
	delete env.npm_config_loglevel;
	return env;
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
