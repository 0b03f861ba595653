'use strict';

// Drives a real, pinned n8n application (n8n-host/<line>/) from tests and scripts: install it once,
// make throw-away user folders with the community package installed, run CLI commands
// (import, execute) and a server (`n8n start`) and talk to its REST API as the owner.
//
// Plain CommonJS on purpose: the project's strict linter applies node-code rules to every .ts file.
// The environment n8n runs with comes from n8n_env in n8n-host/lib.sh (one definition for bash and
// for this file). Every n8n process is started through a small supervisor (test/harness/supervisor.js) that
// is the leader of its own process group: stopping kills the whole group (n8n and its task-runner
// child), and the supervisor stops n8n on its own when this process dies (its IPC channel closes).
//
// Which n8n: the line named by N8N_LINE when this module is loaded (2.x by default, or 1.x; see
// n8n-host/README.md). A jest project per line sets it (jest.e2e.config.js); a script that wants
// both lines runs once per line.

const { spawn, spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { liveSupervisors, spawnSupervised, stopSupervised } = require('./supervisor');

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const HOST_DIR = path.join(REPO_ROOT, 'n8n-host');
const LIB_SH = path.join(HOST_DIR, 'lib.sh');
const INSTALL_SH = path.join(HOST_DIR, 'install.sh');
const N8N_LINE = process.env.N8N_LINE || '2.x';
/** Where the line is installed, from n8n_install_dir in lib.sh (one definition). */
const INSTALL_DIR = path.resolve(libSh('n8n_install_dir'));
const N8N_BIN = path.join(INSTALL_DIR, 'node_modules', '.bin', 'n8n');

const CLI_TIMEOUT_MS = 120_000;
const READY_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 10_000;
const CLI_STOP_GRACE_MS = 3_000;
// Enough of a server's output to explain a failed start, without growing without bound.
const LOG_TAIL_CHARS = 20_000;

/** @type {Promise<string> | undefined} */
let installPromise;

/**
 * Runs a function of n8n-host/lib.sh for this module's line and returns what it printed.
 * @param {string} fn
 * @returns {string}
 */
function libSh(fn) {
	const result = spawnSync('bash', ['-c', 'source "$0" >&2 && "$1"', LIB_SH, fn], {
		env: { ...process.env, N8N_LINE },
		encoding: 'utf8',
	});
	if (result.status !== 0) throw new Error(`n8n-host/lib.sh ${fn} failed: ${result.stderr}`);
	return result.stdout.trim();
}

/**
 * The version of the installed n8n of this line (after ensureN8nInstalled).
 * @returns {string}
 */
function n8nVersion() {
	return JSON.parse(
		fs.readFileSync(path.join(INSTALL_DIR, 'node_modules', 'n8n', 'package.json'), 'utf8'),
	).version;
}

/**
 * Installs this line's pinned n8n (n8n-host/install.sh <line>) unless already installed; runs the script at most
 * once per process. The first install on a machine takes about 4-5 minutes; afterwards well under
 * a second.
 * @returns {Promise<string>} path of the n8n executable
 */
function ensureN8nInstalled() {
	if (!installPromise) {
		installPromise = new Promise((resolve, reject) => {
			const child = spawn('bash', [INSTALL_SH, N8N_LINE], {
				stdio: ['ignore', 'inherit', 'inherit'],
			});
			child.on('error', reject);
			child.on('exit', (code, signal) => {
				if (code === 0 && fs.existsSync(N8N_BIN)) resolve(N8N_BIN);
				else reject(new Error(`n8n-host/install.sh failed (code ${code}, signal ${signal})`));
			});
		});
		installPromise.catch(() => {
			installPromise = undefined;
		});
	}
	return installPromise;
}

/**
 * A TCP port that was free on 127.0.0.1 a moment ago.
 * @returns {Promise<number>}
 */
function getFreePort() {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			const port = typeof address === 'object' && address ? address.port : 0;
			server.close(() => resolve(port));
		});
	});
}

/**
 * The environment an n8n process gets: this process's environment plus n8n_env from
 * n8n-host/lib.sh (which also puts Node 24 first on PATH), minus NODE_ENV (jest sets it to "test",
 * and n8n then refuses to load nodes) and NODE_OPTIONS; then `extra` on top.
 * @param {string} userFolder
 * @param {number} port
 * @param {number} brokerPort
 * @param {Record<string, string | undefined>} [extra]
 * @returns {Record<string, string>}
 */
