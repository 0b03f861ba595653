'use strict';

// The Sound Search node as a user meets it in n8n's editor: found in the node panel with its
// icon, its parameters, a run from its panel and from the canvas, and the "Sound Search demo"
// workflow `npm start` offers. The stack of `npm start` driven in headless Chromium
// (session.js); one test a step, in order, sharing one page; screenshots of every step in
// artifacts/editor/node/.
//
// Plain CommonJS on purpose: the project's strict linter applies node-code rules to every .ts file.

const stackModule = require('../harness/stack');
const { useEditorSession } = require('./session');
const ui = require('./ui');

const { DEMO_CREDENTIAL, DEMO_WORKFLOW_ID } = stackModule;
const { ICON_PATH_PART, RUN_TIMEOUT_MS, expectOurIcon, flatText, executeWorkflow } = ui;
const BEARER = `Bearer ${stackModule.SERVICE_KEY}`;
// A query of our own, so that the ledger entries of this check are unmistakable.
const QUERY = 'rainy jazz';
const LIMIT = 10;

const session = useEditorSession('node');
const { shot, step } = session;
/** @type {import('playwright-core').Page} */
let page;
/** @type {import('../harness/stack').Stack} */
let stack;
beforeAll(() => {
	({ page, stack } = session);
});

/** An entry of the node panel's lists (an event, an action). @param {string} text */
const panelItem = (text) => page.getByTestId('item-iterator-item').filter({ hasText: text });
const waitForSearches = ui.waitForSearches;

describe('the Sound Search node in the n8n editor (headless Chromium)', () => {
	test('open a new workflow', () =>
		step('new-workflow', async () => {
			await page.goto(`${stack.n8n?.url}/workflow/new`);
			await page.getByTestId('canvas-add-button').waitFor();
			await shot('new-workflow');
		}));

	test('the node panel finds "Sound Search" by name, with our icon', () =>
		step('node-panel', async () => {
			await page.getByTestId('canvas-add-button').click();
			await page.getByTestId('node-creator-search-bar').fill('Sound Search');
			const name = page
				.getByTestId('node-creator-item-name')
				.getByText('Sound Search', { exact: true });
			const item = page.getByTestId('node-creator-action-item').filter({ has: name });
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
				await panelItem(event).waitFor();
			}
			await page.getByText('Actions (1)').click();
			await panelItem('Search sounds by keyword').waitFor();
			await shot('node-panel-actions');
		}));

	test('added (version 2), its parameters render: Platform (both options with credit prices), Query, Return All, Limit, Simplify, Options', () =>
		step('parameters', async () => {
			await panelItem('Search sounds by keyword').click();
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
			const options = page.locator(
				'[data-test-id="parameter-input-item"]:visible .option-headline',
			);
			await options.first().waitFor();
			expect(await options.allInnerTexts()).toEqual([
				'Short-Video Platform (1 Credit per Call)',
				'Photo-and-Video Platform (2 Credits per Call)',
			]);
			await shot('platform-options');
			await page.keyboard.press('Escape');
			await options.first().waitFor({ state: 'hidden' });

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
		}));

	test('run from the node panel: the output shows the sounds with creditsCharged; the service saw the request', () =>
		step('execute-step', async () => {
			const ndv = page.getByTestId('ndv');
			await ndv.getByTestId('parameter-input-query').locator('input, textarea').first().fill(QUERY);
			await ndv.getByTestId('parameter-input-limit').locator('input').fill(String(LIMIT));
			await ndv.getByTestId('node-execute-button').click();

			const output = page.getByTestId('output-panel');
			await output.getByTestId('node-run-status-success').waitFor({ timeout: RUN_TIMEOUT_MS });
			await expect(output.getByTestId('ndv-items-count').innerText()).resolves.toContain(
				`${LIMIT} items`,
			);
			await output.getByText('Rainy Jazz Sound 1').first().waitFor();
			const table = await flatText(output);
			expect(table).toContain('soundId');
			expect(table).toContain('Rainy Jazz Sound 1');
			await shot('output-table');

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
		}));

	test('the workflow (Manual Trigger -> Sound Search) runs from the canvas', () =>
		step('execute-workflow', async () => {
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
			await page
				.getByTestId('canvas')
				.getByText(`${LIMIT} items`, { exact: true })
				.first()
				.waitFor();
			await shot('workflow-executed');
			// A second request for the same search (the service may answer it from its cache).
			const searches = await waitForSearches(stack, 2, QUERY);
			expect(searches).toHaveLength(2);
			expect(searches[1]).toMatchObject({ authorization: BEARER, status: 200, itemCount: LIMIT });
		}));

	test('the ready-made "Sound Search demo" workflow (what npm start offers) runs from the editor', () =>
		step('demo-workflow', async () => {
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
			await expect(output.getByTestId('ndv-items-count').innerText()).resolves.toContain(
				'10 items',
			);
			await output.getByTestId('radio-button-table').click();
			await output.getByText('Lofi Sound 1').first().waitFor();
			await shot('demo-output');
			await page.getByTestId('ndv-close-button').click();
		}));
});
