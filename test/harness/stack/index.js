'use strict';

// The local stack of `npm start` (scripts/start.js; the editor check runs `npm start -- --temp`): the
// reference service, the fake OpenAI model, a real n8n with the packed package, an owner, the demo
// credentials and workflows (./demo.js), demo trend history (./demoHistory.js), all on 127.0.0.1,
// stopped by pid. On a kept user folder, only what changed is built and imported again (a stamp in
// <userFolder>/.n8n/: a removed state or --reset starts clean).

const { execFileSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const n8n = require('../n8n');
const { startReferenceService } = require('../referenceService');
const { startFakeOpenAi } = require('../fakeModel');
const { packageTarball, REPO_ROOT } = require('../packageTarball');
const { isAlive } = require('../supervisor');
const demo = require('./demo');
const { seededExamples, seedHistoryTable } = require('./demoHistory');

const { DEMO_CREDENTIAL, DEMO_OPENAI_CREDENTIAL, DEMO_OWNER, DEMO_WORKFLOW, SERVICE_KEY } = demo;
const { DEMO_MCP_CREDENTIAL } = demo;
const { FAKE_MODEL_KEY, FILES_FOLDER, PACKAGE_NAME, readExampleWorkflows } = demo;
/** Its Settings name the keywords and sounds of the demo history. */
const HISTORY_EXAMPLE = path.join('examples', 'trend-history.json');
const MCP_TRIGGER = '@n8n/n8n-nodes-langchain.mcpTrigger';
const STAMP = path.join('.n8n', 'sound-search-start.json');
/** What `n8n-node build` turns into the package. */
const SOURCES = ['nodes', 'credentials', 'icons', 'package.json', 'tsconfig.json'];
const MCP_TOKEN_FILE = 'sound-search-mcp-token';

/** @param {string} file @returns {string[]} the file, or every file under a folder, sorted */
const filesUnder = (file) =>
	fs.statSync(file).isDirectory()
		? fs
				.readdirSync(file)
				.sort()
				.flatMap((name) => filesUnder(path.join(file, name)))
		: [file];

function sourcesHash() {
	const hash = crypto.createHash('sha256');
	for (const file of SOURCES.flatMap((name) => filesUnder(path.join(REPO_ROOT, name))))
		hash.update(path.relative(REPO_ROOT, file)).update('\0').update(fs.readFileSync(file));
	return hash.digest('hex').slice(0, 16);
}

const valueHash = (value) =>
	crypto.createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);

/** @param {string} userFolder @returns {{ sources?: string, imported?: string }} */
function readStamp(userFolder) {
	try {
		return JSON.parse(fs.readFileSync(path.join(userFolder, STAMP), 'utf8'));
	} catch {
		return {};
	}
}

/** @param {string} userFolder @param {{ sources?: string, imported?: string }} changes */
function writeStamp(userFolder, changes) {
	const file = path.join(userFolder, STAMP);
	fs.mkdirSync(path.dirname(file), { recursive: true });
	fs.writeFileSync(file, JSON.stringify({ ...readStamp(userFolder), ...changes }));
}

/**
 * The token MCP clients send to the MCP example (Bearer Auth): kept beside the n8n state so that a
 * restart locks out no client, made when there is none or `renew` (`--new-mcp-token`) is set.
 * @param {string} userFolder @param {{ renew?: boolean }} [options]
 */
function mcpToken(userFolder, { renew = false } = {}) {
	const file = path.join(userFolder, MCP_TOKEN_FILE);
	const kept = !renew && fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : '';
	if (kept) return kept;
	const token = crypto.randomBytes(32).toString('base64url');
	// Readable by this user only: it opens a paid search to whoever holds it.
	fs.writeFileSync(file, `${token}\n`, { mode: 0o600 });
	return token;
}

/**
 * Says `doing`, the seconds so far and `detail()` every 15 s until stop(): a first start installs
 * for minutes, and with nothing printed it looks hung.
 * @param {(line: string) => void} say @param {string} doing @param {() => string} [detail]
 */
