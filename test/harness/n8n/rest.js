'use strict';

// n8n's REST API as the editor uses it: the owner's session, credential tests, workflows run and
// their executions read back.

const crypto = require('node:crypto');

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
	setupOwner,
	testCredential,
	createWorkflowViaRest,
	runWorkflowViaRest,
	parseExecutionData,
};
