'use strict';

// What a user sees in the output panel after running a new Sound Search node (version 2) in n8n's
// editor: the notice with what the run cost, and Simplify's columns with creditsCharged in view
// without scrolling. The stack of `npm start` (test/harness/stack/) in headless Chromium
// (browser.js); the screenshot is kept as artifacts/editor/cost-notice.png (docs/images/ with
// DOCS_IMAGES=1).

const stackModule = require('../harness/stack');
const { EditorBrowser } = require('./browser');

const { Stack, DEMO_OWNER } = stackModule;
const UI_TIMEOUT_MS = 30_000;
const RUN_TIMEOUT_MS = 60_000;
const QUERY = 'cello';
const LIMIT = 10;
const SIMPLIFIED = [
	...['soundId', 'title', 'creditsCharged', 'authorName', 'postCount'],
	...['query', 'platform', 'audioUrl', 'durationSeconds', 'fetchedAt'],
];

const browser = new EditorBrowser();
/** @type {InstanceType<typeof Stack>} */
let stack;
/** @type {import('playwright-core').Page} */
let page;

beforeAll(async () => {
	stack = new Stack({ log: (line) => process.stdout.write(`[stack] ${line}\n`) });
	await stack.start();
	page = await browser.open(UI_TIMEOUT_MS);
}, 20 * 60_000);

afterAll(async () => {
	try {
		await browser.close({ n8n: stack?.n8n?.url, referenceService: stack?.service?.url });
	} finally {
		if (stack) await stack.stop();
	}
	const left = stack ? stack.livePids() : [];
	if (left.length > 0) throw new Error(`still running after stop: pid ${left.join(', ')}`);
}, 60_000);

test('after a run, the output panel shows the cost notice and creditsCharged without scrolling', () =>
	browser.step('cost-notice', async () => {
		await page.goto(`${stack.n8n?.url}/signin`);
		await page.getByTestId('emailOrLdapLoginId').locator('input').fill(DEMO_OWNER.email);
		await page.getByTestId('password').locator('input').fill(DEMO_OWNER.password);
		await page.getByTestId('form-submit-button').click();
		await page.waitForURL((url) => !url.pathname.startsWith('/signin'));

		// A new node, as a user adds it today: the newest version.
		await page.goto(`${stack.n8n?.url}/workflow/new`);
		await page.getByTestId('canvas-add-button').click();
		await page.getByTestId('node-creator-search-bar').fill('Sound Search');
		const name = page
			.getByTestId('node-creator-item-name')
			.getByText('Sound Search', { exact: true });
		await page.getByTestId('node-creator-action-item').filter({ has: name }).first().click();
		await page.getByText('Actions (1)').click();
		await page
			.getByTestId('item-iterator-item')
			.filter({ hasText: 'Search sounds by keyword' })
			.click();
		const ndv = page.getByTestId('ndv');
		await ndv.getByTestId('parameter-input-simplify').waitFor();
		await ndv.getByTestId('parameter-input-query').locator('input, textarea').first().fill(QUERY);
		await ndv.getByTestId('parameter-input-limit').locator('input').fill(String(LIMIT));
		await ndv.getByTestId('node-execute-button').click();

		const output = page.getByTestId('output-panel');
		await output.getByTestId('node-run-status-success').waitFor({ timeout: RUN_TIMEOUT_MS });
		// One page of 10 sounds: one call, 1 credit on the short-video platform.
		const notice = output.getByTestId('node-hint').filter({ hasText: 'This run cost' });
		await notice.waitFor();
		expect((await notice.innerText()).trim()).toBe(
			'This run cost 1 credit: 1 call to the service (0 answered free from its cache), 0 repeated searches made once.',
		);

		await output.getByTestId('radio-button-table').click();
		const headers = output.locator('th');
		await headers.filter({ hasText: 'creditsCharged' }).first().waitFor();
		const names = (await headers.allInnerTexts()).map((text) => text.trim()).filter(Boolean);
		expect(names.slice(0, SIMPLIFIED.length)).toEqual(SIMPLIFIED);
		// In view at first sight: the column lies inside the output panel as it opens.
		const panel = await output.boundingBox();
		const column = await headers.filter({ hasText: 'creditsCharged' }).first().boundingBox();
		expect(column && panel && column.x + column.width <= panel.x + panel.width).toBe(true);

		await browser.docsShot('cost-notice');
	}));
