'use strict';

// The editor check: what a user sees in n8n's editor with this package installed. A real n8n
// (`n8n start`, the packed package installed as n8n installs a community package, the reference
// service, an owner, the demo credential and workflows: test/harness/stack.js, the same code as
// `npm start`) driven in headless Debian Chromium through playwright-core.
//
// Steps (one test each, in order, sharing one browser page): log in; new workflow; the node panel
// finds "Sound Search" with our SVG icon; the node's actions; add it: its parameters render
// (Platform with both options and their credit prices, Query, Return All, Limit, Options); run it
// from its panel: the output shows the sounds and creditsCharged, and the reference service's
// ledger saw the request (Bearer key, query, limit); run the workflow from the canvas; run the
// ready-made "Sound Search demo" workflow; open each imported example.
// Screenshots of every step: artifacts/editor/*.png (plus summary.json).
//
// Plain CommonJS on purpose: the project's strict linter applies node-code rules to every .ts file.
// Needs /usr/bin/chromium: scripts/ensure-chromium.sh installs Debian's package.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { chromium, selectors } = require('playwright-core');
const {
	Stack,
	DEMO_OWNER,
	DEMO_CREDENTIAL,
	DEMO_WORKFLOW_ID,
	PACKAGE_NAME,
	SERVICE_KEY,
} = require('../harness/stack');
const { REPO_ROOT } = require('../harness/packageTarball');

const CHROMIUM = '/usr/bin/chromium';
// The flags from /work/shared/notes (playwright adds --headless itself); small /dev/shm in
// containers crashes Chromium without --disable-dev-shm-usage.
const CHROMIUM_FLAGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	'--disable-dev-shm-usage',
];
const ARTIFACTS = path.join(REPO_ROOT, 'artifacts', 'editor');
const ICON_FILE = path.join(REPO_ROOT, 'icons', 'soundSearch.svg');
const ICON_PATH_PART = `/icons/${PACKAGE_NAME}/`;
const UI_TIMEOUT_MS = 30_000;
const RUN_TIMEOUT_MS = 60_000;
// A query of our own, so that the ledger entries of this check are unmistakable.
const QUERY = 'rainy jazz';
const LIMIT = 10;

selectors.setTestIdAttribute('data-test-id');

/** @type {Stack} */
let stack;
/** @type {import('playwright-core').BrowserContext | undefined} */
let context;
/** @type {import('playwright-core').Page} */
let page;
/** @type {string | undefined} */
let userDataDir;
let blockedRequests = 0;
/** @type {string[]} */
const screenshots = [];
/** @type {Record<string, number>} */
const stepMs = {};
const suiteStart = Date.now();

/**
 * Saves a screenshot as artifacts/editor/NN-name.png.
 * @param {string} name
 */
async function shot(name) {
	const file = `${String(screenshots.length + 1).padStart(2, '0')}-${name}.png`;
	await page.screenshot({ path: path.join(ARTIFACTS, file) });
	screenshots.push(file);
}

/**
 * Runs one step; on failure saves a screenshot "failed-<step>.png" before rethrowing.
 * @param {string} name
 * @param {() => Promise<void>} fn
 */
async function step(name, fn) {
	const t0 = Date.now();
	try {
		await fn();
	} catch (error) {
		if (page) {
			const file = `failed-${name}.png`;
			await page.screenshot({ path: path.join(ARTIFACTS, file) }).catch(() => {});
			screenshots.push(file);
		}
		throw error;
	} finally {
		stepMs[name] = Date.now() - t0;
	}
}

/** The reference service's recorded search requests for QUERY (or another query). */
async function searchesFor(query = QUERY) {
	const ledger = await stack.service?.ledger();
	return (ledger?.requests ?? []).filter(
		(/** @type {any} */ r) => r.query === query || r.q === query,
	);
}

/**
 * Waits until fn() is truthy (polling), or fails with `what`.
 * @template T
 * @param {string} what
 * @param {() => Promise<T | undefined | null | false>} fn
 * @param {number} [timeoutMs]
 * @returns {Promise<T>}
 */
async function eventually(what, fn, timeoutMs = RUN_TIMEOUT_MS) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await fn();
		if (value) return value;
		if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/**
 * Checks that an <img> is our node icon: served by n8n from the installed package, loaded, and
 * byte for byte the SVG in icons/ (not a fallback).
 * @param {import('playwright-core').Locator} img
 */
async function expectOurIcon(img) {
	await img.waitFor({ state: 'attached', timeout: UI_TIMEOUT_MS });
	const src = await img.getAttribute('src');
	expect(src).toContain(ICON_PATH_PART);
	expect(src).toMatch(/soundSearch\.svg$/);
	await imageLoaded(img);
	const response = await page.request.get(new URL(/** @type {string} */ (src), page.url()).href);
	expect(response.status()).toBe(200);
	expect(response.headers()['content-type']).toContain('image/svg+xml');
	expect((await response.body()).toString('utf8')).toBe(fs.readFileSync(ICON_FILE, 'utf8'));
}

