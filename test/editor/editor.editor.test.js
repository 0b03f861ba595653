'use strict';

// The editor check: what a user sees in n8n's editor with this package installed. The stack of
// `npm start` (test/harness/stack/: n8n with the packed package, the reference service, an
// owner, the demo credential and workflows) driven in headless Chromium (browser.js). One test a
// step, in order, sharing one page; screenshots of every step in artifacts/editor/.
//
// Plain CommonJS on purpose: the project's strict linter applies node-code rules to every .ts file.

const fs = require('node:fs');
const path = require('node:path');
const stackModule = require('../harness/stack');
const { REPO_ROOT } = require('../harness/packageTarball');
const { poll } = require('../harness/poll');
const { EditorBrowser } = require('./browser');

const { Stack, DEMO_OWNER, DEMO_CREDENTIAL, DEMO_WORKFLOW_ID, PACKAGE_NAME } = stackModule;
const BEARER = `Bearer ${stackModule.SERVICE_KEY}`;
const ICON_PATH_PART = `/icons/${PACKAGE_NAME}/`;
const UI_TIMEOUT_MS = 30_000;
const RUN_TIMEOUT_MS = 60_000;
// A query of our own, so that the ledger entries of this check are unmistakable.
const QUERY = 'rainy jazz';
const LIMIT = 10;

const browser = new EditorBrowser();
/** @type {InstanceType<typeof Stack>} */
let stack;
/** @type {import('playwright-core').Page} */
let page;
const shot = (/** @type {string} */ name) => browser.shot(name);
const step = browser.step.bind(browser);

/** An entry of the node panel's lists (an event, an action). @param {string} text */
const panelItem = (text) => page.getByTestId('item-iterator-item').filter({ hasText: text });

/** The reference service's requests for a query (QUERY unless named). */
async function searchesFor(query = QUERY) {
	const ledger = await stack.service?.ledger();
	return (ledger?.requests ?? []).filter(
		(/** @type {any} */ r) => r.query === query || r.q === query,
	);
}

/** Waits until the service has `count` requests for the query (or the time is up). */
const waitForSearches = (/** @type {number} */ count, query = QUERY) =>
	poll(
		() => searchesFor(query),
		(list) => list.length >= count,
		RUN_TIMEOUT_MS,
	);

/** @param {import('playwright-core').Locator} img waits until the image has loaded */
async function imageLoaded(img) {
	const element = await img.elementHandle({ timeout: UI_TIMEOUT_MS });
	const loaded = (el) => el.complete && el.naturalWidth > 0;
	await page.waitForFunction(loaded, element, { timeout: UI_TIMEOUT_MS });
}

/**
 * Checks that an <img> is our node icon: served by n8n from the installed package, loaded, and
 * byte for byte the SVG in icons/ (not a fallback).
 * @param {import('playwright-core').Locator} img
 */
async function expectOurIcon(img) {
	const src = String(await img.getAttribute('src', { timeout: UI_TIMEOUT_MS }));
	expect(src).toContain(ICON_PATH_PART);
	expect(src).toMatch(/soundSearch\.svg$/);
	await imageLoaded(img);
	const response = await page.request.get(new URL(src, page.url()).href);
	expect(response.status()).toBe(200);
	expect(response.headers()['content-type']).toContain('image/svg+xml');
	const svg = fs.readFileSync(path.join(REPO_ROOT, 'icons', 'soundSearch.svg'), 'utf8');
	expect((await response.body()).toString('utf8')).toBe(svg);
}

/** The run-data panel's text (the JSON view splits lines oddly) in single spaces. */
const flatText = async (/** @type {import('playwright-core').Locator} */ locator) =>
	(await locator.innerText()).replace(/\s+/g, ' ');

/** Clicks "Execute workflow" on the canvas and waits for n8n's success message. */
async function executeWorkflow() {
	await page.getByTestId('execute-workflow-button').click();
	const done = page.getByText('Workflow executed successfully').first();
	await done.waitFor({ timeout: RUN_TIMEOUT_MS });
}

beforeAll(async () => {
	stack = new Stack({ log: (line) => process.stdout.write(`[stack] ${line}\n`) });
	await stack.start();
	page = await browser.open(UI_TIMEOUT_MS);
}, 20 * 60_000);

afterAll(async () => {
	try {
		const urls = { n8n: stack?.n8n?.url, referenceService: stack?.service?.url };
		await browser.close({ ...urls, stackTimingsMs: stack?.timings });
	} finally {
		if (stack) await stack.stop();
	}
	const left = stack ? stack.livePids() : [];
	if (left.length > 0) throw new Error(`still running after stop: pid ${left.join(', ')}`);
}, 60_000);

