'use strict';

// The local servers the harness runs as child processes (the reference service, the fake model):
// `node <script> --port 0 --parent-pid <this process> ...`, ready once it prints its JSON listening
// line (only the child knows the port it bound), stopped by pid.

const { spawn } = require('node:child_process');
const { once } = require('node:events');
const readline = require('node:readline');
const { deadlineMs, timedOut } = require('./deadlines');

const KILL_GRACE_MS = 3_000;

/**
 * Resolves once the child printed its listening line; one that exits or stays silent is stopped
 * and the start rejected.
 * @param {string} script
 * @param {string[]} args
 * @param {string} name for errors
 */
async function startListeningChild(script, args, name) {
	const argv = [script, '--port', '0', '--parent-pid', String(process.pid), ...args];
	const child = spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
	/** @type {Promise<{ code: number | null, signal: NodeJS.Signals | null }>} */
	const exited = once(child, 'exit').then(([code, signal]) => ({ code, signal }));
	let stderr = '';
	child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
	/** SIGTERM, SIGKILL after a grace period; resolves with the exit. Safe to call twice. */
	const stop = () => {
		if (child.exitCode === null && child.signalCode === null && !child.killed) {
			child.kill('SIGTERM');
			const timer = setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS);
			void exited.then(() => clearTimeout(timer));
		}
		return exited;
	};
	const lines = readline.createInterface({ input: child.stdout });
	const startMs = deadlineMs('childListening');
	const signal = AbortSignal.timeout(startMs);
	const first = once(lines, 'line', { signal }).catch(() => {
		throw timedOut('its listening line', startMs);
	});
	const early = exited.then(({ code, signal }) => {
		throw new Error(`exited early (code ${code}, signal ${signal})`);
	});
	try {
		/** @type {Record<string, any>} */
		const line = JSON.parse((await Promise.race([first, early]))[0]);
		return { line, stop, exited, stderr: () => stderr };
	} catch (error) {
		await stop();
		throw new Error(`${name} did not start: ${/** @type {Error} */ (error).message}\n${stderr}`);
	} finally {
		lines.close();
		child.stdout.resume(); // nothing else comes there; never let the pipe fill
	}
}

module.exports = { startListeningChild };