/**
 * Waits until the image has loaded (complete with a natural width).
 * @param {import('playwright-core').Locator} img
 */
async function imageLoaded(img) {
	return eventually(
		'the icon image to load',
		() =>
			img.evaluate((el) => {
				const image = /** @type {HTMLImageElement} */ (el);
				return image.complete && image.naturalWidth > 0;
			}),
		UI_TIMEOUT_MS,
	);
}

/**
 * Collapses the run-data panel's text (the JSON view splits lines oddly) into single spaces.
 * @param {import('playwright-core').Locator} locator
 */
async function flatText(locator) {
	return (await locator.innerText()).replace(/\s+/g, ' ');
}

/** Kills (by pid) any Chromium process still using our profile folder. */
function killLeftoverChromium() {
	if (!userDataDir) return [];
	const killed = [];
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		let cmdline = '';
		try {
			cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
		} catch {
			continue;
		}
		if (cmdline.includes(userDataDir)) {
			try {
				process.kill(Number(entry), 'SIGKILL');
				killed.push(Number(entry));
			} catch {
				// gone
			}
		}
	}
	return killed;
}

beforeAll(async () => {
	fs.mkdirSync(ARTIFACTS, { recursive: true });
	for (const file of fs.readdirSync(ARTIFACTS)) {
		if (file.endsWith('.png') || file === 'summary.json') fs.rmSync(path.join(ARTIFACTS, file));
	}
	if (!fs.existsSync(CHROMIUM)) {
		throw new Error(
			`${CHROMIUM} is missing: run scripts/ensure-chromium.sh (installs Debian's chromium package)`,
		);
	}
	stack = new Stack({ log: (line) => process.stdout.write(`[stack] ${line}\n`) });
	await stack.start();

	userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'editor-chromium-'));
	context = await chromium.launchPersistentContext(userDataDir, {
		executablePath: CHROMIUM,
		headless: true,
		args: CHROMIUM_FLAGS,
		viewport: { width: 1440, height: 900 },
		colorScheme: 'light',
		locale: 'en-US',
		timezoneId: 'UTC',
	});
	context.setDefaultTimeout(UI_TIMEOUT_MS);
	// The browser talks to this n8n only: anything else (n8n's editor looks packages up on a
	// registry, for example) is refused here and counted.
	await context.route(
		(url) =>
			!(url.protocol === 'data:' || url.protocol === 'blob:' || url.hostname === '127.0.0.1'),
		(route) => {
			blockedRequests += 1;
			return route.abort('blockedbyclient');
		},
	);
	page = context.pages()[0] ?? (await context.newPage());
}, 20 * 60_000);

afterAll(async () => {
	if (context) {
		/** @type {NodeJS.Timeout | undefined} */
		let timer;
		const gaveUp = new Promise((resolve) => (timer = setTimeout(resolve, 15_000)));
		await Promise.race([context.close().catch(() => {}), gaveUp]);
		clearTimeout(timer);
	}
	const killedChromium = killLeftoverChromium();
	if (userDataDir) fs.rmSync(userDataDir, { recursive: true, force: true, maxRetries: 3 });
	if (stack) await stack.stop();
	const left = stack ? stack.livePids() : [];
	fs.mkdirSync(ARTIFACTS, { recursive: true });
	fs.writeFileSync(
		path.join(ARTIFACTS, 'summary.json'),
		JSON.stringify(
			{
				n8n: stack?.n8n?.url,
				referenceService: stack?.service?.url,
				stackTimingsMs: stack?.timings,
				stepMs,
				suiteMs: Date.now() - suiteStart,
				blockedNonLoopbackRequests: blockedRequests,
				killedChromiumPids: killedChromium,
				screenshots,
			},
			null,
			2,
		),
	);
	if (left.length > 0) throw new Error(`still running after stop: pid ${left.join(', ')}`);
}, 60_000);

