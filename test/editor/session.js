'use strict';

// The one place the editor check makes its stack and browser: the stack of `npm start`
// (test/harness/stack/: n8n with the packed package, the reference service, the fake model, an
// owner, the demo credentials and workflows) and a headless Chromium (browser.js), signed in as
// the owner before the first test; everything stopped by pid after the last, on failure too.
// editor.editor.test.js makes one session and hands it to every case module (cases/): starting
// n8n and Chromium is most of the layer's CPU, so they are made once, not once per concern.
// The sign-in's screenshots and the stack's timings are in artifacts/editor/session/.

const { Stack, DEMO_OWNER } = require('../harness/stack');
const { EditorBrowser } = require('./browser');
const { deadlineMs } = require('../harness/deadlines');

const UI_TIMEOUT_MS = deadlineMs('ui');

/**
 * @typedef {object} EditorSession
 * @property {InstanceType<typeof Stack>} stack set before the first test
 * @property {import('playwright-core').Page} page set before the first test
 * @property {(name: string) => ReturnType<EditorBrowser['folder']>} folder a concern's
 *   screenshots and steps, in artifacts/editor/<name>/
 */

/**
 * Registers the jest hooks; the returned session's stack and page are set before the first test.
 * @returns {EditorSession}
 */
function useEditorSession() {
	const browser = new EditorBrowser();
	/** @type {EditorSession} */
	const session = {
		stack: /** @type {any} */ (undefined),
		page: /** @type {any} */ (undefined),
		folder: (name) => browser.folder(name),
	};

	beforeAll(async () => {
		session.stack = new Stack({ log: (line) => process.stdout.write(`[stack] ${line}\n`) });
		await session.stack.start();
		session.page = await browser.open(UI_TIMEOUT_MS);
		const { step, shot } = browser.folder('session');
		await step('sign-in', () => signIn(session.page, session.stack, shot));
	}, deadlineMs('setUp'));

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
	}, deadlineMs('tearDown'));

	return session;
}

/**
 * Signs in as the owner `npm start` prints, as a user does.
 * @param {import('playwright-core').Page} page @param {InstanceType<typeof Stack>} stack
 * @param {(name: string) => Promise<void>} shot
 */
async function signIn(page, stack, shot) {
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
