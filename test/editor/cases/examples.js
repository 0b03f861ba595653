'use strict';

// Every examples/*.json as a user meets it under `npm start`: opened in the editor, run with
// "Execute workflow" on the canvas, once, with nothing prepared but what `npm start` prepares (the
// stack: credentials, the fake model, the .n8n-files folder). A run fails this check when n8n
// reports it failed or any node ran into an error (drawn red), when it made no call (or, with
// no search in it, put out nothing), or when a write that ran did not write its file. A screenshot
// of each run in artifacts/editor/examples/. New example files are covered by themselves. An MCP
// server example (examples/mcp-sound-search.json) has no run to start from the canvas: `npm start`
// publishes it, and a real MCP client's tool call must get sounds (servesGreen).
// Registered by editor.editor.test.js against its shared session (../session.js): each run's
// checks compare the service's ledger and the files folder with their state just before that run,
// so what other concerns of the session searched or wrote does not count here.

const fs = require('node:fs');
const path = require('node:path');
const { readExampleWorkflows, PACKAGE_NAME, MCP_TRIGGER } = require('../../harness/stack');
const { connectMcp, callSoundSearch } = require('../../harness/mcpClient');
const n8n = require('../../harness/n8n');
const { ICON_PATH_PART, RUN_TIMEOUT_MS, imageLoaded } = require('../ui');

const EXAMPLE_FILES = [...new Set(readExampleWorkflows().workflows.map((w) => w.file))];

/** @typedef {import('../npmStart').NpmStart} Stack the `npm start` the layer runs */
/** @typedef {import('playwright-core').Page} Page @typedef {Stack['workflows'][number]} Example */

/** The files in the stack's files folder (where the examples write). @param {Stack} stack */
const filesWritten = (stack) => fs.readdirSync(stack.filesFolder).sort();

/** The service's request count so far. @param {Stack} stack */
const requestsSoFar = async (stack) => (await stack.service?.ledger())?.totals.requests ?? 0;

/** Opens the example's workflow, our icons loaded. @param {Page} page @param {Stack} stack @param {Example} example */
async function openOnTheCanvas(page, stack, example) {
	await page.goto(stack.workflowUrl(example.id));
	await page.getByTestId('canvas-node').first().waitFor();
	for (const node of example.nodes.filter((n) => n.type.startsWith(`${PACKAGE_NAME}.`))) {
		const nameInCss = String(node.name).replace(/["\\]/g, '\\$&');
		const selector = `[data-test-id="canvas-node"][data-node-name="${nameInCss}"]`;
		await imageLoaded(page, page.locator(`${selector} img[src*="${ICON_PATH_PART}"]`).first());
	}
}

/**
 * One example, run green from the canvas: its newest execution, finished, with its run data.
 * @param {import('../session').EditorSession} session @param {string} file
 * @param {(name: string) => Promise<void>} shot
 */
async function runsGreen({ page, stack }, file, shot) {
	expect(stack.problems).toEqual([]);
	const example = stack.workflows.find((w) => w.file === file);
	if (!example) throw new Error(`${file} was not imported`);
	if (example.nodes.some((n) => n.type === MCP_TRIGGER))
		return void (await servesGreen(page, stack, example, shot));
	const callsBefore = await requestsSoFar(stack);
	const filesBefore = filesWritten(stack);

	await openOnTheCanvas(page, stack, example);
	await page.getByTestId('execute-workflow-button').click();
	const succeeded = page.getByText('Workflow executed successfully').first();
	const redNode = page.getByTestId('canvas-node-status-error').first();
	await succeeded.or(redNode).waitFor({ timeout: RUN_TIMEOUT_MS });
	await page
		.getByTestId('zoom-to-fit')
		.click()
		.catch(() => {});
	await shot(path.basename(file, '.json'));

	const request = /** @type {import('../../harness/n8n/rest').RestRequest} */ (stack.request);
	const [newest] = await n8n.executionsOf(request, example.id, 1);
	const execution = await n8n.dataOf(request, 'GET', `/rest/executions/${newest.id}`);
	const run = n8n.parseExecutionData(execution.data);
	const runData = run.resultData.runData ?? {};
	const ran = Object.keys(runData);
	const failed = ran.filter((name) => runData[name].some((/** @type {any} */ r) => r.error));
	expect({ status: execution.status, failed }).toEqual({ status: 'success', failed: [] });
	await expect(page.getByTestId('canvas-node-status-error').count()).resolves.toBe(0);
	// An example that searches and made no call proved nothing; one that only reads what
	// others collected (the weekly report) must at least hand its last node an item.
	if (example.nodes.some((n) => n.type.startsWith(`${PACKAGE_NAME}.`)))
		expect(await requestsSoFar(stack)).toBeGreaterThan(callsBefore);
	else {
		const last = runData[run.resultData.lastNodeExecuted]?.at(-1);
		expect(last?.data?.main?.[0]?.length ?? 0).toBeGreaterThan(0);
	}
	// Each write that ran wrote its file (none went on to File Not Saved).
	expect(ran).not.toContain('File Not Saved');
	const writes = execution.workflowData.nodes.filter(
		(/** @type {any} */ n) =>
			n.type === 'n8n-nodes-base.readWriteFile' &&
			n.parameters.operation === 'write' &&
			ran.includes(n.name),
	);
	const newFiles = filesWritten(stack).filter((f) => !filesBefore.includes(f));
	expect(newFiles).toHaveLength(writes.length);
	return { run, newFiles };
}

/**
 * An MCP server example has nothing to run from the canvas (Execute workflow would wait for a
 * client): `npm start` publishes it, and it is green when a real MCP client's tool call gets sounds
 * and the service was called, its canvas shown with our icons.
 * @param {Page} page @param {Stack} stack @param {Example} example
 * @param {(name: string) => Promise<void>} shot
 */
async function servesGreen(page, stack, example, shot) {
	const { url, token } = /** @type {{ url: string, token: string }} */ (
		stack.mcpServer(example.id)
	);
	await n8n.untilWebhookServed(url);
	const callsBefore = await requestsSoFar(stack);
	const { client } = await connectMcp(url, { token });
	try {
		const answer = await callSoundSearch(client, {
			query: 'lofi',
			platform: 'shortvideo',
			limit: 5,
		});
		expect([answer.isError, answer.sounds.length]).toEqual([false, 5]);
	} finally {
		await client.close();
	}
	expect(await requestsSoFar(stack)).toBeGreaterThan(callsBefore);
	await openOnTheCanvas(page, stack, example);
	await shot(path.basename(example.file, '.json'));
}

/**
 * @typedef {(session: import('../session').EditorSession, green: { run: any, newFiles: string[] })
 *   => Promise<void>} MoreChecks what else an example's one green run must show (cases/trends.js)
 */

/**
 * Registers a test per example file against the shared session: each runs once, green, and then
 * shows what `more` asks of it.
 * @param {import('../session').EditorSession} session
 * @param {Record<string, MoreChecks>} [more] by example file
 */
function examplesCases(session, more = {}) {
	const { shot, step } = session.folder('examples');
	test.each(EXAMPLE_FILES)('%s runs green from the canvas', (file) =>
		step(path.basename(file, '.json'), async () => {
			const green = await runsGreen(session, file, shot);
			if (green && more[file]) await more[file](session, green);
		}),
	);
}

module.exports = { examplesCases };
