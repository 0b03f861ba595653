'use strict';

// What every editor test file shares: the stack of `npm start` (test/harness/stack/: n8n with the
// packed package, the reference service, the fake model, an owner, the demo credentials and
// workflows), a headless Chromium (browser.js) with its screenshots in artifacts/editor/<folder>/,
// signed in as the owner before the first test; everything stopped by pid after the last, on
// failure too.

const { Stack, DEMO_OWNER } = require('../harness/stack');
const { EditorBrowser } = require('./browser');

const UI_TIMEOUT_MS = 30_000;

/**
 * Registers the jest hooks; the returned session's stack and page are set before the first test.
 * @param {string} folder the screenshots' folder under artifacts/editor/
 */
function useEditorSession(folder) {
	const browser = new EditorBrowser(folder);
	const session = {
		browser,
		/** @type {InstanceType<typeof Stack>} */ stack: /** @type {any} */ (undefined),
		/** @type {import('playwright-core').Page} */ page: /** @type {any} */ (undefined),
		shot: (/** @type {string} */ name) => browser.shot(name),
		step: browser.step.bind(browser),
	};

	beforeAll(async () => {
		session.stack = new Stack({ log: (line) => process.stdout.write(`[stack] ${line}\n`) });
		await session.stack.start();
		session.page = await browser.open(UI_TIMEOUT_MS);
		await browser.step('sign-in', () => signIn(session));
	}, 20 * 60_000);

	afterAll(async () => {
		const { stack } = session;
		try {
			const urls = { n8n: stack?.n8n?.url, referenceService: stack?.service?.url };
			await browser.close({ ...urls, stackTimingsMs: stack?.timings });
		} finally {
			if (stack) await stack.stop();
		}
		const left = stack ? stack.livePids() : [];
		if (left.length > 0) throw new Error(`still running after stop: pid ${left.join(', ')}`);
	}, 60_000);

	return session;
}

/** Signs in as the owner `npm start` prints, as a user does. @param {{ page: any, stack: any, shot: (name: string) => Promise<void> }} session */
async function signIn({ page, stack, shot }) {
	await page.goto(`${stack.n8n?.url}/signin`);
	await page.getByTestId('emailOrLdapLoginId').locator('input').fill(DEMO_OWNER.email);
	await page.getByTestId('password').locator('input').fill(DEMO_OWNER.password);
	await shot('sign-in');
	await page.getByTestId('form-submit-button').click();
	await page.waitForURL((/** @type {URL} */ url) => !url.pathname.startsWith('/signin'));
	await page.getByTestId('main-sidebar-settings').waitFor();
	await shot('signed-in');
}

module.exports = { useEditorSession, UI_TIMEOUT_MS };
