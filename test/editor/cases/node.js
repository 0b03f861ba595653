'use strict';

// The Sound Search node as a user meets it in n8n's editor: found in the node panel with its
// icon, its parameters, a run from its panel (with the output panel's cost notice), and the
// "Sound Search demo" workflow `npm start` offers, run from the canvas. One test a step, in order,
// sharing one page (each step goes on from where the one before left it); screenshots of every
// step in artifacts/editor/node/. Registered by editor.editor.test.js against its shared session
// (../session.js). What the items hold is proven in test/engine/.
//
// Plain CommonJS on purpose: the project's strict linter applies node-code rules to every .ts file.

const fs = require('node:fs');
const path = require('node:path');
const { DEMO_CREDENTIAL, DEMO_WORKFLOW_ID, SERVICE_KEY } = require('../../harness/stack');
const { REPO_ROOT } = require('../../harness/packageTarball');
const { poll } = require('../../harness/poll');
const { SIMPLIFIED_FIELDS } = require('../../harness/outputShape');
const { ICON_PATH_PART, RUN_TIMEOUT_MS, UI_TIMEOUT_MS, imageLoaded } = require('../ui');

const BEARER = `Bearer ${SERVICE_KEY}`;
// A query of our own, so that the ledger entries of this check are unmistakable.
const QUERY = 'rainy jazz';
const LIMIT = 10;

/**
 * What each step works with.
 * @typedef {object} Step
 * @property {import('playwright-core').Page} page
 * @property {import('../npmStart').NpmStart} stack
 * @property {(name: string) => Promise<void>} shot
 * @property {(name: string) => Promise<void>} docsShot a picture of docs/images/ (npm run pictures)
 */
/** @typedef {import('playwright-core').Page} Page @typedef {import('playwright-core').Locator} Locator */

/**
 * An <img> is our node icon: served by n8n from the installed package, loaded, and byte for byte
 * the SVG in icons/ (not a fallback).
 * @param {Page} page @param {Locator} img
 */
async function expectOurIcon(page, img) {
	const src = String(await img.getAttribute('src', { timeout: UI_TIMEOUT_MS }));
	expect(src).toContain(ICON_PATH_PART);
	expect(src).toMatch(/soundSearch\.svg$/);
	await imageLoaded(page, img);
	const response = await page.request.get(new URL(src, page.url()).href);
	expect([response.status(), response.headers()['content-type']]).toEqual([
		200,
		expect.stringContaining('image/svg+xml'),
	]);
	const svg = fs.readFileSync(path.join(REPO_ROOT, 'icons', 'soundSearch.svg'), 'utf8');
	expect((await response.body()).toString('utf8')).toBe(svg);
}

/**
 * The output panel's table shows Simplify's fields first, in their order, with creditsCharged
 * inside the panel as it opens (no scrolling): what the README's "At first sight" promises.
 * @param {Locator} output the output panel, showing a Sound Search run
 */
async function expectSimplifiedColumns(output) {
	await output.getByTestId('radio-button-table').click();
	const headers = output.locator('th');
	const credits = headers.filter({ hasText: 'creditsCharged' }).first();
	await credits.waitFor();
	const names = (await headers.allInnerTexts()).map((text) => text.trim()).filter(Boolean);
	expect(names.slice(0, SIMPLIFIED_FIELDS.length)).toEqual(SIMPLIFIED_FIELDS);
	const [panel, column] = [await output.boundingBox(), await credits.boundingBox()];
	expect(column && panel && column.x + column.width <= panel.x + panel.width).toBe(true);
}

/**
 * The service's requests for a query, once there are `count` of them.
 * @param {import('../npmStart').NpmStart} stack @param {number} count @param {string} query
 */
function searchesFor(stack, count, query) {
	const all = async () =>
		((await stack.service?.ledger())?.requests ?? []).filter(
			(/** @type {any} */ r) => r.query === query || r.q === query,
		);
	return poll(all, (list) => list.length >= count, RUN_TIMEOUT_MS);
}

/** An entry of the node panel's lists (an event, an action). @param {Page} page @param {string} text */
const panelItem = (page, text) => page.getByTestId('item-iterator-item').filter({ hasText: text });

/** @param {Step} step */
async function findInNodePanel({ page, stack, shot }) {
	await page.goto(`${stack.n8n?.url}/workflow/new`);
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
	for (const event of ['On new sound', 'On rising sound']) await panelItem(page, event).waitFor();
	await page.getByText('Actions (1)').click();
	await panelItem(page, 'Search sounds by keyword').waitFor();
	await shot('node-panel-actions');
}

/** @param {Step} step */
async function addedWithItsParameters({ page, shot }) {
	await panelItem(page, 'Search sounds by keyword').click();
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
}

/** @param {Step} step */
async function runFromThePanel({ page, stack, shot, docsShot }) {
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
	// The notice with what the run cost (one page of 10 sounds: one call, 1 credit), and
	// Simplify's columns with creditsCharged in view without scrolling: the docs' picture.
	const notice = output.getByTestId('node-hint').filter({ hasText: 'This run cost' });
	expect((await notice.innerText()).trim()).toBe(
		'This run cost 1 credit: 1 call to the service (0 answered free from its cache), 0 repeated searches made once.',
	);
	await expectSimplifiedColumns(output);
	await shot('output-table');
	await docsShot('cost-notice');

	const [search, ...more] = await searchesFor(stack, 1, QUERY);
	expect(more).toEqual([]);
	expect(search).toMatchObject({
		...{ method: 'GET', path: '/v1/shortvideo/sound/search', limit: String(LIMIT) },
		...{ authorization: BEARER, status: 200, creditsCharged: 1, itemCount: LIMIT },
	});
	await page.getByTestId('ndv-close-button').click();
}

/** @param {Step} step */
async function runTheDemoWorkflow({ page, stack, shot }) {
	await page.goto(stack.workflowUrl(DEMO_WORKFLOW_ID));
	const node = page.locator('[data-test-id="canvas-node"][data-node-name="Sound Search"]');
	await node.waitFor();
	await expectOurIcon(page, node.locator('img').first());
	await shot('demo-workflow');
	await page.getByTestId('execute-workflow-button').click();
	await page
		.getByText('Workflow executed successfully')
		.first()
		.waitFor({ timeout: RUN_TIMEOUT_MS });
	const [search] = await searchesFor(stack, 1, 'lofi');
	expect(search).toMatchObject({ limit: '10', authorization: BEARER, status: 200 });

	await node.dblclick({ force: true });
	const output = page.getByTestId('output-panel');
	await output.getByTestId('node-run-status-success').waitFor();
	await expect(output.getByTestId('ndv-items-count').innerText()).resolves.toContain('10 items');
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
		beforeAll(() => session.stack.service?.reset());

		test(
			'in a new workflow, the node panel finds "Sound Search" by name, with our icon',
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
			'the ready-made "Sound Search demo" workflow (what npm start offers) runs from the canvas',
			as('demo-workflow', runTheDemoWorkflow),
		);
	});
}

module.exports = { nodeCases };
