'use strict';

// Smoke check of the real-n8n host and harness (not a jest test): node test/harness/n8n.smoke.js
// Installs n8n if needed, imports and executes workflows made only of built-in nodes with the CLI,
// then runs `n8n start`, sets up the owner and uses the REST API (list workflows, run one, press a
// credential's Test button against a local HTTP server), stops n8n and removes its temp folder.
// Prints timings; exits 0 on success.

const http = require('node:http');
const n8n = require('./n8n');

/** @type {Array<[string, number]>} */
const timings = [];
/**
 * @template T
 * @param {string} label
 * @param {() => Promise<T>} fn
 * @returns {Promise<T>}
 */
async function timed(label, fn) {
	const start = Date.now();
	try {
		return await fn();
	} finally {
		const ms = Date.now() - start;
		timings.push([label, ms]);
		console.log(`[smoke] ${label}: ${(ms / 1000).toFixed(1)} s`);
	}
}

/**
 * @param {unknown} condition
 * @param {string} message
 * @returns {asserts condition}
 */
function check(condition, message) {
	if (!condition) throw new Error(`check failed: ${message}`);
}

const okWorkflow = {
	name: 'Smoke: three items',
	nodes: [
		{
			id: '0f5e2c9a-1111-4a4a-9a9a-000000000001',
			name: 'Manual Trigger',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		{
			id: '0f5e2c9a-1111-4a4a-9a9a-000000000002',
			name: 'Code',
			type: 'n8n-nodes-base.code',
			typeVersion: 2,
			position: [220, 0],
			parameters: { jsCode: 'return [1, 2, 3].map((i) => ({ json: { i, square: i * i } }));' },
		},
	],
	connections: { 'Manual Trigger': { main: [[{ node: 'Code', type: 'main', index: 0 }]] } },
};

const failingWorkflow = {
	name: 'Smoke: failing node',
	nodes: [
		{ ...okWorkflow.nodes[0], id: '0f5e2c9a-1111-4a4a-9a9a-000000000003' },
		{
			...okWorkflow.nodes[1],
			id: '0f5e2c9a-1111-4a4a-9a9a-000000000004',
			parameters: { jsCode: "throw new Error('smoke: deliberate failure');" },
		},
	],
	connections: okWorkflow.connections,
};

/**
 * A local stand-in for a service's credential-test endpoint: 200 for API key "good", else 401.
 * @returns {Promise<{ url: string, seen: string[], close: () => Promise<void> }>}
 */
function startFakeService() {
	/** @type {string[]} */
	const seen = [];
	const server = http.createServer((req, res) => {
		const key = req.headers['x-n8n-api-key'];
		seen.push(`${req.method} ${req.url} key=${key}`);
		const ok = key === 'good';
		res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
		res.end(JSON.stringify(ok ? { ok: true } : { message: 'bad key' }));
	});
	return new Promise((resolve) => {
		server.listen(0, '127.0.0.1', () => {
			const address = /** @type {import('node:net').AddressInfo} */ (server.address());
			resolve({
				url: `http://127.0.0.1:${address.port}`,
				seen,
				close: () => new Promise((done) => server.close(() => done())),
			});
		});
	});
}

async function main() {
	const bin = await timed('ensureN8nInstalled', () => n8n.ensureN8nInstalled());
	console.log(`[smoke] n8n: ${bin}`);
	const folder = await n8n.createN8nUserFolder();
	console.log(`[smoke] user folder: ${folder}`);
	/** @type {n8n.N8nServer | undefined} */
	let server;
	/** @type {Awaited<ReturnType<typeof startFakeService>> | undefined} */
	let fake;
	try {
		// --- CLI ---
		const ok = await timed('import:workflow (first command, fresh folder)', () =>
			n8n.importWorkflow(folder, okWorkflow),
		);
		const bad = await timed('import:workflow (second)', () =>
			n8n.importWorkflow(folder, failingWorkflow),
		);
		fake = await startFakeService();
		const credential = {
			id: 'smokeCred0000001',
			name: 'Smoke n8n API',
			type: 'n8nApi',
			data: { apiKey: 'good', baseUrl: fake.url },
		};
		await timed('import:credentials', () => n8n.importCredentials(folder, [credential]));

		const okRun = await timed('execute (ok)', () => n8n.executeWorkflow(folder, ok.id));
		check(okRun.code === 0, `execute exit code 0, got ${okRun.code}\n${okRun.stdout.slice(-3000)}`);
		check(okRun.run?.status === 'success', `run status success, got ${okRun.run?.status}`);
		const items = n8n.nodeOutputItems(okRun.run, 'Code');
		console.log('[smoke] Code node items:', JSON.stringify(items));
		check(items.length === 3 && items[2].square === 9, 'three items, the last with square 9');

		const badRun = await timed('execute (failing node)', () => n8n.executeWorkflow(folder, bad.id));
		const runError = badRun.run?.data?.resultData?.error;
		const nodeError = badRun.run?.data?.resultData?.runData?.Code?.[0]?.error;
		console.log(
			`[smoke] failing run: code=${badRun.code} status=${badRun.run?.status} ` +
				`resultData.error.message=${JSON.stringify(runError?.message)} ` +
				`runData.Code[0].error.message=${JSON.stringify(nodeError?.message)} stderr.length=${badRun.stderr.length}`,
		);
		check(badRun.code === 1, `failing run exits 1, got ${badRun.code}`);
		check(badRun.run?.status === 'error', 'failing run has status error');
		check(
			String(runError?.message).includes('deliberate failure'),
			'error message in the run JSON',
		);

		// --- server ---
		server = await timed('start -> /healthz/readiness 200', () => n8n.startN8n(folder));
		console.log(`[smoke] n8n at ${server.url}, pid ${server.pid}`);
		const request = await timed('owner setup + login', () =>
			n8n.setupOwner(/** @type {n8n.N8nServer} */ (server).url),
		);

		const workflows = await request('GET', '/rest/workflows');
		check(workflows.status === 200, `GET /rest/workflows: ${workflows.status}`);
		const names = workflows.body.data.map((/** @type {{ name: string }} */ w) => w.name).sort();
		console.log('[smoke] workflows via REST:', JSON.stringify(names));
		check(
			names.includes(okWorkflow.name) && names.includes(failingWorkflow.name),
			'both imported workflows listed',
		);

		const viaRest = await timed('run workflow via REST', () =>
			n8n.runWorkflowViaRest(request, ok.id, { triggerNode: 'Manual Trigger' }),
		);
		const restItems = (viaRest.run?.resultData?.runData?.Code?.[0]?.data?.main?.[0] ?? []).map(
			(/** @type {{ json: unknown }} */ item) => item.json,
		);
		console.log(
			`[smoke] REST execution ${viaRest.executionId}: status=${viaRest.execution.status} items=${JSON.stringify(restItems)}`,
		);
		check(
			viaRest.execution.status === 'success' && restItems.length === 3,
			'REST run succeeded with 3 items',
		);

		const good = await n8n.testCredential(request, {
			id: credential.id,
			name: credential.name,
			type: credential.type,
		});
		const badKey = await n8n.testCredential(request, {
			...credential,
			data: { ...credential.data, apiKey: 'wrong' },
		});
		console.log('[smoke] credential test (stored):', JSON.stringify(good));
		console.log('[smoke] credential test (apiKey overridden):', JSON.stringify(badKey));
		console.log('[smoke] fake service saw:', JSON.stringify(fake.seen));
		check(good.status === 'OK', 'stored credential tests OK');
		check(badKey.status === 'Error', 'overridden bad key tests Error');

		const packages = await request('GET', '/rest/community-packages');
		console.log(
			`[smoke] GET /rest/community-packages: ${packages.status} ${JSON.stringify(packages.body)}`,
		);

		const stopped = await timed('stop', () => /** @type {n8n.N8nServer} */ (server).stop());
		console.log(`[smoke] n8n stopped: ${JSON.stringify(stopped)}`);
		server = undefined;
	} finally {
		if (server) {
			console.log(`[smoke] server log tail:\n${server.logs().slice(-4000)}`);
			await server.stop();
		}
		if (fake) await fake.close();
		n8n.removeN8nUserFolder(folder);
	}
	console.log(
		'[smoke] timings (s):',
		timings.map(([label, ms]) => `${label}=${(ms / 1000).toFixed(1)}`).join(', '),
	);
	console.log('[smoke] OK');
}

main().then(
	() => process.exit(0),
	(error) => {
		console.error(`[smoke] FAILED: ${error && error.stack ? error.stack : error}`);
		process.exit(1);
	},
);
