'use strict';

// `npm start` (through scripts/start.sh): the stack of test/harness/stack/ (reference service on
// 127.0.0.1:4010, a real n8n on 5678, other ports when busy), its state kept in .cache/start/.
// Prints the editor URL and the login, then each request the service receives. Ctrl-C / SIGTERM
// stop everything it started and exit 0; if a part dies, the rest is stopped and it exits 1.

const fs = require('node:fs');
const path = require('node:path');
const { setTimeout: sleep } = require('node:timers/promises');
const { Stack, DEMO_OWNER, DEMO_WORKFLOW, SERVICE_KEY } = require('../test/harness/stack');
const { isAlive } = require('../test/harness/supervisor');

const REPO_ROOT = path.resolve(__dirname, '..');
const STATE_DIR = path.join(REPO_ROOT, '.cache', 'start');
const USER_FOLDER = path.join(STATE_DIR, 'n8n');
const PREFERRED = { service: 4010, model: 4011, n8n: 5678, broker: 5679 };
const HELP = `Usage: npm start [-- --reset | --new-mcp-token | --temp]
  --reset          remove .cache/start/n8n/ first (owner, executions and your own workflows are lost)
  --new-mcp-token  replace the token MCP clients send (the old one stops working)
  --temp           a new n8n state in a temp folder, on free ports, removed when it stops (beside
                   your own npm start and without touching it; the editor tests use it)`;
const FLAGS = ['--reset', '--new-mcp-token', '--temp'];

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
	console.log(HELP);
	process.exit(0);
}
const unknown = args.filter((arg) => !FLAGS.includes(arg));
if (unknown.length > 0) {
	console.error(`Unknown argument(s): ${unknown.join(' ')} (try --help)`);
	process.exit(2);
}
const TEMP = args.includes('--temp');
const say = (/** @type {string} */ line) => console.log(line);
/** A path as the banner shows it: from the repository when inside it, else whole (--temp). */
const relative = (/** @type {string} */ p) => {
	const inRepo = path.relative(REPO_ROOT, p);
	return inRepo.startsWith('..') ? p : inRepo || '.';
};
const plural = (/** @type {number} */ n, /** @type {string} */ word) =>
	`${n} ${word}${n === 1 ? '' : 's'}`;
// --temp must not touch a running `npm start` nor its state: a temp folder, free ports.
const STATE = TEMP ? 'a temp folder, removed when it stops' : `${relative(USER_FOLDER)}/`;

let stepNo = 0;
const stack = new Stack({
	...(!TEMP && {
		userFolder: USER_FOLDER,
		servicePort: PREFERRED.service,
		modelPort: PREFERRED.model,
		n8nPort: PREFERRED.n8n,
		brokerPort: PREFERRED.broker,
	}),
	newMcpToken: args.includes('--new-mcp-token'),
	log: (line) => say(`  [${++stepNo}] ${line}`),
	progress: (line) => say(`      ${line}`),
});

/** @type {'starting' | 'running' | 'stopping'} */
let phase = 'starting';
let shuttingDown = false;

/** Stops everything this process started (once) and exits with `code`. */
async function shutdown(/** @type {number} */ code, /** @type {string} */ why) {
	if (shuttingDown) return;
	[shuttingDown, phase] = [true, 'stopping'];
	say(`\n${why}: stopping n8n and the reference service ...`);
	try {
		await stack.stop();
	} catch (error) {
		console.error(`While stopping: ${/** @type {Error} */ (error).message}`);
		code ||= 1;
	}
	const left = stack.livePids();
	if (left.length > 0) console.error(`Still running after stop: pid ${left.join(', ')}`);
	else say('Stopped. Nothing left running.');
	process.exit(left.length > 0 ? code || 1 : code);
}

/** A stop asked for from outside: while starting, start() stops at its next step (see main()). */
function stopRequested(/** @type {string} */ why) {
	if (phase !== 'starting') return void shutdown(0, why);
	phase = 'stopping';
	say(`\n${why}: stopping after the current step ...`);
	void stack.stop();
}

let firstSignalAt = 0;
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
	process.on(signal, () => {
		if (phase === 'stopping') {
			// Ctrl-C under `npm start` arrives twice at once (from the terminal, and forwarded by npm).
			if (Date.now() - firstSignalAt > 1000)
				say(`(${signal} again: still stopping; n8n gets up to 10 s before it is killed)`);
			return;
		}
		firstSignalAt = Date.now();
		stopRequested(signal);
	});
}

// When the parent goes (npm's `sh -c` killed, a terminal closed), stop too.
const parentPid = process.ppid;
setInterval(() => {
	if (process.ppid !== parentPid && phase !== 'stopping') {
		stopRequested(`Parent process ${parentPid} gone`);
	}
}, 1000).unref();

/** Prints each request the reference service records, with the credits and calls so far then. */
async function followLedger() {
	let credits = 0;
	for (let lastSeq = 0; phase === 'running'; await sleep(1000)) {
		const ledger = await stack.service?.ledger().catch(() => undefined);
		if (!ledger) continue;
		for (const r of ledger.requests.filter((request) => request.seq > lastSeq)) {
			lastSeq = r.seq;
			credits += r.creditsCharged ?? 0;
			const cursor = r.cursor ? ' cursor=…' : '';
			say(
				`[service ${String(r.at).slice(11, 19)}] ${r.method} ${r.path} q=${JSON.stringify(r.query ?? r.q)} limit=${r.limit ?? '-'}${cursor}` +
					` -> ${r.status ?? 'dropped'} ${r.outcome}, ${plural(r.itemCount ?? 0, 'sound')}, ${plural(r.creditsCharged ?? 0, 'credit')}` +
					` (so far ${plural(credits, 'credit')} in ${plural(r.seq, 'call')})`,
			);
		}
	}
}