function heartbeat(say, doing, detail) {
	const t0 = Date.now();
	const timer = setInterval(() => {
		let more = '';
		try {
			more = detail ? `, ${detail()}` : '';
		} catch {} // a folder being replaced under the install: the time alone then
		say(`... ${doing}: ${Math.round((Date.now() - t0) / 1000)} s so far${more}`);
	}, 15_000);
	timer.unref();
	return () => clearInterval(timer);
}

/** "1,234 MB unpacked" of an install into <dir>/node_modules. @param {string} dir */
const installDetail = (dir) => () => {
	const modules = path.join(dir, 'node_modules');
	if (!fs.existsSync(modules)) return 'nothing unpacked yet';
	const mb = Number(execFileSync('du', ['-sm', modules], { encoding: 'utf8' }).split('\t')[0]);
	return `${mb.toLocaleString('en-US')} MB unpacked`;
};

/** `await new Stack(options).start()`, then `stop()` (a start under way stops at its next step). */
class Stack {
	/** @type {import('../referenceService').ReferenceService | undefined} */ service;
	/** @type {Awaited<ReturnType<typeof startFakeOpenAi>> | undefined} */ model;
	/** @type {import('../n8n/server').N8nServer | undefined} */ n8n;
	/** @type {string | undefined} */ userFolder;
	/** @type {import('../n8n/rest').RestRequest | undefined} */ request;
	credential = { ...DEMO_CREDENTIAL, data: { apiKey: SERVICE_KEY, baseUrl: '' } };
	openAiCredential = { ...DEMO_OPENAI_CREDENTIAL, data: { apiKey: FAKE_MODEL_KEY, url: '' } };
	mcpCredential = { ...DEMO_MCP_CREDENTIAL, data: { token: '' } };
	filesFolder = ''; // <userFolder>/.n8n-files, the only folder n8n may read and write
	/** @type {Array<{ id: string, name: string, file: string, nodes: any[] }>} */ workflows = [];
	/** @type {string[]} */ problems = [];
	/** @type {string[]} */ demoData = []; // what was seeded as demo data, for the banner
	stopping = false;
	stopped = Promise.resolve();

	/**
	 * @param {{ userFolder?: string, servicePort?: number, modelPort?: number, n8nPort?: number,
	 *   brokerPort?: number, newMcpToken?: boolean, log?: (line: string) => void,
	 *   progress?: (line: string) => void }} [options] userFolder: kept (default: a temp one,
	 *   removed by stop()); ports: preferred (default: any free one); newMcpToken: replace the kept
	 *   MCP token; log: a line per finished step; progress: a line every 15 s of a step
	 */
	constructor(options = {}) {
		this.options = options;
	}

	/**
	 * One timed, logged step (fn may resolve a note, logged instead of "done"); handles are stored
	 * inside it, so that a stop() during it finds them.
	 * @param {string} label @param {() => Promise<string | void>} fn
	 * @param {{ doing?: string, detail?: () => string }} [running] what options.progress hears
	 */
	async step(label, fn, { doing = label, detail } = {}) {
		const t0 = Date.now();
		const { progress } = this.options;
		const stopBeating = progress ? heartbeat(progress, doing, detail) : () => {};
		let note;
		try {
			note = this.stopping ? undefined : await fn();
		} finally {
			stopBeating();
		}
		if (this.stopping) throw new Error('stopped while starting');
		const seconds = ((Date.now() - t0) / 1000).toFixed(1);
		this.options.log?.(`${label}: ${note || 'done'} in ${seconds} s`);
	}