function n8nEnv(userFolder, port, brokerPort, extra = {}) {
	/** @type {Record<string, string | undefined>} */
	const base = { ...process.env, N8N_LINE };
	delete base.NODE_ENV;
	delete base.NODE_OPTIONS;
	const result = spawnSync(
		'bash',
		[
			'-c',
			'source "$0" >&2 && n8n_env "$1" "$2" "$3" >&2 && env -0',
			LIB_SH,
			userFolder,
			String(port),
			String(brokerPort),
		],
		{ env: /** @type {NodeJS.ProcessEnv} */ (base), encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
	);
	if (result.status !== 0) {
		throw new Error(`n8n_env failed (${result.status}): ${result.stderr}`);
	}
	/** @type {Record<string, string>} */
	const env = {};
	for (const entry of result.stdout.split('\0')) {
		const eq = entry.indexOf('=');
		if (eq > 0) env[entry.slice(0, eq)] = entry.slice(eq + 1);
	}
	for (const [key, value] of Object.entries(extra)) {
		if (value === undefined) delete env[key];
		else env[key] = value;
	}
	return env;
}

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

/**
 * Creates a fresh n8n user folder (n8n keeps its state in <folder>/.n8n) in the system temp dir,
 * with the community package from an `npm pack` tarball installed the way n8n installs one
 * (see install_package_tarball in n8n-host/lib.sh).
 * @param {{ packageTarball?: string }} [options]
 * @returns {Promise<string>} the folder (remove it with removeN8nUserFolder)
 */
async function createN8nUserFolder({ packageTarball } = {}) {
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-user-'));
	if (packageTarball) {
		const result = spawnSync(
			'bash',
			[
				'-c',
				'source "$0" && install_package_tarball "$1" "$2"',
				LIB_SH,
				path.resolve(packageTarball),
				folder,
			],
			{ encoding: 'utf8' },
		);
		if (result.status !== 0) {
			fs.rmSync(folder, { recursive: true, force: true });
			throw new Error(`install_package_tarball failed (${result.status}): ${result.stderr}`);
		}
	}
	return folder;
}

/**
 * Removes a user folder made by createN8nUserFolder (stop any server using it first).
 * @param {string} folder
 */
function removeN8nUserFolder(folder) {
	fs.rmSync(folder, { recursive: true, force: true, maxRetries: 3 });
}

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

/**
 * @typedef {object} N8nServer
 * @property {string} url e.g. http://127.0.0.1:40123
 * @property {number} pid n8n's own pid
 * @property {number} port
 * @property {number} brokerPort
 * @property {() => Promise<{code: number | null, signal: string | null}>} stop SIGTERM, SIGKILL
 *   after 10 s; waits for the exit. Safe to call twice.
 * @property {() => string} logs the last ~20 KB of its stdout and stderr
 */

/**
 * Whether a starting n8n serves its REST API: /healthz/readiness answers 200 (n8n 1.x says so as
 * soon as its database is migrated, before its REST routes exist) and so does GET /rest/settings.
 * @param {string} url
 * @returns {Promise<boolean>}
 */
async function isReady(url) {
	for (const route of ['/healthz/readiness', '/rest/settings']) {
		try {
			const response = await fetch(url + route, { signal: AbortSignal.timeout(2_000) });
			await response.arrayBuffer();
			if (response.status !== 200) return false;
		} catch {
			return false; // not listening yet
		}
	}
	return true;
}

/**
 * `n8n start` on 127.0.0.1, resolved once GET /healthz/readiness and GET /rest/settings answer 200 (or rejected
 * after 60 s, the server then stopped). Ports default to free ones. Call stop() when done.
 * @param {string} userFolder
 * @param {{ port?: number, brokerPort?: number, env?: Record<string, string | undefined>,
 *   readyTimeoutMs?: number }} [options]
 * @returns {Promise<N8nServer>}
 */
async function startN8n(
	userFolder,
	{ port, brokerPort, env = {}, readyTimeoutMs = READY_TIMEOUT_MS } = {},
) {
	const serverPort = port ?? (await getFreePort());
	const serverBrokerPort = brokerPort ?? (await getFreePort());
	const url = `http://127.0.0.1:${serverPort}`;
	const run = superviseN8n(
		['start'],
		n8nEnv(userFolder, serverPort, serverBrokerPort, env),
		userFolder,
		{
			tailOnly: true,
			graceMs: STOP_GRACE_MS,
		},
	);
	const logs = () => `--- stdout ---\n${run.stdout()}\n--- stderr ---\n${run.stderr()}`;
	/** @type {{code: number | null, signal: string | null} | undefined} */
	let exit;
	void run.exited.then((e) => (exit = e));
	const stop = async () => {
		await run.stop(STOP_GRACE_MS);
		return run.exited;
	};

	const deadline = Date.now() + readyTimeoutMs;
	for (;;) {
		if (exit) {
			throw new Error(
				`n8n start exited early (code ${exit.code}, signal ${exit.signal})\n${logs()}`,
			);
		}
		if (Date.now() > deadline) {
			await stop();
			throw new Error(
				`n8n start: ${url}/healthz/readiness not ready after ${readyTimeoutMs} ms\n${logs()}`,
			);
		}
		if (await isReady(url)) break;
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	const pid = await run.childPid;
	return { url, pid, port: serverPort, brokerPort: serverBrokerPort, stop, logs };
}

/**
 * @typedef {(method: string, urlPath: string, body?: unknown,
 *   headers?: Record<string, string>) => Promise<{ status: number, body: any }>} RestRequest
 *   urlPath is relative to the server, e.g. '/rest/workflows'; body is sent as JSON; the answer's
 *   body is parsed JSON when it is JSON (n8n wraps results in { data }), else text. Never throws
 *   on HTTP errors.
 */

/**
 * Creates the owner account (POST /rest/owner/setup, once per user folder) and logs in
 * (POST /rest/login with a browser-id header). n8n binds its auth cookie to the browser id, so
 * every request sends both.
 * @param {string} url server URL from startN8n
 * @param {{ email?: string, password?: string, firstName?: string, lastName?: string }} [owner]
 * @returns {Promise<RestRequest & { owner: { email: string, password: string }, user: any }>}
 */
async function setupOwner(url, owner = {}) {
	const email = owner.email ?? 'owner@example.com';
	const password = owner.password ?? 'Harness-Passw0rd';
	const browserId = `harness-${crypto.randomBytes(8).toString('hex')}`;
	/** @type {Map<string, string>} */
	const cookies = new Map();

	/** @type {RestRequest} */
	const request = async (method, urlPath, body, headers = {}) => {
		/** @type {Record<string, string>} */
		const sendHeaders = { 'browser-id': browserId, accept: 'application/json', ...headers };
		if (cookies.size > 0) {
			sendHeaders.cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
		}
		if (body !== undefined) sendHeaders['content-type'] = 'application/json';
		const response = await fetch(url + urlPath, {
			method,
			headers: sendHeaders,
			body: body === undefined ? undefined : JSON.stringify(body),
			redirect: 'manual',
		});
		for (const setCookie of response.headers.getSetCookie()) {
			const [pair] = setCookie.split(';');
			const eq = pair.indexOf('=');
			if (eq > 0) cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
		}
		const text = await response.text();
		let parsed = text;
		if ((response.headers.get('content-type') ?? '').includes('json')) {
			try {
				parsed = JSON.parse(text);
			} catch {
				// keep the text
			}
		}
		return { status: response.status, body: parsed };
	};

	const setup = await request('POST', '/rest/owner/setup', {
		email,
		password,
		firstName: owner.firstName ?? 'Harness',
		lastName: owner.lastName ?? 'Owner',
	});
	// A restarted n8n on the same user folder already has its owner: then only log in.
	const alreadySetUp = setup.status === 400 && /already setup/.test(JSON.stringify(setup.body));
	if (setup.status !== 200 && !alreadySetUp) {
		throw new Error(`POST /rest/owner/setup: ${setup.status} ${JSON.stringify(setup.body)}`);
	}
	const login = await request('POST', '/rest/login', { emailOrLdapLoginId: email, password });
	if (login.status !== 200) {
		throw new Error(`POST /rest/login: ${login.status} ${JSON.stringify(login.body)}`);
	}
	return Object.assign(request, { owner: { email, password }, user: login.body?.data });
}

/**
 * Presses a credential's "Test" button the way the editor does: POST /rest/credentials/test with
 * { credentials: { id, name, type, data } }. The id must be a stored credential the user can read
 * (e.g. one from importCredentials). n8n tests the `data` sent (redacted secrets in it are
 * replaced by the stored values), not the stored data: without `data` this helper first loads
 * the stored, redacted data (GET /rest/credentials/:id?includeData=true), as the editor has it.
 * @param {RestRequest} request from setupOwner
 * @param {{ id: string, name?: string, type: string, data?: Record<string, unknown> }} credential
 * @returns {Promise<{ status: 'OK' | 'Error', message?: string }>}
 */
async function testCredential(request, credential) {
	let { data, name } = credential;
	if (data === undefined || name === undefined) {
		const stored = await request('GET', `/rest/credentials/${credential.id}?includeData=true`);
		if (stored.status !== 200) {
			throw new Error(
				`GET /rest/credentials/${credential.id}: ${stored.status} ${JSON.stringify(stored.body)}`,
			);
		}
		data = data ?? stored.body.data.data;
		name = name ?? stored.body.data.name;
	}
	const response = await request('POST', '/rest/credentials/test', {
		credentials: { ...credential, name, data },
	});
	if (response.status !== 200) {
		throw new Error(
			`POST /rest/credentials/test: ${response.status} ${JSON.stringify(response.body)}`,
		);
	}
	return response.body.data;
}

/**
 * Saves a workflow the way the editor does (POST /rest/workflows); n8n picks the id.
 * @param {RestRequest} request from setupOwner
 * @param {Record<string, any>} workflow
 * @returns {Promise<{ id: string, versionId: string }>}
 */
async function createWorkflowViaRest(request, workflow) {
	const { id: _ignored, ...fields } = workflow;
	// n8n 1.x requires `active` (its column has no default); 2.x takes it too.
	const response = await request('POST', '/rest/workflows', { active: false, ...fields });
	if (response.status !== 200) {
		throw new Error(`POST /rest/workflows: ${response.status} ${JSON.stringify(response.body)}`);
	}
	return { id: response.body.data.id, versionId: response.body.data.versionId };
}

/**
 * Runs a stored workflow like the editor's "Execute workflow" button (POST
 * /rest/workflows/:id/run with { workflowData, triggerToStartFrom: { name } }) and polls
 * GET /rest/executions/:executionId until it has finished.
 * @param {RestRequest} request from setupOwner
 * @param {string} workflowId
 * @param {{ triggerNode: string, timeoutMs?: number }} options
 * @returns {Promise<{ executionId: string, execution: any, run: any }>} run: the execution's data
 *   parsed into the same shape as executeWorkflow's run.data ({ resultData: { runData, ... } })
 */
async function runWorkflowViaRest(request, workflowId, { triggerNode, timeoutMs = 60_000 }) {
	// n8n 1.x runs the workflow sent in the body (as its editor does); 2.x runs the stored one.
	const stored = await request('GET', `/rest/workflows/${workflowId}`);
	if (stored.status !== 200) {
		throw new Error(
			`GET /rest/workflows/${workflowId}: ${stored.status} ${JSON.stringify(stored.body)}`,
		);
	}
	const started = await request('POST', `/rest/workflows/${workflowId}/run`, {
		workflowData: stored.body.data,
		triggerToStartFrom: { name: triggerNode },
	});
	const executionId = started.body?.data?.executionId;
	if (started.status !== 200 || !executionId) {
		throw new Error(
			`POST /rest/workflows/${workflowId}/run: ${started.status} ${JSON.stringify(started.body)}`,
		);
	}
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const response = await request('GET', `/rest/executions/${executionId}`);
		const execution = response.body?.data;
		const finished =
			response.status === 200 &&
			execution &&
			!['new', 'running', 'waiting'].includes(execution.status);
		// Older n8n (1.85) can report an execution finished a moment before its data is saved.
		const run = finished ? parseExecutionData(execution.data) : undefined;
		if (run?.resultData) return { executionId, execution, run };
		if (Date.now() > deadline) {
			throw new Error(
				`execution ${executionId} not finished after ${timeoutMs} ms: ${JSON.stringify(response.body)}`,
			);
		}
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/**
 * GET /rest/executions/:id returns the run data "flatted"-serialised (an array of objects whose
 * string values that are numeric indices refer to other entries). Rebuilds the object.
 * @param {unknown} data
 * @returns {any}
 */
function parseExecutionData(data) {
	/** @type {any} */
	let table = data;
	if (typeof table === 'string') {
		try {
			table = JSON.parse(table);
		} catch {
			return data;
		}
	}
	if (!Array.isArray(table)) return table;
	/** @type {Map<number, any>} */
	const revived = new Map();
	/** @param {number} index */
	const revive = (index) => {
		if (revived.has(index)) return revived.get(index);
		const raw = table[index];
		if (raw === null || typeof raw !== 'object') {
			revived.set(index, raw);
			return raw;
		}
		/** @type {any} */
		const out = Array.isArray(raw) ? [] : {};
		revived.set(index, out);
		for (const [key, value] of Object.entries(raw)) {
			out[key] = typeof value === 'string' && /^\d+$/.test(value) ? revive(Number(value)) : value;
		}
		return out;
	};
	return revive(0);
}

module.exports = {
	N8N_LINE,
	N8N_BIN,
	INSTALL_DIR,
	HOST_DIR,
	n8nVersion,
	ensureN8nInstalled,
	getFreePort,
	n8nEnv,
	createN8nUserFolder,
	removeN8nUserFolder,
	n8nCli,
	superviseN8n,
	importCredentials,
	importWorkflow,
	executeWorkflow,
	parseRunOutput,
	nodeOutputItems,
	startN8n,
	setupOwner,
	testCredential,
	createWorkflowViaRest,
	runWorkflowViaRest,
	parseExecutionData,
};