describe('the Sound Search node in the n8n editor (headless Chromium)', () => {
	test('log in as the owner', () =>
		step('sign-in', async () => {
			await page.goto(`${stack.n8n?.url}/signin`);
			await page.getByTestId('emailOrLdapLoginId').locator('input').fill(DEMO_OWNER.email);
			await page.getByTestId('password').locator('input').fill(DEMO_OWNER.password);
			await shot('sign-in');
			await page.getByTestId('form-submit-button').click();
			await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
			await page.getByTestId('main-sidebar-settings').waitFor();
			await shot('signed-in');
		}));

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
			await expectOurIcon(item.first().locator('img').first());
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

	test('added, its parameters render: Platform (both options with credit prices), Query, Return All, Limit, Options', () =>
		step('parameters', async () => {
			await panelItem('Search sounds by keyword').click();
			const ndv = page.getByTestId('ndv');
			await ndv.waitFor();
			// The credential is picked for the node (the only Sound Search API credential).
			const credential = ndv.getByTestId('node-credentials-select').locator('input');
			await expect(credential.inputValue()).resolves.toBe(DEMO_CREDENTIAL.name);
			for (const name of ['platform', 'query', 'returnAll', 'limit']) {
				await ndv.getByTestId(`parameter-input-${name}`).waitFor();
			}
			const labels = await ndv.getByTestId('node-parameters').innerText();
			for (const label of ['Platform', 'Query', 'Return All', 'Limit', 'Options'])
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
			const names = await optionNames.allInnerTexts();
			for (const name of ['Page Size', 'Simplify Output', 'Start Cursor'])
				expect(names).toContain(name);
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
			for (const field of ['"title": "Rainy Jazz Sound 1', '"creditsCharged": 1', '"page": 1'])
				expect(json).toContain(field);
			await output.getByText('"creditsCharged"').first().scrollIntoViewIfNeeded();
			await shot('output-json');

			const searches = await waitForSearches(1);
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
			await expectOurIcon(ourNode.locator('img').first());
			await expect(page.getByTestId('canvas-trigger-node').count()).resolves.toBe(1);

			// Forget the panel's run first, so that what the canvas shows next comes from this run.
			await page.getByTestId('clear-execution-data-button').click();
			await ourNode.getByTestId('canvas-node-status-success').waitFor({ state: 'detached' });
			await executeWorkflow();
			await ourNode.getByTestId('canvas-node-status-success').waitFor();
			await page
				.getByTestId('canvas')
				.getByText(`${LIMIT} items`, { exact: true })
				.first()
				.waitFor();
			await shot('workflow-executed');
			// A second request for the same search (the service may answer it from its cache).
			const searches = await waitForSearches(2);
			expect(searches).toHaveLength(2);
			expect(searches[1]).toMatchObject({ authorization: BEARER, status: 200, itemCount: LIMIT });
		}));

	test('the ready-made "Sound Search demo" workflow (what npm start offers) runs from the editor', () =>
		step('demo-workflow', async () => {
			await page.goto(stack.workflowUrl(DEMO_WORKFLOW_ID));
			const node = page.locator('[data-test-id="canvas-node"][data-node-name="Sound Search"]');
			await node.waitFor();
			await expectOurIcon(node.locator('img').first());
			await shot('demo-workflow');
			await executeWorkflow();
			const [search] = await waitForSearches(1, 'lofi');
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

	test('each imported example workflow opens, with our icon on its Sound Search nodes', () =>
		step('examples', async () => {
			if (stack.problems.length > 0)
				process.stdout.write(`[editor] examples not imported:\n${stack.problems.join('\n')}\n`);
			for (const example of stack.workflows.filter((w) => w.file !== '(built in)')) {
				await page.goto(stack.workflowUrl(example.id));
				await page.getByTestId('canvas-node').first().waitFor();
				for (const node of example.nodes.filter((n) => n.type.startsWith(`${PACKAGE_NAME}.`))) {
					const nameInCss = String(node.name).replace(/["\\]/g, '\\$&');
					const img = page.locator(
						`[data-test-id="canvas-node"][data-node-name="${nameInCss}"] img[src*="${ICON_PATH_PART}"]`,
					);
					await imageLoaded(img.first());
				}
				await page
					.getByTestId('zoom-to-fit')
					.click()
					.catch(() => {});
				await shot(`example-${path.basename(example.file, '.json')}`);
			}
		}));
});
