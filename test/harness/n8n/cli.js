'use strict';

// The n8n CLI on a user folder: import credentials and workflows, execute a workflow and read
// what it printed.

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { n8nEnv, superviseN8n } = require('./install');
const { getFreePort } = require('./server');
const { deadlineMs, timedOut } = require('../deadlines');

const STOP_GRACE_MS = 3_000;
const tail = (/** @type {string} */ stdout, /** @type {string} */ stderr) =>
	`\n--- stdout ---\n${stdout.slice(-4000)}\n--- stderr ---\n${stderr.slice(-4000)}`;

/**
 * Runs `n8n <args>` on userFolder to its end, on free ports of its own (`execute` opens the
 * task-runner broker); past timeoutMs it is stopped and the call rejected with its output.
 * @param {string} userFolder
 * @param {string[]} args
 * @param {{ env?: Record<string, string | undefined>, timeoutMs?: number }} [options]
 */
async function n8nCli(userFolder, args, { env = {}, timeoutMs = deadlineMs('n8nCommand') } = {}) {
	const fullEnv = n8nEnv(userFolder, await getFreePort(), await getFreePort(), env);
	const run = superviseN8n(args, fullEnv, userFolder, { graceMs: STOP_GRACE_MS });
	/** @type {Error | undefined} */
	let late;
	const timer = setTimeout(() => {
		late = timedOut(`n8n ${args.join(' ')}`, timeoutMs); // the load now, not after the stop
		void run.stop(STOP_GRACE_MS);
	}, timeoutMs);
	const { code, signal } = await run.exited;
	clearTimeout(timer);
	const [stdout, stderr] = [run.stdout(), run.stderr()];
	if (late) throw Object.assign(late, { message: late.message + tail(stdout, stderr) });
	return { code, signal, stdout, stderr };
}

/**
 * `n8n import:<kind>` of `data` (written to a file in the user folder). Not `ok` when it failed
 * (some versions log an import error and exit 0); throws then if asked to.
 * @param {string} userFolder
 * @param {'credentials' | 'workflow'} kind
 * @param {unknown} data
 */
async function importFile(userFolder, kind, data, { throwOnFailure = false } = {}) {
	const dir = path.join(userFolder, 'harness-input');
	fs.mkdirSync(dir, { recursive: true });
	const file = path.join(dir, `${kind}-${crypto.randomBytes(6).toString('hex')}.json`);
	fs.writeFileSync(file, JSON.stringify(data, null, 2));
	try {
		const result = await n8nCli(userFolder, [`import:${kind}`, `--input=${file}`]);
		const ok = result.code === 0 && !/An error occurred while importing/i.test(result.stdout);
		if (!ok && throwOnFailure) {
			const { code, stdout, stderr } = result;
			throw new Error(`n8n import:${kind} failed (code ${code})${tail(stdout, stderr)}`);
		}
		return { ...result, ok };
	} finally {
		fs.rmSync(file, { force: true });
	}
}

/** An id in n8n's format (16 alphanumerics) from 16 bytes, random by default. */
function n8nId(bytes = crypto.randomBytes(16)) {
	const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
	return Array.from(bytes.subarray(0, 16), (b) => alphabet[b % alphabet.length]).join('');
}

/**
 * Imports credentials ({ id, name, type, data } with plain values: n8n encrypts them), owned by
 * the owner's personal project. Throws on failure.
 * @param {string} userFolder
 * @param {Array<{ id: string, name: string, type: string, data: Record<string, unknown> }>} creds
 */
function importCredentials(userFolder, creds) {
	return importFile(userFolder, 'credentials', creds, { throwOnFailure: true });
}

/**
 * Imports one workflow (given an id when it has none) and returns that id. Throws on failure.
 * @param {string} userFolder
 * @param {Record<string, any>} workflowJson
 */
async function importWorkflow(userFolder, workflowJson) {
	/** @type {Record<string, any>} */
	const workflow = { active: false, settings: { executionOrder: 'v1' }, ...workflowJson };
	workflow.id ||= n8nId();
	const result = await importFile(userFolder, 'workflow', workflow, { throwOnFailure: true });
	return { ...result, id: String(workflow.id) };
}

/**
 * The run `n8n execute --rawOutput` prints among its log lines: from a line that is exactly "{"
 * to the next that is exactly "}"; undefined if none.
 * @param {string} stdout
 * @returns {any}
 */
function parseRunOutput(stdout) {
	const lines = stdout.split(/\r?\n/);
	const start = lines.indexOf('{');
	const end = lines.indexOf('}', start + 1);
	if (start < 0 || end < 0) return undefined;
	try {
		return JSON.parse(lines.slice(start, end + 1).join('\n'));
	} catch {
		return undefined;
	}
}

/**
 * `n8n execute --id=ID --rawOutput`: code 0 on success, 1 when the run failed; `run` is the
 * printed run ({ data: { resultData: { runData, error?, lastNodeExecuted } }, status, ... }).
 * n8n 2.41.1 sometimes dies with SIGSEGV while exiting after printing the complete run (under
 * load, with isolated-vm): then `code` comes from the printed run and `crashedOnExit` is true.
 * @param {string} userFolder
 * @param {string} id
 * @param {{ env?: Record<string, string | undefined>, timeoutMs?: number }} [options]
 */
async function executeWorkflow(userFolder, id, options = {}) {
	const result = await n8nCli(userFolder, ['execute', `--id=${id}`, '--rawOutput'], options);
	const run = parseRunOutput(result.stdout);
	const crashedOnExit = result.code === null && result.signal === 'SIGSEGV' && run !== undefined;
	const code = crashedOnExit ? (run.status === 'success' ? 0 : 1) : result.code;
	return { ...result, code, run, crashedOnExit };
}

/**
 * The items (json only) a node output in a run from executeWorkflow.
 * @param {any} run
 * @param {string} nodeName
 * @returns {Record<string, any>[]}
 */
function nodeOutputItems(run, nodeName, { runIndex = 0, output = 0 } = {}) {
	const task = run?.data?.resultData?.runData?.[nodeName]?.[runIndex];
	return (task?.data?.main?.[output] ?? []).map((/** @type {any} */ item) => item.json);
}

module.exports = {
	n8nCli,
	importFile,
	n8nId,
	importCredentials,
	importWorkflow,
	executeWorkflow,
	nodeOutputItems,
};
