'use strict';

// The n8n CLI on a user folder: import credentials and workflows, execute a workflow and read
// what it printed.

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { n8nEnv } = require('./install');
const { superviseN8n } = require('./process');
const { getFreePort } = require('./server');

const CLI_TIMEOUT_MS = 120_000;
const CLI_STOP_GRACE_MS = 3_000;

/**
 * @typedef {object} CliResult
 * @property {number | null} code exit code (null if killed)
 * @property {string | null} signal
 * @property {boolean} timedOut
 * @property {string} stdout n8n writes its log lines AND results to stdout
 * @property {string} stderr
 */

/**
 * Runs `n8n <args>` against userFolder and waits for it. Each call gets its own free
 * N8N_PORT and N8N_RUNNERS_BROKER_PORT (`execute` opens the task-runner broker), unless env
 * sets them. On timeout n8n is sent SIGTERM, then its process group SIGKILL.
 * @param {string} userFolder
 * @param {string[]} args e.g. ['import:workflow', '--input=/tmp/wf.json']
 * @param {{ env?: Record<string, string | undefined>, timeoutMs?: number }} [options]
 * @returns {Promise<CliResult>}
 */
async function n8nCli(userFolder, args, { env = {}, timeoutMs = CLI_TIMEOUT_MS } = {}) {
	const [port, brokerPort] = [await getFreePort(), await getFreePort()];
	const run = superviseN8n(args, n8nEnv(userFolder, port, brokerPort, env), userFolder, {
		graceMs: CLI_STOP_GRACE_MS,
	});
	let timedOut = false;
	const timer = setTimeout(() => {
		timedOut = true;
		void run.stop(CLI_STOP_GRACE_MS);
	}, timeoutMs);
	const { code, signal } = await run.exited;
	clearTimeout(timer);
	return {
		code: timedOut ? null : code,
		signal,
		timedOut,
		stdout: run.stdout(),
		stderr: run.stderr(),
	};
}

/**
 * @param {string} what
 * @param {CliResult} result
 */
function cliError(what, result) {
	const tail = (/** @type {string} */ s) => s.slice(-4000);
	return new Error(
		`${what} failed (code ${result.code}${result.timedOut ? ', timed out' : ''})\n` +
			`--- stdout ---\n${tail(result.stdout)}\n--- stderr ---\n${tail(result.stderr)}`,
	);
}

/**
 * Writes `data` as JSON to a new file in <userFolder>/harness-input/ and returns its path.
 * @param {string} userFolder
 * @param {string} prefix
 * @param {unknown} data
 */
function writeInputFile(userFolder, prefix, data) {
	const dir = path.join(userFolder, 'harness-input');
	fs.mkdirSync(dir, { recursive: true });
	const file = path.join(dir, `${prefix}-${crypto.randomBytes(6).toString('hex')}.json`);
	fs.writeFileSync(file, JSON.stringify(data, null, 2));
	return file;
}

/**
 * A new id in n8n's format (16 alphanumerics).
 * @returns {string}
 */
function newN8nId() {
	const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
	return Array.from(crypto.randomBytes(16), (b) => alphabet[b % alphabet.length]).join('');
}

/**
 * @typedef {object} CredentialToImport
 * @property {string} id keep it: workflows reference credentials as { id, name }
 * @property {string} name
 * @property {string} type e.g. 'soundSearchApi'
 * @property {Record<string, unknown>} data plain values; n8n encrypts them on import
 */

/**
 * `n8n import:credentials`; the credentials are owned by the instance owner's personal project.
 * Throws if the import fails.
 * @param {string} userFolder
 * @param {CredentialToImport[]} creds
 * @returns {Promise<CliResult>}
 */
async function importCredentials(userFolder, creds) {
	const file = writeInputFile(userFolder, 'credentials', creds);
	const result = await n8nCli(userFolder, ['import:credentials', `--input=${file}`]);
	if (result.code !== 0) throw cliError('n8n import:credentials', result);
	return result;
}

/**
 * `n8n import:workflow` of one workflow (an id is added when it has none). Throws on failure.
 * @param {string} userFolder
 * @param {Record<string, any>} workflowJson
 * @returns {Promise<CliResult & { id: string }>}
 */
async function importWorkflow(userFolder, workflowJson) {
	/** @type {Record<string, any>} */
	const workflow = { active: false, settings: { executionOrder: 'v1' }, ...workflowJson };
	if (!workflow.id) workflow.id = newN8nId();
	const file = writeInputFile(userFolder, 'workflow', workflow);
	const result = await n8nCli(userFolder, ['import:workflow', `--input=${file}`]);
	if (result.code !== 0) throw cliError('n8n import:workflow', result);
	return { ...result, id: String(workflow.id) };
}

/**
 * The run JSON that `n8n execute --rawOutput` prints among its log lines: from a line that is
 * exactly "{" to the next line that is exactly "}" (nested lines are indented).
 * @param {string} stdout
 * @returns {any | undefined} the run ({ data: { resultData: { runData, error?, lastNodeExecuted } },
 *   status: 'success' | 'error', finished?, mode, startedAt, stoppedAt }) or undefined
 */
function parseRunOutput(stdout) {
	const lines = stdout.split(/\r?\n/);
	const start = lines.indexOf('{');
	if (start < 0) return undefined;
	const end = lines.indexOf('}', start + 1);
	if (end < 0) return undefined;
	try {
		return JSON.parse(lines.slice(start, end + 1).join('\n'));
	} catch {
		return undefined;
	}
}

/**
 * `n8n execute --id=ID --rawOutput`. Exit code 0 on success, 1 when the run failed (then
 * run.data.resultData.error and the failing node's runData[..].error hold the error; the text is
 * also on stdout after "Execution error:"). stderr is normally empty.
 *
 * n8n 2.41.1 sometimes dies with SIGSEGV while exiting, after it has printed the complete run
 * (seen under CPU load, with the default "vm" expression engine, i.e. isolated-vm; not with
 * N8N_EXPRESSION_ENGINE=legacy). Then `code` is derived from the printed run's status (0 for
 * success, else 1, what n8n would have returned), `crashedOnExit` is true and `signal` says SIGSEGV.
 * @param {string} userFolder
 * @param {string} id
 * @param {{ env?: Record<string, string | undefined>, timeoutMs?: number }} [options]
 * @returns {Promise<CliResult & { run: any, crashedOnExit: boolean }>}
 */
async function executeWorkflow(userFolder, id, options = {}) {
	const result = await n8nCli(userFolder, ['execute', `--id=${id}`, '--rawOutput'], options);
	const run = parseRunOutput(result.stdout);
	const crashedOnExit = result.code === null && result.signal === 'SIGSEGV' && run !== undefined;
	const code = crashedOnExit ? (run.status === 'success' ? 0 : 1) : result.code;
	return { ...result, code, run, crashedOnExit };
}

/**
 * The items (json only) a node output in a parsed run.
 * @param {any} run from executeWorkflow
 * @param {string} nodeName
 * @param {{ runIndex?: number, output?: number }} [options]
 * @returns {Record<string, unknown>[]}
 */
function nodeOutputItems(run, nodeName, { runIndex = 0, output = 0 } = {}) {
	const task = run?.data?.resultData?.runData?.[nodeName]?.[runIndex];
	const items = task?.data?.main?.[output] ?? [];
	return items.map((/** @type {{ json: Record<string, unknown> }} */ item) => item.json);
}

module.exports = {
	n8nCli,
	importCredentials,
	importWorkflow,
	executeWorkflow,
	parseRunOutput,
	nodeOutputItems,
};