	async start() {
		const { userFolder: folder, servicePort, modelPort, n8nPort, brokerPort } = this.options;
		try {
			await this.step(
				'n8n installed (n8n-host/install.sh)',
				async () => void (await n8n.ensureN8nInstalled()),
				{
					doing: 'installing n8n (the first start on this machine only)',
					detail: installDetail(n8n.INSTALL_DIR),
				},
			);
			await this.step(
				'package built, packed and installed in the user folder',
				() => this.installPackage(folder),
				{ doing: 'building and packing the package (n8n-node build, npm pack)' },
			);
			await this.step('reference service started', async () => {
				const args = ['--port', String(await n8n.getFreePort(servicePort))];
				this.service = await startReferenceService({ keys: [SERVICE_KEY], args });
				this.credential.data.baseUrl = this.service.url;
			});
			await this.step('fake OpenAI model started', async () => {
				const port = await n8n.getFreePort(modelPort);
				this.model = await startFakeOpenAi({ apiKey: FAKE_MODEL_KEY, port });
				this.openAiCredential.data.url = this.model.url;
			});
			await this.step('credential and workflows imported', () => this.importAll());
			await this.step(
				'n8n started',
				async () => {
					const port = await n8n.getFreePort(n8nPort);
					const broker = await n8n.getFreePort(brokerPort);
					// n8n runs in its user folder: the examples' relative .n8n-files is this folder.
					this.filesFolder = path.join(/** @type {string} */ (this.userFolder), FILES_FOLDER);
					fs.mkdirSync(this.filesFolder, { recursive: true });
					const env = { N8N_RESTRICT_FILE_ACCESS_TO: this.filesFolder };
					const options = { port, brokerPort: broker, env };
					this.n8n = await n8n.startN8n(/** @type {string} */ (this.userFolder), options);
				},
				{ doing: 'starting n8n (database migrations on a new state; slower on a busy machine)' },
			);
			// Set up on a fresh user folder, or only logged in on a kept one.
			await this.step('owner ready', async () => {
				this.request = await n8n.setupOwner(String(this.n8n?.url), DEMO_OWNER);
			});
			await this.step('demo trend history', () => this.seedHistory());
			await this.step('MCP examples published', () => this.publishMcpExamples());
			return this;
		} catch (error) {
			await this.stop();
			throw error;
		}
	}

	/** Builds and installs the package, unless a kept folder has it. @param {string} [folder] */
	async installPackage(folder) {
		const sources = sourcesHash();
		const installed = folder && path.join(folder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME);
		if (folder && installed && fs.existsSync(installed) && readStamp(folder).sources === sources) {
			this.userFolder = path.resolve(folder);
			return 'sources unchanged since the last start, kept';
		}
		const tarball = packageTarball();
		this.userFolder = await n8n.createN8nUserFolder({ packageTarball: tarball, folder });
		if (folder) writeStamp(folder, { sources });
		return undefined;
	}

	/** The credentials, then every workflow in one import, unless a kept folder has exactly these. */
	async importAll() {
		const folder = /** @type {string} */ (this.userFolder);
		this.mcpCredential.data.token = mcpToken(folder, { renew: this.options.newMcpToken });
		const credentials = [this.credential, this.openAiCredential, this.mcpCredential];
		const examples = readExampleWorkflows();
		this.problems.push(...examples.problems);
		const all = [{ file: '(built in)', workflow: DEMO_WORKFLOW }, ...examples.workflows];
		const summary = ({ file, workflow }) => ({
			id: String(workflow.id),
			name: String(workflow.name),
			file,
			nodes: workflow.nodes.map((/** @type {any} */ n) => ({
				name: n.name,
				type: n.type,
				path: n.parameters?.path,
			})),
		});
		const imported = valueHash({ credentials, workflows: all });
		if (this.options.userFolder && readStamp(folder).imported === imported) {
			this.workflows.push(...all.map(summary));
			return 'unchanged since the last start, not imported again';
		}
		// Seeded after the hash: its timestamps must not make every restart import again.
		const installed = path.join(folder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME);
		all.splice(1, Infinity, ...seededExamples(examples.workflows, installed, Date.now()));
		this.demoData.push(
			'the Rising and Breakout Sound triggers remember post counts of the days before',
		);
		await n8n.importCredentials(folder, credentials);
		const batch = await n8n.importFile(
			folder,
			'workflow',
			all.map((w) => w.workflow),
		);
		// One bad example must not keep the rest (and the demo) out: then import them one by one.
		for (const entry of all) {
			const single = batch.ok ? batch : await n8n.importFile(folder, 'workflow', [entry.workflow]);
			const output = `${single.stdout}\n${single.stderr}`.trim().slice(-3000);
			if (single.ok) this.workflows.push(summary(entry));
			else if (entry.workflow === DEMO_WORKFLOW)
				throw new Error(`importing the demo workflow failed:\n${output}`);
			else this.problems.push(`${entry.file}: n8n import:workflow failed:\n${output}`);
		}
		if (this.options.userFolder && this.problems.length === 0) writeStamp(folder, { imported });
		return undefined;
	}

