'use strict';

// `npm start`: the whole thing running locally, for a newcomer to click through.
//   - the reference service (the paid service's local stand-in) on 127.0.0.1:4010 if free,
//     API key `sandbox-key`;
//   - a real n8n on 127.0.0.1:5678 if free, its state kept in .cache/start/, with the freshly
//     packed package installed the way n8n installs a community package;
//   - an owner account, the credential "Sound Search account" pointing at the service, the
//     example workflows (examples/*.json) and a ready-to-run "Sound Search demo" workflow.
// Prints the editor URL and the login, then each request the service receives. Ctrl-C / SIGTERM
// stop everything it started (by pid) and exit 0; if n8n or the service dies, the rest is stopped
// and it exits 1. Run it through scripts/start.sh (Node 24, dependencies, n8n install).
//
// Usage: node scripts/start.js [--reset]   (--reset: forget .cache/start/ first: new owner,
// no executions, no workflows of your own)
//        node scripts/start.js --smoke     (npm test: the same start in a temp folder on free
// ports, the demo workflow run once through the editor's REST API, then everything stopped)

const fs = require('node:fs');
const path = require('node:path');
const { runWorkflowViaRest, nodeOutputItems } = require('../test/harness/n8n');
const {
	Stack,
	StackAborted,
	DEMO_OWNER,
	DEMO_WORKFLOW_ID,
	SERVICE_KEY,
} = require('../test/harness/stack');

const REPO_ROOT = path.resolve(__dirname, '..');
const STATE_DIR = path.join(REPO_ROOT, '.cache', 'start');
const USER_FOLDER = path.join(STATE_DIR, 'n8n');
const PREFERRED = { service: 4010, n8n: 5678, broker: 5679 };

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
	console.log(
		'Usage: npm start [-- --reset | --smoke]\n  --reset  remove .cache/start/ first (owner, executions and your own workflows are lost)\n  --smoke  start in a temp folder on free ports, run the demo workflow once, stop',
	);
	process.exit(0);
}
const unknown = args.filter((arg) => arg !== '--reset' && arg !== '--smoke');
const SMOKE = args.includes('--smoke');
if (unknown.length > 0) {
	console.error(`Unknown argument(s): ${unknown.join(' ')} (try --help)`);
	process.exit(2);
}

const say = (/** @type {string} */ line) => console.log(line);
const relative = (/** @type {string} */ p) => path.relative(REPO_ROOT, p) || '.';

let stepNo = 0;
// The smoke run must not touch a running `npm start` nor its state: a temp folder, free ports.
const stack = new Stack({
	...(!SMOKE && {
		userFolder: USER_FOLDER,
		servicePort: PREFERRED.service,
		n8nPort: PREFERRED.n8n,
		brokerPort: PREFERRED.broker,
	}),
	owner: DEMO_OWNER,
	log: (line) => {
		// Stack logs "<step> ..." then "<step>: done in N s"; show the second form only.
		if (line.endsWith(' ...')) return;
		stepNo += 1;
		say(`  [${stepNo}] ${line}`);
	},
});

/** @type {'starting' | 'running' | 'stopping'} */
let phase = 'starting';
/** @type {NodeJS.Timeout | undefined} */
let ledgerTimer;

/**
 * Stops everything this process started and exits with `code`.
 * @param {number} code
 * @param {string} why
 */
async function shutdown(code, why) {
	if (phase === 'stopping') return;
	phase = 'stopping';
	if (ledgerTimer) clearInterval(ledgerTimer);
	say(`\n${why}: stopping n8n and the reference service ...`);
	try {
		await stack.stop();
	} catch (error) {
		console.error(`While stopping: ${/** @type {Error} */ (error).message}`);
		code = code || 1;
	}
	const left = stack.livePids();
	if (left.length > 0) {
		console.error(`Still running after stop: pid ${left.join(', ')}`);
		code = code || 1;
	} else {
		say('Stopped. Nothing left running.');
	}
	process.exit(code);
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
		if (phase === 'starting') {
			// start() notices at its next step, stops what it started and rejects (see main()).
			phase = 'stopping';
			say(`\n${signal}: stopping after the current step ...`);
			void stack.stop();
			return;
		}
		void shutdown(0, signal);
	});
}

// A safety net for `npm start` run without `exec` (npm's `sh -c` dies at once on SIGTERM and leaves
// this process behind) or a terminal that goes away: when the parent process is gone, stop too.
const parentPid = process.ppid;
setInterval(() => {
	if (process.ppid !== parentPid && phase !== 'stopping') {
		if (phase === 'starting') {
			phase = 'stopping';
			void stack.stop();
		} else {
			void shutdown(0, `Parent process ${parentPid} gone`);
		}
	}
}, 1000).unref();

