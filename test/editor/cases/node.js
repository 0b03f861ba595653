'use strict';

// The Sound Search node as a user meets it in n8n's editor: found in the node panel with its
// icon, its parameters, a run from its panel (with the output panel's cost notice) and from the
// canvas, and the "Sound Search demo" workflow `npm start` offers. One test a step, in order, sharing one page (each step goes on from
// where the one before left it); screenshots of every step in artifacts/editor/node/.
// Registered by editor.editor.test.js against its shared session (../session.js).
//
// Plain CommonJS on purpose: the project's strict linter applies node-code rules to every .ts file.

const stackModule = require('../../harness/stack');
const ui = require('../ui');

const { DEMO_CREDENTIAL, DEMO_WORKFLOW_ID } = stackModule;
const { ICON_PATH_PART, expectOurIcon, flatText, executeWorkflow, waitForSearches } = ui;
const BEARER = `Bearer ${stackModule.SERVICE_KEY}`;
// A query of our own, so that the ledger entries of this check are unmistakable.
const QUERY = 'rainy jazz';
const LIMIT = 10;

/**
 * What each step works with.
 * @typedef {object} Step
 * @property {import('playwright-core').Page} page
 * @property {import('../../harness/stack').Stack} stack
 * @property {(name: string) => Promise<void>} shot
 * @property {(name: string) => Promise<void>} docsShot a picture of docs/images/ (DOCS_IMAGES=1)
 */

/** @param {Step} step */
async function openNewWorkflow({ page, stack, shot }) {
	await page.goto(`${stack.n8n?.url}/workflow/new`);
	await page.getByTestId('canvas-add-button').waitFor();
	await shot('new-workflow');
}

/** @param {Step} step */
async function findInNodePanel({ page, shot }) {
	const item = await ui.searchNodePanel(page);
	await item.first().waitFor();
	await expect(item.count()).resolves.toBe(1);
	// n8n shows a node and its trigger as one entry (as Gmail and Gmail Trigger), described
	// by one of the two.
	await expect(
		item.first().getByTestId('node-creator-item-description').innerText(),
	).resolves.toMatch(/Search public sounds|Starts a workflow when new sounds appear/);
	await expectOurIcon(page, item.first().locator('img').first());
	await shot('node-panel-search');
	await item.first().click();
	// The app's page in the panel: the trigger's two events, then (collapsed in an empty
	// workflow, where n8n expects a trigger first) the node's one action.
	for (const event of ['On new sound', 'On rising sound']) {
		await ui.panelItem(page, event).waitFor();
	}
	await page.getByText('Actions (1)').click();
	await ui.panelItem(page, 'Search sounds by keyword').waitFor();
	await shot('node-panel-actions');
}

/** @param {Step} step */
async function addedWithItsParameters({ page, shot }) {
	await ui.panelItem(page, 'Search sounds by keyword').click();
	const ndv = page.getByTestId('ndv');
	await ndv.waitFor();
	// The credential is picked for the node (the only Sound Search API credential).
	const credential = ndv.getByTestId('node-credentials-select').locator('input');
	await expect(credential.inputValue()).resolves.toBe(DEMO_CREDENTIAL.name);
	for (const name of ['platform', 'query', 'returnAll', 'limit', 'simplify']) {
		await ndv.getByTestId(`parameter-input-${name}`).waitFor();
	}
	const labels = await ndv.getByTestId('node-parameters').innerText();
	for (const label of ['Platform', 'Query', 'Return All', 'Limit', 'Simplify', 'Options'])
		expect(labels).toContain(label);
	await shot('parameters');

	await ndv.getByTestId('parameter-input-platform').click();
	const options = page.locator('[data-test-id="parameter-input-item"]:visible .option-headline');
	await options.first().waitFor();
	expect(await options.allInnerTexts()).toEqual([
		'Short-Video Platform (1 Credit per Call)',
		'Photo-and-Video Platform (2 Credits per Call)',
	]);
	await shot('platform-options');
	await page.keyboard.press('Escape');
	await options.first().waitFor({ state: 'hidden' });
	await optionsCollection({ page, shot });
}

/** The Options collection's entries, opened and closed again. @param {Pick<Step, 'page' | 'shot'>} step */
async function optionsCollection({ page, shot }) {
	await page.locator('[data-test-id="collection-parameter-add"]:visible').click();
	const optionNames = page.locator('[data-test-id="collection-parameter-option"]:visible');
	await optionNames.first().waitFor();
	// Version 2: Simplify is the top-level switch above; version 1's Simplify Output is gone.
	expect(await optionNames.allInnerTexts()).toEqual([
		...['Max Calls in Flight', 'Max Credits', 'Max Pages', 'Max Wait on Rate Limits'],
		...['Page Size', 'Retries per Page', 'Start Cursor', 'Timeout'],
	]);
	await shot('options-collection');
	await page.keyboard.press('Escape');
	await optionNames.first().waitFor({ state: 'hidden' });
}