	/** Six days of demo rows in the trend examples' Data Table, on an n8n state without it. */
	async seedHistory() {
		const history = readExampleWorkflows().workflows.find((w) => w.file === HISTORY_EXAMPLE);
		if (!history) return `${HISTORY_EXAMPLE} missing, nothing seeded`;
		const request = /** @type {import('../n8n/rest').RestRequest} */ (this.request);
		const done = await seedHistoryTable(request, history.workflow, Date.now());
		this.demoData.push(done);
		return done;
	}

	/** Publishes the examples an MCP Server Trigger serves (they spend nothing until called). */
	async publishMcpExamples() {
		const request = /** @type {import('../n8n/rest').RestRequest} */ (this.request);
		const served = this.workflows.filter((w) => w.nodes.some((n) => n.type === MCP_TRIGGER));
		for (const { id } of served) {
			const { active } = await n8n.dataOf(request, 'GET', `/rest/workflows/${id}`);
			if (!active) await n8n.activateWorkflow(request, id);
		}
		return served.length ? served.map((w) => w.name).join('; ') : 'none';
	}

	/** An example's MCP server: its production URL and the token. @param {string} id */
	mcpServer(id) {
		const url = this.mcpUrl(id);
		return url && { url, token: this.mcpCredential.data.token };
	}

	/** @param {string} id */
	mcpUrl(id) {
		const workflow = this.workflows.find((w) => w.id === id);
		const trigger = workflow?.nodes.find((n) => n.type === MCP_TRIGGER);
		return trigger && `${this.n8n?.url}/mcp/${trigger.path}`;
	}

	/** @param {string} id */
	workflowUrl(id) {
		return `${this.n8n?.url}/workflow/${id}`;
	}

	/** onDeath once if a part exits unasked. @param {(name: string, out: string) => void} onDeath */
	watch(onDeath) {
		let told = false;
		/** @type {Array<[string, Promise<unknown> | undefined, () => string | undefined]>} */
		const watched = [
			['n8n', this.n8n?.exited, () => this.n8n?.logs().slice(-4000)],
			['reference service', this.service?.exited, () => this.service?.stderr()],
			['fake OpenAI model', this.model?.exited, () => this.model?.stderr()],
		];
		for (const [name, exited, details] of watched) {
			void exited?.then(() =>
				// Ctrl-C reaches the children too: the stop it starts here may come a moment later.
				setTimeout(() => {
					if (this.stopping || told) return;
					told = true;
					onDeath(name, details() ?? '');
				}, 500),
			);
		}
	}

	/** Stops whatever is up by then and removes a temp user folder. @returns {Promise<void>} */
	stop() {
		this.stopping = true;
		this.stopped = this.stopped
			.catch(() => {})
			.then(async () => {
				const results = [];
				for (const handle of [this.n8n, this.service, this.model])
					results.push(await handle?.stop().catch((e) => e));
				if (!this.options.userFolder && this.userFolder) n8n.removeN8nUserFolder(this.userFolder);
				const error = results.find((result) => result instanceof Error);
				if (error) throw error;
			});
		return this.stopped;
	}

	/** Pids still alive among those this stack started (for checks after stop()). */
	livePids() {
		return [this.n8n?.pid, this.service?.pid, this.model?.pid].filter(isAlive);
	}
}

module.exports = { Stack, MCP_TRIGGER, ...demo };