describe('the Sound Search node in the n8n editor (headless Chromium)', () => {
	test('log in as the owner', () =>
		step('sign-in', async () => {
			const server = /** @type {import('../harness/n8n').N8nServer} */ (stack.n8n);
			await page.goto(`${server.url}/signin`);
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
			const server = /** @type {import('../harness/n8n').N8nServer} */ (stack.n8n);
			await page.goto(`${server.url}/workflow/new`);
			await page.getByTestId('canvas-add-button').waitFor();
			await shot('new-workflow');
		}));

	test('the node panel finds "Sound Search" by name, with our icon', () =>
		step('node-panel', async () => {
			await page.getByTestId('canvas-add-button').click();
			const search = page.getByTestId('node-creator-search-bar');
			await search.fill('Sound Search');
			const item = page.getByTestId('node-creator-action-item').filter({
				has: page.getByTestId('node-creator-item-name').getByText('Sound Search', { exact: true }),
			});
			await item.first().waitFor();
			await expect(item.count()).resolves.toBe(1);
			await expect(
				item.first().getByTestId('node-creator-item-description').innerText(),
			).resolves.toContain('Search public sounds');
			const icon = item.first().locator('img').first();
			await imageLoaded(icon);
			await expectOurIcon(icon);
			await shot('node-panel-search');
			await item.first().click();
			// The node's page in the panel: its one action.
			await page
				.getByTestId('item-iterator-item')
				.filter({ hasText: 'Search sounds by keyword' })
				.waitFor();
			await shot('node-panel-actions');
		}));

	test('added, its parameters render: Platform (both options with credit prices), Query, Return All, Limit, Options', () =>
		step('parameters', async () => {
			await page
				.getByTestId('item-iterator-item')
				.filter({ hasText: 'Search sounds by keyword' })
				.click();
			const ndv = page.getByTestId('ndv');
			await ndv.waitFor();
			// The credential is picked for the node (the only Sound Search API credential).
			await expect(
				ndv.getByTestId('node-credentials-select').locator('input').inputValue(),
			).resolves.toBe(DEMO_CREDENTIAL.name);
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

			const addOption = page.locator('[data-test-id="collection-parameter-add"]:visible');
			await addOption.click();
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
			expect(json).toContain('"title": "Rainy Jazz Sound 1');
			expect(json).toContain('"creditsCharged": 1');
			expect(json).toContain('"page": 1');
			await output.getByText('"creditsCharged"').first().scrollIntoViewIfNeeded();
			await shot('output-json');

			const searches = await searchesFor();
			expect(searches).toHaveLength(1);
			expect(searches[0]).toMatchObject({
				method: 'GET',
				path: '/v1/shortvideo/sound/search',
				limit: String(LIMIT),
				authorization: `Bearer ${SERVICE_KEY}`,
				status: 200,
				creditsCharged: 1,
				itemCount: LIMIT,
			});
		}));

	test('the workflow (Manual Trigger -> Sound Search) runs from the canvas', () =>
		step('execute-workflow', async () => {
			await page.getByTestId('ndv-close-button').click();
			await page.getByTestId('ndv').waitFor({ state: 'hidden' });
			const ourNode = page
				.getByTestId('canvas-node')
				.filter({ has: page.locator(`img[src*="${ICON_PATH_PART}"]`) });
			await expect(ourNode.count()).resolves.toBe(1);
			await expectOurIcon(ourNode.locator('img').first());
			await expect(page.getByTestId('canvas-trigger-node').count()).resolves.toBe(1);

			// Forget the panel's run first, so that what the canvas shows next comes from this run.
			await page.getByTestId('clear-execution-data-button').click();
			await ourNode.getByTestId('canvas-node-status-success').waitFor({ state: 'detached' });
			await page.getByTestId('execute-workflow-button').click();
			await page
				.getByText('Workflow executed successfully')
				.first()
				.waitFor({ timeout: RUN_TIMEOUT_MS });
			await ourNode.getByTestId('canvas-node-status-success').waitFor();
			await page
				.getByTestId('canvas')
				.getByText(`${LIMIT} items`, { exact: true })
				.first()
				.waitFor();
			await shot('workflow-executed');
			// A second request for the same search (the service may answer it from its cache).
			const searches = await eventually('a second request in the ledger', async () => {
				const list = await searchesFor();
				return list.length === 2 ? list : undefined;
			});
			expect(searches[1]).toMatchObject({
				authorization: `Bearer ${SERVICE_KEY}`,
				status: 200,
				itemCount: LIMIT,
			});
		}));

	test('the ready-made "Sound Search demo" workflow (what npm start offers) runs from the editor', () =>
		step('demo-workflow', async () => {
			await page.goto(stack.workflowUrl(DEMO_WORKFLOW_ID));
			const node = page.locator('[data-test-id="canvas-node"][data-node-name="Sound Search"]');
			await node.waitFor();
			await expectOurIcon(node.locator('img').first());
			await shot('demo-workflow');
			await page.getByTestId('execute-workflow-button').click();
			await page
				.getByText('Workflow executed successfully')
				.first()
				.waitFor({ timeout: RUN_TIMEOUT_MS });
			const searches = await eventually('the demo search in the ledger', async () => {
				const list = await searchesFor('lofi');
				return list.length > 0 ? list : undefined;
			});
			expect(searches[0]).toMatchObject({
				limit: '10',
				authorization: `Bearer ${SERVICE_KEY}`,
				status: 200,
			});

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
			const examples = stack.workflows.filter((w) => w.file !== '(built in)');
			if (stack.problems.length > 0)
				process.stdout.write(`[editor] examples not imported:\n${stack.problems.join('\n')}\n`);
			for (const example of examples) {
				const ours = example.nodes.filter((n) => n.type.startsWith(`${PACKAGE_NAME}.`));
				await page.goto(stack.workflowUrl(example.id));
				await page.getByTestId('canvas-node').first().waitFor();
				for (const node of ours) {
					const nameInCss = String(node.name).replace(/["\\]/g, '\\$&');
					const img = page.locator(
						`[data-test-id="canvas-node"][data-node-name="${nameInCss}"] img[src*="${ICON_PATH_PART}"]`,
					);
					await img.first().waitFor();
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
