'use strict';

// The whole local stack in one piece, shared by `npm start` (scripts/start.js) and the editor
// check (test/editor/): the reference service, a real n8n (`n8n start`) with the freshly packed
// package installed as n8n installs a community package, an owner account, the demo credential,
// the example workflows (examples/*.json) and a ready-to-run "Sound Search demo" workflow.
//
// Everything binds 127.0.0.1 and is stopped by pid: n8n through the harness's supervisor (its
// whole process group), the service by SIGTERM then SIGKILL. Both also go away on their own when
// this process dies (supervisor IPC / --parent-pid).
//
// Plain CommonJS on purpose: the project's strict linter applies node-code rules to every .ts file.

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const n8n = require('../n8n');
const { startReferenceService } = require('../referenceService');
const { packageTarball } = require('../packageTarball');
const demo = require('./demo');
const { DEMO_CREDENTIAL, DEMO_OWNER, SERVICE_KEY, demoWorkflow, readExampleWorkflows } = demo;
const { pickPort } = n8n;

/**
 * @param {number} pid
 * @returns {boolean}
 */
function isAlive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM';
	}
}

class StackAborted extends Error {
	constructor() {
		super('stopped while starting');
		this.name = 'StackAborted';
	}
}

/**
 * @typedef {object} StackOptions
 * @property {string} [userFolder] n8n user folder to keep (state in <folder>/.n8n); default: a
 *   fresh temp folder, removed by stop()
 * @property {number} [servicePort] preferred port of the reference service (default: any free)
 * @property {number} [n8nPort] preferred port of n8n (default: any free)
 * @property {number} [brokerPort] preferred task-runner broker port (default: any free)
 * @property {{ email: string, password: string, firstName: string, lastName: string }} [owner]
 * @property {boolean} [importExamples] import examples/*.json (default true)
 * @property {Record<string, string | undefined>} [n8nEnv] extra environment for `n8n start`
 * @property {(line: string) => void} [log] progress lines
 */

/**
 * The local stack. `await new Stack(options).start()`, then `stop()` (idempotent; may be called
 * while start() is still running: start() then stops what it started and rejects).
 */
class Stack {
	/** @param {StackOptions} [options] */
	constructor(options = {}) {
		this.options = options;
		this.owner = options.owner ?? DEMO_OWNER;
		this.log = options.log ?? (() => {});
		/** @type {import('../referenceService').ReferenceService | undefined} */
		this.service = undefined;
		/** @type {import('../n8n/server').N8nServer | undefined} */
		this.n8n = undefined;
		/** @type {string | undefined} */
		this.userFolder = undefined;
		this.tempFolder = false;
		this.credential = { ...DEMO_CREDENTIAL, data: { apiKey: SERVICE_KEY, baseUrl: '' } };
		/** @type {Array<{ id: string, name: string, file: string, nodes: Array<{ name: string, type: string }> }>} */
		this.workflows = [];
		/** @type {string[]} */
		this.problems = [];
		/** @type {import('../n8n/rest').RestRequest | undefined} */
		this.request = undefined;
		/** @type {Record<string, number>} */
		this.timings = {};
		this.stopping = false;
		/** @type {Promise<void> | undefined} */
		this.stopPromise = undefined;
		/** @type {NodeJS.Timeout | undefined} */
		this.watchTimer = undefined;
	}

	checkpoint() {
		if (this.stopping) throw new StackAborted();
	}

