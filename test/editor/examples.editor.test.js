'use strict';

// Every examples/*.json as a user meets it under `npm start`: opened in the editor, run with
// "Execute workflow" on the canvas, with nothing prepared but what `npm start` prepares (the
// stack: credentials, the fake model, the .n8n-files folder). A run fails this check when n8n
// reports it failed or any node ran into an error (drawn red), when it made no call (or, with
// no search in it, put out nothing), or when a
// write that ran did not write its file. A screenshot of each run in artifacts/editor/examples/.
// New example files are covered by themselves.

const fs = require('node:fs');
const path = require('node:path');
const { readExampleWorkflows, PACKAGE_NAME } = require('../harness/stack');
const n8n = require('../harness/n8n');
const { useEditorSession } = require('./session');
const { ICON_PATH_PART, RUN_TIMEOUT_MS, imageLoaded } = require('./ui');

const session = useEditorSession('examples');
const EXAMPLE_FILES = [...new Set(readExampleWorkflows().workflows.map((w) => w.file))];
/** The node an example's write goes on to when the file could not be written. */
const NOT_SAVED = 'File Not Saved';

/** The files in the stack's files folder (where the examples write). */
const filesWritten = () => fs.readdirSync(session.stack.filesFolder).sort();

/** The newest execution of a workflow, finished, with its run data parsed. @param {string} id */
async function lastRun(id) {
	const request = /** @type {import('../harness/n8n/rest').RestRequest} */ (session.stack.request);
	const [newest] = await n8n.executionsOf(request, id, 1);
	const execution = await n8n.dataOf(request, 'GET', `/rest/executions/${newest.id}`);
	const writes = execution.workflowData.nodes
		.filter((/** @type {any} */ n) => n.type === 'n8n-nodes-base.readWriteFile')
		.filter((/** @type {any} */ n) => n.parameters.operation === 'write')
		.map((/** @type {any} */ n) => n.name);
	return { status: execution.status, run: n8n.parseExecutionData(execution.data), writes };
}

/** Names of the nodes that ran with an error, and of those that ran at all. @param {any} run */
function nodesThatRan(run) {
	const runData = run.resultData.runData ?? {};
	const failed = Object.entries(runData)
		.filter(([, runs]) => runs.some((/** @type {any} */ r) => r.error))
		.map(([name]) => name);
	return { ran: Object.keys(runData), failed };
}

/** How many items a node's last run put out on its first output. @param {any} run @param {string} node */
function itemsOut(run, node) {
	const runs = run.resultData.runData?.[node] ?? [];
	return runs.at(-1)?.data?.main?.[0]?.length ?? 0;
}

test.each(EXAMPLE_FILES)('%s runs green from the canvas', (file) =>
	session.step(path.basename(file, '.json'), async () => {
		const { page, stack } = session;
		expect(stack.problems).toEqual([]);
		const example = stack.workflows.find((w) => w.file === file);
		if (!example) throw new Error(`${file} was not imported`);
		const callsBefore = (await stack.service?.ledger())?.totals.requests ?? 0;
		const filesBefore = filesWritten();

		await page.goto(stack.workflowUrl(example.id));
		await page.getByTestId('canvas-node').first().waitFor();
		for (const node of example.nodes.filter((n) => n.type.startsWith(`${PACKAGE_NAME}.`))) {
			const nameInCss = String(node.name).replace(/["\\]/g, '\\$&');
			const selector = `[data-test-id="canvas-node"][data-node-name="${nameInCss}"]`;
			await imageLoaded(page, page.locator(`${selector} img[src*="${ICON_PATH_PART}"]`).first());
		}
		await page.getByTestId('execute-workflow-button').click();
		const succeeded = page.getByText('Workflow executed successfully').first();
		const redNode = page.getByTestId('canvas-node-status-error').first();
		await succeeded.or(redNode).waitFor({ timeout: RUN_TIMEOUT_MS });
		await page
			.getByTestId('zoom-to-fit')
			.click()
			.catch(() => {});
		await session.shot(path.basename(file, '.json'));

		const { status, run, writes } = await lastRun(example.id);
		const { ran, failed } = nodesThatRan(run);
		expect({ status, failed }).toEqual({ status: 'success', failed: [] });
		await expect(page.getByTestId('canvas-node-status-error').count()).resolves.toBe(0);
		// An example that searches and made no call proved nothing; one that only reads what
		// others collected (the weekly report) must at least hand its last node an item.
		if (example.nodes.some((n) => n.type.startsWith(`${PACKAGE_NAME}.`)))
			expect((await stack.service?.ledger())?.totals.requests ?? 0).toBeGreaterThan(callsBefore);
		else expect(itemsOut(run, run.resultData.lastNodeExecuted)).toBeGreaterThan(0);
		// Each write that ran wrote its file (none went on to File Not Saved).
		expect(ran).not.toContain(NOT_SAVED);
		const newFiles = filesWritten().filter((f) => !filesBefore.includes(f));
		expect(newFiles).toHaveLength(writes.filter((name) => ran.includes(name)).length);
	}),
);
