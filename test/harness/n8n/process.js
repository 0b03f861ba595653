'use strict';

// Every n8n process (CLI, server, queue-mode main and workers) runs under the supervisor
// (../supervisor.js), the leader of its own process group: stopping kills the whole group (n8n and
// its task-runner child), and the supervisor stops n8n on its own when this process dies.

const { liveSupervisors, spawnSupervised, stopSupervised } = require('../supervisor');
const { N8N_BIN } = require('./install');

// Enough of a server's output to explain a failed start, without growing without bound.
const LOG_TAIL_CHARS = 20_000;

/**
 * @typedef {object} Supervised
 * @property {import('node:child_process').ChildProcess} supervisor
 * @property {Promise<number>} childPid resolves with n8n's own pid
 * @property {Promise<{code: number | null, signal: string | null}>} exited n8n's exit
 * @property {() => string} stdout everything (CLI) or the tail (server) n8n wrote to stdout
 * @property {() => string} stderr same for stderr
 * @property {(graceMs: number) => Promise<void>} stop SIGTERM, SIGKILL of the group after graceMs
 */

/**
 * Starts `n8n <args>` under the supervisor, in userFolder, with the given environment.
 * @param {string[]} args
 * @param {Record<string, string>} env
 * @param {string} cwd
 * @param {{ tailOnly?: boolean, graceMs: number }} options
 * @returns {Supervised}
 */
function superviseN8n(args, env, cwd, { tailOnly = false, graceMs }) {
	const supervisor = spawnSupervised([N8N_BIN, ...args], { env, cwd, graceMs });
	const pgid = /** @type {number} */ (supervisor.pid);
	let out = '';
	let err = '';
	/** @param {string} text @param {string} chunk */
	const append = (text, chunk) => {
		const next = text + chunk;
		return tailOnly && next.length > LOG_TAIL_CHARS ? next.slice(-LOG_TAIL_CHARS) : next;
	};
	supervisor.stdout?.setEncoding('utf8').on('data', (chunk) => (out = append(out, chunk)));
	supervisor.stderr?.setEncoding('utf8').on('data', (chunk) => (err = append(err, chunk)));

	/** @type {{code: number | null, signal: string | null} | undefined} */
	let childExit;
	/** @type {(pid: number) => void} */
	let gotPid = () => {};
	const childPid = new Promise((resolve) => (gotPid = resolve));
	supervisor.on('message', (/** @type {any} */ message) => {
		if (message?.event === 'spawned') gotPid(message.pid);
		if (message?.event === 'exit') childExit = { code: message.code, signal: message.signal };
		if (message?.event === 'error') err += `\n[harness] could not start n8n: ${message.message}\n`;
	});
	/** @type {Promise<{code: number | null, signal: string | null}>} */
	const exited = new Promise((resolve) => {
		// 'close': the process exited and its stdout/stderr are fully read.
		supervisor.on('close', (code, signal) => {
			liveSupervisors.delete(pgid);
			try {
				process.kill(-pgid, 'SIGKILL'); // anything left in the group
			} catch {
				// group already empty
			}
			gotPid(-1);
			resolve(childExit ?? { code, signal });
		});
	});

	/** @param {number} ms */
	const stop = async (ms) => {
		await stopSupervised(pgid, exited, ms + 2_000);
	};
	return { supervisor, childPid, exited, stdout: () => out, stderr: () => err, stop };
}

module.exports = { superviseN8n };