/** The editor address, login, service, credential and workflows, once everything is up. */
function printReady(/** @type {string} */ seconds) {
	const { n8n, service, credential, workflows, problems } = stack;
	if (!n8n || !service) return;
	const busy = (/** @type {number} */ port, /** @type {number} */ wanted) =>
		port === wanted ? '' : `   (port ${wanted} was busy)`;
	const servicePort = Number(new URL(service.url).port);
	const line = '-'.repeat(78);
	say(
		[
			'',
			line,
			`Ready in ${seconds} s (since the command started).`,
			'',
			`  n8n editor:         ${n8n.url}/${busy(n8n.port, PREFERRED.n8n)}`,
			`  Log in as:          ${DEMO_OWNER.email}`,
			`  Password:           ${DEMO_OWNER.password}`,
			`  Try it:             ${stack.workflowUrl(DEMO_WORKFLOW.id)}`,
			'                      ("Sound Search demo": press "Execute workflow", then open the node)',
			'',
			`  Reference service:  ${service.url}   API key: ${SERVICE_KEY}${busy(servicePort, PREFERRED.service)}`,
			`  Credential:         "${credential.name}" (id ${credential.id}) points at it`,
			`  Fake OpenAI model:  ${stack.model?.url}   credential "${stack.openAiCredential.name}" points at it (AI-agent example; not OpenAI)`,
			`  Files folder:       ${relative(stack.filesFolder)}/   (the examples' .n8n-files/)`,
			...(stack.demoData.length > 0
				? [
						'  Demo trend data:    seeded so the trend examples show something on day one (not real data):',
						...stack.demoData.map((d) => `    - ${d}`),
					]
				: []),
			'  Workflows:',
			...workflows.flatMap((w) => [
				`    - ${w.name}  ${stack.workflowUrl(w.id)}${w.file === '(built in)' ? '' : `  (${w.file})`}`,
				...mcpLines(stack.mcpServer(w.id)),
			]),
			...(problems.length > 0
				? ['  Not imported:', ...problems.map((p) => `    ! ${p.split('\n')[0]}`)]
				: []),
			'',
			`  The demo, the examples and the credentials are imported again when their files change;`,
			`  your own workflows are kept in ${STATE} ("npm start -- --reset" forgets them).`,
			'',
			`  Stop: press Ctrl-C (or: kill ${process.pid}). Requests the service receives are shown below.`,
			line,
		].join('\n'),
	);
}

/**
 * How to connect an MCP client to a published MCP example: URL, token, lines to paste.
 * @param {{ url: string, token: string } | undefined} server
 */
function mcpLines(server) {
	if (!server) return [];
	const { url, token } = server;
	const header = `Authorization: Bearer ${token}`;
	const json = {
		mcpServers: {
			'sound-search': { type: 'http', url, headers: { Authorization: `Bearer ${token}` } },
		},
	};
	return [
		`      MCP server (published, streamable HTTP): ${url}`,
		`      MCP token (Bearer; clients without it get 403): ${token}`,
		`      Claude Code:  claude mcp add --transport http sound-search ${url} --header "${header}"`,
		`      Other clients (JSON): ${JSON.stringify(json)}`,
		'      New token: npm start -- --new-mcp-token (or change credential "Sound Search MCP token" in n8n)',
	];
}

async function main() {
	const t0 = Number(process.env.SOUND_SEARCH_START_MS) || Date.now();
	if (!TEMP && !claimStateFolder()) return process.exit(1);
	if (!TEMP && args.includes('--reset') && fs.existsSync(USER_FOLDER)) {
		say(`--reset: removing ${relative(USER_FOLDER)}/`);
		fs.rmSync(USER_FOLDER, { recursive: true, force: true });
	}
	const firstRun = TEMP || !fs.existsSync(path.join(USER_FOLDER, '.n8n'));
	const kept = firstRun ? 'new' : 'kept from the last run';
	say(`Starting Sound Search locally (n8n state in ${STATE}, ${kept}) ...`);
	try {
		await stack.start();
	} catch (error) {
		if (phase === 'stopping') return shutdown(0, 'Stopped while starting');
		console.error(`\nCould not start: ${/** @type {Error} */ (error).message}`);
		if (!firstRun) {
			console.error(
				`If n8n's saved state is the problem, start from a clean one: npm start -- --reset`,
			);
		}
		return shutdown(1, 'Start failed');
	}
	phase = 'running';
	printReady(((Date.now() - t0) / 1000).toFixed(1));
	void followLedger();
	stack.watch((name, details) => {
		console.error(`\nThe ${name} stopped unexpectedly. Its last output:\n${details || '(none)'}`);
		void shutdown(1, `${name} died`);
	});
}

/** One `npm start` per state folder (two n8n on one database would corrupt it). */
function claimStateFolder() {
	const pidFile = path.join(STATE_DIR, 'npm-start.pid');
	const other = Number(fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8'));
	if (other !== process.pid && isAlive(other)) {
		console.error(`npm start is already running on ${relative(STATE_DIR)}/ (pid ${other}).`);
		console.error(`Use that one, or stop it first: kill ${other}`);
		return false;
	}
	fs.mkdirSync(STATE_DIR, { recursive: true });
	fs.writeFileSync(pidFile, String(process.pid));
	process.on('exit', () => fs.rmSync(pidFile, { force: true }));
	return true;
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