	/**
	 * @template T
	 * @param {string} label
	 * @param {() => Promise<T> | T} fn
	 * @returns {Promise<T>}
	 */
	async step(label, fn) {
		this.checkpoint();
		const t0 = Date.now();
		this.log(`${label} ...`);
		const result = await fn();
		this.timings[label] = Date.now() - t0;
		this.log(`${label}: done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
		this.checkpoint();
		return result;
	}

	/** @returns {Promise<Stack>} */
	async start() {
		const t0 = Date.now();
		try {
			await this.step('n8n installed (n8n-host/install.sh)', () => n8n.ensureN8nInstalled());
			const tarball = await this.step('package built and packed', () => packageTarball());
			await this.step('user folder with the packed package installed', () =>
				this.prepareUserFolder(tarball),
			);

			const servicePort = await pickPort(this.options.servicePort);
			// Handles are stored inside the step: a stop() during the step must find them.
			const service = await this.step('reference service started', async () => {
				this.service = await startReferenceService({
					keys: [SERVICE_KEY],
					args: ['--port', String(servicePort)],
				});
				return this.service;
			});
			this.credential.data.baseUrl = service.url;

			await this.step('credential and workflows imported', () => this.importAll());

			const n8nPort = await pickPort(this.options.n8nPort, [servicePort]);
			const brokerPort = await pickPort(this.options.brokerPort, [servicePort, n8nPort]);
			const folder = /** @type {string} */ (this.userFolder);
			const server = await this.step('n8n started', async () => {
				this.n8n = await n8n.startN8n(folder, {
					port: n8nPort,
					brokerPort,
					env: this.options.n8nEnv,
				});
				return this.n8n;
			});
			// Set up on a fresh user folder, or only logged in on a kept one (npm start).
			this.request = await this.step('owner ready', () => n8n.setupOwner(server.url, this.owner));
			this.timings.total = Date.now() - t0;
			return this;
		} catch (error) {
			await this.stop();
			throw error;
		}
	}

	/** @param {string} tarball */
	async prepareUserFolder(tarball) {
		const kept = this.options.userFolder;
		this.userFolder = await n8n.createN8nUserFolder({ packageTarball: tarball, folder: kept });
		this.tempFolder = !kept;
	}

	/** Credential first (the workflows refer to it), then all workflows in one import. */
	async importAll() {
		const folder = /** @type {string} */ (this.userFolder);
		await n8n.importCredentials(folder, [this.credential]);
		const examples = readExampleWorkflows();
		this.problems.push(...examples.problems);
		const all = [
			{ file: '(built in)', workflow: demoWorkflow(this.credential) },
			...examples.workflows,
		];
		const batch = await this.importWorkflows(
			folder,
			all.map((w) => w.workflow),
		);
		/** @param {{ file: string, workflow: Record<string, any> }} entry */
		const summary = ({ file, workflow }) => ({
			id: String(workflow.id),
			name: String(workflow.name),
			file,
			nodes: workflow.nodes.map((/** @type {any} */ n) => ({
				name: String(n.name),
				type: String(n.type),
			})),
		});
		if (batch.ok) {
			this.workflows = all.map(summary);
			return;
		}
		// One bad example must not keep the rest (and the demo) out: import them one by one.
		for (const { file, workflow } of all) {
			const single = await this.importWorkflows(folder, [workflow]);
			if (single.ok) this.workflows.push(summary({ file, workflow }));
			else if (file === '(built in)')
				throw new Error(`importing the demo workflow failed:\n${single.output}`);
			else this.problems.push(`${file}: n8n import:workflow failed:\n${single.output}`);
		}
	}

	/**
	 * @param {string} folder
	 * @param {Record<string, any>[]} workflows
	 * @returns {Promise<{ ok: boolean, output: string }>}
	 */
	async importWorkflows(folder, workflows) {
		const dir = path.join(folder, 'stack-input');
		fs.mkdirSync(dir, { recursive: true });
		const file = path.join(dir, `workflows-${crypto.randomBytes(6).toString('hex')}.json`);
		fs.writeFileSync(file, JSON.stringify(workflows, null, 2));
		try {
			const result = await n8n.n8nCli(folder, ['import:workflow', `--input=${file}`]);
			// n8n logs an import error and still exits 0 in some versions: check its words too.
			const failed = result.code !== 0 || /An error occurred while importing/i.test(result.stdout);
			return { ok: !failed, output: `${result.stdout}\n${result.stderr}`.trim().slice(-3000) };
		} finally {
			fs.rmSync(file, { force: true });
		}
	}

	/** Editor URL of a workflow. @param {string} id */
	workflowUrl(id) {
		return `${/** @type {import('../n8n/server').N8nServer} */ (this.n8n).url}/workflow/${id}`;
	}

	/**
	 * Calls onDeath(name, details) once if n8n or the reference service dies while not stopping
	 * (checked every second, by pid).
	 * @param {(name: string, details: string) => void} onDeath
	 */
	watch(onDeath) {
		const children = [
			['n8n', () => this.n8n?.pid, () => this.n8n?.logs().slice(-4000) ?? ''],
			['reference service', () => this.service?.pid, () => this.service?.stderr() ?? ''],
		];
		this.watchTimer = setInterval(() => {
			if (this.stopping) return;
			for (const [
				name,
				pid,
				details,
			] of /** @type {Array<[string, () => number | undefined, () => string]>} */ (children)) {
				const value = pid();
				if (value && value > 0 && !isAlive(value)) {
					clearInterval(this.watchTimer);
					// A signal that also reached the child (Ctrl-C goes to the whole foreground process
					// group) may be handled here a moment later: give it that moment.
					setTimeout(() => {
						if (!this.stopping) onDeath(name, details());
					}, 500);
					return;
				}
			}
		}, 1000);
	}

	/**
	 * Stops n8n, then the reference service (by pid); removes a temp user folder. Idempotent, and
	 * may be called while start() runs: what start() brings up after that is stopped when start()
	 * notices (every later call stops whatever is up by then).
	 * @returns {Promise<void>}
	 */
	stop() {
		this.stopping = true;
		if (this.watchTimer) clearInterval(this.watchTimer);
		const previous = (this.stopPromise ?? Promise.resolve()).catch(() => {});
		this.stopPromise = previous.then(() => this.stopStarted());
		return this.stopPromise;
	}

	/** @returns {Promise<void>} */
	async stopStarted() {
		const errors = [];
		// Both handles' stop() are idempotent (n8n: SIGTERM to its supervisor, SIGKILL of the group
		// after 10 s; service: SIGTERM, SIGKILL after 3 s).
		for (const stopOne of [() => this.n8n?.stop(), () => this.service?.stop()]) {
			try {
				await stopOne();
			} catch (error) {
				errors.push(error);
			}
		}
		if (this.tempFolder && this.userFolder) n8n.removeN8nUserFolder(this.userFolder);
		if (errors.length > 0) throw errors[0];
	}

	/** Pids still alive among those this stack started (for checks after stop()). */
	livePids() {
		return [this.n8n?.pid, this.service?.pid].filter((pid) => pid && pid > 0 && isAlive(pid));
	}
}

module.exports = { Stack, StackAborted, isAlive, ...demo };
