'use strict';

// n8n's REST API as the editor uses it: the owner's session, credential tests, workflows run and
// their executions read back.

const crypto = require('node:crypto');
const { createRequire } = require('node:module');
const path = require('node:path');
const { INSTALL_DIR } = require('./install');
const { until } = require('../poll');
const { deadlineMs } = require('../deadlines');

/**
 * @typedef {(method: string, urlPath: string, body?: unknown, headers?: Record<string, string>)
 *   => Promise<{ status: number, body: any }>} RestRequest the body is sent as JSON; the answer's
 *   is parsed when JSON (n8n wraps results in { data }), else text. Never throws on HTTP errors.
 */

/** A session with n8n at `url` (its cookie bound to a browser id). @returns {RestRequest} */
function session(/** @type {string} */ url) {
	const browserId = `harness-${crypto.randomBytes(8).toString('hex')}`;
	const cookies = new Map();
	return async (method, urlPath, body, headers = {}) => {
		const cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
		const response = await fetch(url + urlPath, {
			method,
			headers: {
				'browser-id': browserId,
				accept: 'application/json',
				...headers,
				...(cookie && { cookie }),
				...(body !== undefined && { 'content-type': 'application/json' }),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
			redirect: 'manual',
		}).catch((error) => {
			// fetch's own message ("fetch failed") names neither the request nor the cause.
			const cause = error.cause?.code ?? error.cause?.message ?? '';
			throw new Error(`${method} ${urlPath}: ${error.message} ${cause}`, { cause: error });
		});
		for (const setCookie of response.headers.getSetCookie()) {
			const [, name, value] = /^([^=;]+)=([^;]*)/.exec(setCookie) ?? [];
			if (name) cookies.set(name.trim(), value.trim());
		}
		const text = await response.text();
		const json = (response.headers.get('content-type') ?? '').includes('json');
		try {
			return { status: response.status, body: json ? JSON.parse(text) : text };
		} catch {
			return { status: response.status, body: text };
		}
	};
}

/**
 * The answer's `data`; throws unless 200.
 * @param {RestRequest} request @param {string} method @param {string} urlPath
 * @param {unknown} [body]
 */
async function dataOf(request, method, urlPath, body) {
	const response = await request(method, urlPath, body);
	if (response.status !== 200) {
		throw new Error(`${method} ${urlPath}: ${response.status} ${JSON.stringify(response.body)}`);
	}
	return response.body?.data;
}

/**
 * Creates the owner (once per user folder) and logs in; resolves the session.
 * @param {string} url
 * @param {{ email?: string, password?: string, firstName?: string, lastName?: string }} [owner]
 */
async function setupOwner(url, owner = {}) {
	const { email = 'owner@example.com', password = 'Harness-Passw0rd' } = owner;
	const request = session(url);
	const names = { firstName: 'Harness', lastName: 'Owner' };
	const body = { ...names, ...owner, email, password };
	// n8n 1.x reports ready a moment before its REST routes exist: a 404 means "not yet".
	const setup = await until(
		`POST ${url}/rest/owner/setup to answer other than 404`,
		() => request('POST', '/rest/owner/setup', body),
		(answer) => answer.status !== 404,
		deadlineMs('n8nRoutes'),
	);
	// A restarted n8n on the same user folder already has its owner: then only log in.
	if (setup.status !== 200 && !/already setup/.test(JSON.stringify(setup.body))) {
		throw new Error(`POST /rest/owner/setup: ${setup.status} ${JSON.stringify(setup.body)}`);
	}
	return logIn(url, { email, password }, request);
}

/**
 * Logs in as an existing user; resolves the session.
 * @param {string} url @param {{ email: string, password: string }} owner
 */
async function logIn(url, { email, password }, request = session(url)) {
	const user = await dataOf(request, 'POST', '/rest/login', {
		emailOrLdapLoginId: email,
		password,
	});
	return Object.assign(request, { owner: { email, password }, user });
}

/**
 * Presses a stored credential's "Test" button as the editor does: n8n tests the `data` sent
 * (redacted secrets replaced by the stored ones); without `data`, the stored data, redacted.
 * @param {RestRequest} request
 * @param {{ id: string, name?: string, type: string, data?: Record<string, unknown> }} credential
 * @returns {Promise<{ status: 'OK' | 'Error', message?: string }>}
 */
async function testCredential(request, credential) {
	let { data, name } = credential;
	if (data === undefined || name === undefined) {
		const stored = await dataOf(
			request,
			'GET',
			`/rest/credentials/${credential.id}?includeData=true`,
		);
		[data, name] = [data ?? stored.data, name ?? stored.name];
	}
	const credentials = { ...credential, name, data };
	return dataOf(request, 'POST', '/rest/credentials/test', { credentials });
}

/**
 * Saves a workflow as the editor does; n8n picks the id.
 * @param {RestRequest} request
 * @param {Record<string, any>} workflow
 * @returns {Promise<{ id: string, versionId: string }>}
 */
async function createWorkflowViaRest(request, { id: _ignored, ...fields }) {
	// n8n 1.x requires `active` (its column has no default); 2.x takes it too.
	const body = { active: false, ...fields };
	const { id, versionId } = await dataOf(request, 'POST', '/rest/workflows', body);
	return { id, versionId };
}

/** Publishes a workflow, as the editor's toggle. @param {RestRequest} request @param {string} id */
async function activateWorkflow(request, id) {
	const { versionId } = await dataOf(request, 'GET', `/rest/workflows/${id}`);
	return dataOf(request, 'POST', `/rest/workflows/${id}/activate`, { versionId });
}

/** @param {RestRequest} request @param {string} id */
async function deactivateWorkflow(request, id) {
	await dataOf(request, 'POST', `/rest/workflows/${id}/deactivate`, {});
}

/**
 * A workflow's executions, newest first, unfinished ones included (n8n caps `limit` at 100).
 * @param {RestRequest} request @param {string} workflowId
 * @returns {Promise<Array<{ id: string, status: string, mode: string, startedAt: string }>>}
 */
async function executionsOf(request, workflowId, limit = 100) {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	return (await dataOf(request, 'GET', `/rest/executions?filter=${filter}&limit=${limit}`)).results;
}

/**
 * Runs a stored workflow like the editor's "Execute workflow" button and polls the execution
 * until it has finished; `run` is its data parsed ({ resultData: { runData, ... } }).
 * @param {RestRequest} request
 * @param {string} workflowId
 * @param {{ triggerNode: string, timeoutMs?: number }} options
 */
async function runWorkflowViaRest(
	request,
	workflowId,
	{ triggerNode, timeoutMs = deadlineMs('execution') },
) {
	// n8n 1.x runs the workflow sent in the body (as its editor does); 2.x runs the stored one.
	const workflowData = await dataOf(request, 'GET', `/rest/workflows/${workflowId}`);
	const started = await dataOf(request, 'POST', `/rest/workflows/${workflowId}/run`, {
		workflowData,
		triggerToStartFrom: { name: triggerNode },
	});
	const executionId = started?.executionId;
	if (!executionId) throw new Error(`run of ${workflowId}: no execution id`);
	const read = async () => {
		const { status, body } = await request('GET', `/rest/executions/${executionId}`);
		const execution = body?.data;
		const finished = status === 200 && !['new', 'running', 'waiting'].includes(execution?.status);
		// n8n 1.85 can report an execution finished a moment before its data is saved.
		return {
			executionId,
			execution,
			run: finished ? parseExecutionData(execution?.data) : undefined,
		};
	};
	const what = `execution ${executionId} of workflow ${workflowId} to finish`;
	return until(what, read, ({ run }) => Boolean(run?.resultData), timeoutMs);
}

/** An execution's run data, "flatted" by n8n: decoded by the installed n8n's. @returns {any} */
function parseExecutionData(/** @type {unknown} */ data) {
	const fromN8n = createRequire(path.join(INSTALL_DIR, 'node_modules', 'n8n', 'package.json'));
	return typeof data === 'string' ? fromN8n('flatted').parse(data) : data;
}

module.exports = {
	dataOf,
	activateWorkflow,
	deactivateWorkflow,
	executionsOf,
	setupOwner,
	logIn,
	testCredential,
	createWorkflowViaRest,
	runWorkflowViaRest,
	parseExecutionData,
};
