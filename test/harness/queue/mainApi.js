'use strict';

// What a test asks of the running stack through the main's REST API, as the editor does: create
// credentials and workflows, publish them, read executions. QueueStack (./stack.js) extends it.

const rest = require('../n8n/rest');
const { waitUntil } = require('./service');

/** @typedef {{ id?: string, name: string, type: string, data: Record<string, unknown> }} Credential */

class MainApi {
	constructor() {
		/** @type {(import('../n8n/rest').RestRequest & { owner: { email: string, password: string } }) | undefined} */
		this.rest = undefined;
		/** @type {string} the main's URL */
		this.mainUrl = '';
		/** @type {Map<string, string>} credential id given -> id n8n gave it */
		this.credentialIds = new Map();
	}

	/**
	 * A REST call that must answer 200; its `data`.
	 * @param {string} method @param {string} urlPath @param {unknown} [body]
	 */
	async call(method, urlPath, body) {
		return rest.dataOf(this.#session(), method, urlPath, body);
	}

	/**
	 * n8n picks the id (it encrypts `data` with the shared key); workflows created afterwards that
	 * refer to `credential.id` are pointed at the new one.
	 * @param {Credential} credential
	 */
	async createCredential({ id, ...credential }) {
		const created = await this.call('POST', '/rest/credentials', credential);
		if (id) this.credentialIds.set(id, created.id);
		return created.id;
	}

	/**
	 * Creates a workflow, inactive (publish it with activateWorkflow).
	 * @param {Record<string, any>} workflow
	 * @returns {Promise<{ id: string, versionId: string }>}
	 */
	async createWorkflow({ active: _active, versionId: _versionId, ...workflow }) {
		const nodes = (workflow.nodes ?? []).map((/** @type {any} */ node) => {
			const credentials = Object.entries(node.credentials ?? {}).map(([type, ref]) => {
				const mapped = this.credentialIds.get(ref?.id);
				return [type, mapped ? { ...ref, id: mapped } : ref];
			});
			return node.credentials ? { ...node, credentials: Object.fromEntries(credentials) } : node;
		});
		const body = { settings: { executionOrder: 'v1' }, connections: {}, ...workflow, nodes };
		const { id, versionId } = await this.call('POST', '/rest/workflows', body);
		return { id, versionId };
	}

	/** Publishes a workflow: its webhooks and triggers start on the main. @param {string} id */
	async activateWorkflow(id) {
		return rest.activateWorkflow(this.#session(), id);
	}

	/** @param {string} id */
	async deactivateWorkflow(id) {
		await rest.deactivateWorkflow(this.#session(), id);
	}

	/**
	 * An execution as stored: { status, finished, mode, workflowId, startedAt, stoppedAt, data
	 * (flatted) }.
	 * @param {string} id
	 */
	async execution(id) {
		return this.call('GET', `/rest/executions/${id}`);
	}

	/** Executions of a workflow, newest first. @param {string} workflowId */
	async executionsOf(workflowId, limit = 100) {
		return rest.executionsOf(this.#session(), workflowId, limit);
	}

	#session() {
		if (!this.rest) throw new Error('the owner is not set up yet');
		return this.rest;
	}

	/**
	 * Waits until the execution is no longer new/running/waiting and returns it (the last state
	 * seen on timeout).
	 * @param {string} id
	 * @param {number} timeoutMs
	 */
	async waitForExecutionEnd(id, timeoutMs) {
		/** @type {any} */
		let execution;
		const ended = async () =>
			!['new', 'running', 'waiting'].includes((execution = await this.execution(id)).status);
		await waitUntil(`execution ${id}`, ended, { timeoutMs }).catch(() => undefined);
		return execution;
	}

	/**
	 * Waits until the main serves a just-published production webhook, and returns how long that
	 * took. Probes with a CORS preflight, which n8n answers 204 listing the path's methods once
	 * the webhook is registered, without running anything.
	 * @param {string} webhookPath
	 * @param {string} [method]
	 */
	async waitForWebhook(webhookPath, method = 'POST') {
		const t0 = Date.now();
		const headers = { origin: 'http://127.0.0.1', 'access-control-request-method': method };
		const registered = async () => {
			const url = `${this.mainUrl}/webhook/${webhookPath}`;
			const response = await fetch(url, { method: 'OPTIONS', headers });
			const allowed = response.headers.get('access-control-allow-methods') ?? '';
			return response.status === 204 && allowed.split(',').some((m) => m.trim() === method);
		};
		await waitUntil(`webhook ${method} ${webhookPath}`, registered, { timeoutMs: 60_000 });
		return Date.now() - t0;
	}
}

module.exports = { MainApi };