/** Prints each request the reference service records, as it comes (polls its ledger). */
function followLedger() {
	let lastSeq = 0;
	let busy = false;
	ledgerTimer = setInterval(async () => {
		if (busy || phase !== 'running' || !stack.service) return;
		busy = true;
		try {
			const ledger = await stack.service.ledger();
			for (const r of /** @type {any[]} */ (ledger.requests)) {
				if (r.seq <= lastSeq) continue;
				lastSeq = r.seq;
				const time = String(r.at).slice(11, 19);
				const plural = (/** @type {number} */ n, /** @type {string} */ word) =>
					`${n} ${word}${n === 1 ? '' : 's'}`;
				const cursor = r.cursor ? ' cursor=…' : '';
				say(
					`[service ${time}] ${r.method} ${r.path} q=${JSON.stringify(r.query ?? r.q)} limit=${r.limit ?? '-'}${cursor}` +
						` -> ${r.status ?? 'dropped'} ${r.outcome}, ${plural(r.itemCount ?? 0, 'sound')}, ${plural(r.creditsCharged ?? 0, 'credit')}` +
						` (so far ${plural(ledger.totals.creditsCharged, 'credit')} in ${plural(ledger.totals.requests, 'call')})`,
				);
			}
		} catch {
			// the service is going away; the watcher reports it
		} finally {
			busy = false;
		}
	}, 1000);
}

/** Where n8n keeps its state in this run. */
function stateFolder() {
	return SMOKE ? 'a temp folder, removed when it stops' : `${relative(USER_FOLDER)}/`;
}

/**
 * The editor address, login, service, credential and workflows, once everything is up.
 * @param {string} seconds how long the start took
 */
function printReady(seconds) {
	const server = /** @type {import('../test/harness/n8n/server').N8nServer} */ (stack.n8n);
	const service = /** @type {import('../test/harness/referenceService').ReferenceService} */ (
		stack.service
	);
	const line = '-'.repeat(78);
	const notPreferred = (/** @type {number} */ port, /** @type {number} */ wanted) =>
		port === wanted ? '' : `   (port ${wanted} was busy)`;
	const servicePort = Number(new URL(service.url).port);
	say(
		[
			'',
			line,
			`Ready in ${seconds} s.`,
			'',
			`  n8n editor:         ${server.url}/${notPreferred(server.port, PREFERRED.n8n)}`,
			`  Log in as:          ${DEMO_OWNER.email}`,
			`  Password:           ${DEMO_OWNER.password}`,
			`  Try it:             ${stack.workflowUrl(DEMO_WORKFLOW_ID)}`,
			'                      ("Sound Search demo": press "Execute workflow", then open the node)',
			'',
			`  Reference service:  ${service.url}   API key: ${SERVICE_KEY}${notPreferred(servicePort, PREFERRED.service)}`,
			`  Credential:         "${stack.credential.name}" (id ${stack.credential.id}) points at it`,
			'  Workflows:',
			...stack.workflows.map(
				(w) =>
					`    - ${w.name}  ${server.url}/workflow/${w.id}${w.file === '(built in)' ? '' : `  (${w.file})`}`,
			),
			...(stack.problems.length > 0
				? ['  Not imported:', ...stack.problems.map((p) => `    ! ${p.split('\n')[0]}`)]
				: []),
			'',
			`  The demo, the examples and the credential are re-imported on every start; your own`,
			`  workflows are kept in ${stateFolder()} ("npm start -- --reset" forgets them).`,
			'',
			`  Stop: press Ctrl-C (or: kill ${process.pid}). Requests the service receives are shown below.`,
			line,
		].join('\n'),
	);
}

async function main() {
	const t0 = Date.now();
	// --smoke never touches the kept state (it runs in a temp folder), not even with --reset.
	if (!SMOKE && args.includes('--reset') && fs.existsSync(STATE_DIR)) {
		say(`--reset: removing ${relative(STATE_DIR)}/`);
		fs.rmSync(STATE_DIR, { recursive: true, force: true });
	}
	const firstRun = SMOKE || !fs.existsSync(path.join(USER_FOLDER, '.n8n'));
	say(
		`Starting Sound Search locally (n8n state in ${stateFolder()}${firstRun ? ', new' : ', kept from the last run'}) ...`,
	);

	try {
		await stack.start();
	} catch (error) {
		if (error instanceof StackAborted || phase === 'stopping') {
			phase = 'starting'; // let shutdown() run once
			await shutdown(0, 'Stopped while starting');
			return;
		}
		console.error(`\nCould not start: ${/** @type {Error} */ (error).message}`);
		if (!firstRun) {
			console.error(
				`If n8n's saved state is the problem, start from a clean one: npm start -- --reset`,
			);
		}
		phase = 'starting';
		await shutdown(1, 'Start failed');
		return;
	}
	phase = 'running';

	printReady(((Date.now() - t0) / 1000).toFixed(1));
	if (SMOKE) {
		await shutdown(await runDemoOnce(), 'Smoke run done');
		return;
	}
	followLedger();
	stack.watch((name, details) => {
		console.error(`\nThe ${name} stopped unexpectedly. Its last output:\n${details || '(none)'}`);
		void shutdown(1, `${name} died`);
	});
}

/**
 * The demo workflow, run as a user presses "Execute workflow": 10 sounds for 1 credit.
 * @returns {Promise<number>} the exit code
 */
async function runDemoOnce() {
	const request = /** @type {NonNullable<typeof stack.request>} */ (stack.request);
	const trigger = 'When clicking ‘Execute workflow’';
	const { run } = await runWorkflowViaRest(request, DEMO_WORKFLOW_ID, { triggerNode: trigger });
	const sounds = nodeOutputItems({ data: run }, 'Sound Search');
	const { totals } = await /** @type {NonNullable<typeof stack.service>} */ (
		stack.service
	).ledger();
	say(`Demo workflow: ${sounds.length} sounds, ${totals.creditsCharged} credit(s).`);
	return sounds.length === 10 && totals.creditsCharged === 1 ? 0 : 1;
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