/** @param {Step} step */
async function runFromThePanel({ page, stack, shot, docsShot }) {
	const output = await ui.runFromPanel(page, QUERY, LIMIT);
	await expect(output.getByTestId('ndv-items-count').innerText()).resolves.toContain(
		`${LIMIT} items`,
	);
	await output.getByText('Rainy Jazz Sound 1').first().waitFor();
	const table = await flatText(output);
	expect(table).toContain('soundId');
	expect(table).toContain('Rainy Jazz Sound 1');
	// The notice with what the run cost (one page of 10 sounds: one call, 1 credit), and
	// Simplify's columns with creditsCharged in view without scrolling: the docs' picture.
	const notice = output.getByTestId('node-hint').filter({ hasText: 'This run cost' });
	expect((await notice.innerText()).trim()).toBe(
		'This run cost 1 credit: 1 call to the service (0 answered free from its cache), 0 repeated searches made once.',
	);
	await ui.expectSimplifiedColumns(output);
	await shot('output-table');
	await docsShot('cost-notice');

	await output.getByTestId('radio-button-json').click();
	await output.getByText('"creditsCharged"').first().waitFor();
	const json = await flatText(output);
	expect(json).toMatch(/"soundId": "7\d{18}"/);
	// Simplify is on for a new node: its 10 fields, `page` not among them.
	for (const field of [
		'"title": "Rainy Jazz Sound 1',
		'"creditsCharged": 1',
		'"query": "rainy jazz"',
	])
		expect(json).toContain(field);
	expect(json).not.toContain('"page"');
	await output.getByText('"creditsCharged"').first().scrollIntoViewIfNeeded();
	await shot('output-json');

	const searches = await waitForSearches(stack, 1, QUERY);
	expect(searches).toHaveLength(1);
	expect(searches[0]).toMatchObject({
		...{ method: 'GET', path: '/v1/shortvideo/sound/search', limit: String(LIMIT) },
		...{ authorization: BEARER, status: 200, creditsCharged: 1, itemCount: LIMIT },
	});
}

/** @param {Step} step */
async function runFromTheCanvas({ page, stack, shot }) {
	await page.getByTestId('ndv-close-button').click();
	await page.getByTestId('ndv').waitFor({ state: 'hidden' });
	const ourIcon = page.locator(`img[src*="${ICON_PATH_PART}"]`);
	const ourNode = page.getByTestId('canvas-node').filter({ has: ourIcon });
	await expect(ourNode.count()).resolves.toBe(1);
	await expectOurIcon(page, ourNode.locator('img').first());
	await expect(page.getByTestId('canvas-trigger-node').count()).resolves.toBe(1);

	// Forget the panel's run first, so that what the canvas shows next comes from this run.
	await page.getByTestId('clear-execution-data-button').click();
	await ourNode.getByTestId('canvas-node-status-success').waitFor({ state: 'detached' });
	await executeWorkflow(page);
	await ourNode.getByTestId('canvas-node-status-success').waitFor();
	await page.getByTestId('canvas').getByText(`${LIMIT} items`, { exact: true }).first().waitFor();
	await shot('workflow-executed');
	// A second request for the same search (the service may answer it from its cache).
	const searches = await waitForSearches(stack, 2, QUERY);
	expect(searches).toHaveLength(2);
	expect(searches[1]).toMatchObject({ authorization: BEARER, status: 200, itemCount: LIMIT });
}

/** @param {Step} step */
async function runTheDemoWorkflow({ page, stack, shot }) {
	await page.goto(stack.workflowUrl(DEMO_WORKFLOW_ID));
	const node = page.locator('[data-test-id="canvas-node"][data-node-name="Sound Search"]');
	await node.waitFor();
	await expectOurIcon(page, node.locator('img').first());
	await shot('demo-workflow');
	await executeWorkflow(page);
	const [search] = await waitForSearches(stack, 1, 'lofi');
	expect(search).toMatchObject({ limit: '10', authorization: BEARER, status: 200 });

	await node.dblclick({ force: true });
	const output = page.getByTestId('output-panel');
	await output.getByTestId('node-run-status-success').waitFor();
	await expect(output.getByTestId('ndv-items-count').innerText()).resolves.toContain('10 items');
	// The demo shows the shape the README describes (node version 2, Simplify on).
	await ui.expectSimplifiedColumns(output);
	await output.getByText('Lofi Sound 1').first().waitFor();
	await shot('demo-output');
	await page.getByTestId('ndv-close-button').click();
}

/**
 * Registers this concern's tests against the shared session.
 * @param {import('../session').EditorSession} session
 */
function nodeCases(session) {
	const { shot, step } = session.folder('node');
	// The docs' pictures are kept in artifacts/editor/ itself, their place since before the session.
	const { docsShot } = session.folder('');
	/** Runs `fn` as the step `name` on the session's page. @param {string} name @param {(s: Step) => Promise<void>} fn */
	const as = (name, fn) => () => step(name, () => fn({ ...session, shot, docsShot }));

	describe('the Sound Search node in the n8n editor (headless Chromium)', () => {
		// The searches below are asserted by count and position in the service's ledger, and the
		// first one as a paid (not cached) answer: they must be this concern's alone, whatever the
		// other concerns of the session searched before.
		beforeAll(() => session.resetService());

		test('open a new workflow', as('new-workflow', openNewWorkflow));
		test(
			'the node panel finds "Sound Search" by name, with our icon',
			as('node-panel', findInNodePanel),
		);
		test(
			'added (version 2), its parameters render: Platform (both options with credit prices), Query, Return All, Limit, Simplify, Options',
			as('parameters', addedWithItsParameters),
		);
		test(
			'run from the node panel: the output shows the sounds with creditsCharged in view and the cost notice; the service saw the request',
			as('execute-step', runFromThePanel),
		);
		test(
			'the workflow (Manual Trigger -> Sound Search) runs from the canvas',
			as('execute-workflow', runFromTheCanvas),
		);
		test(
			'the ready-made "Sound Search demo" workflow (what npm start offers) runs from the editor, its table in the shape of the README Output section',
			as('demo-workflow', runTheDemoWorkflow),
		);
	});
}

module.exports = { nodeCases };
