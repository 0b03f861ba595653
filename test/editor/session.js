'use strict';

// The one place the editor check makes its stack and browser: `npm start -- --temp` as a user
// types it (npmStart.js: n8n with the packed package, the reference service, the fake model, an
// owner, the demo credentials and workflows, all read from its banner) and a headless Chromium
// (browser.js), signed in with the banner's login before the first test; both stopped after the
// last, on failure too. editor.editor.test.js makes one session and hands it to every case module
// (cases/): starting n8n and Chromium is most of the layer's CPU, so they are made once, not once
// per concern. The sign-in's screenshots and what npm start printed are in artifacts/editor/session/.

const { startNpmStart, keepOutput } = require('./npmStart');
const { EditorBrowser } = require('./browser');
const { deadlineMs } = require('../harness/deadlines');

const UI_TIMEOUT_MS = deadlineMs('ui');

/**
 * @typedef {object} EditorSession
 * @property {import('./npmStart').NpmStart} stack set before the first test
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

	// Past setUp, startNpmStart stops npm start's process group itself: the hook waits longer, so
	// that its own timeout never leaves npm start running with no one to stop it.
	beforeAll(
		async () => {
			session.stack = await startNpmStart();
			session.page = await browser.open(UI_TIMEOUT_MS);
			const { step, shot } = browser.folder('session');
			await step('sign-in', () => signIn(session.page, session.stack, shot));
		},
		deadlineMs('setUp') + 2 * UI_TIMEOUT_MS,
	);

	afterAll(async () => {
		const { stack } = session;
		const { dir } = browser.folder('session');
		const ends = await Promise.allSettled([
			browser.close({ n8n: stack?.n8n.url }),
			stack?.stop().finally(() => keepOutput(stack, dir)),
		]);
		for (const end of ends) if (end.status === 'rejected') throw end.reason;
	}, deadlineMs('tearDown'));

	return session;
}

/**
 * Signs in with the login `npm start` prints, as a user does.
 * @param {import('playwright-core').Page} page @param {import('./npmStart').NpmStart} stack
 * @param {(name: string) => Promise<void>} shot
 */
async function signIn(page, stack, shot) {
	await page.goto(`${stack.n8n.url}/signin`);
	await page.getByTestId('emailOrLdapLoginId').locator('input').fill(stack.owner.email);
	await page.getByTestId('password').locator('input').fill(stack.owner.password);
	await shot('sign-in');
	await page.getByTestId('form-submit-button').click();
	await page.waitForURL((/** @type {URL} */ url) => !url.pathname.startsWith('/signin'));
	await page.getByTestId('main-sidebar-settings').waitFor();
	await shot('signed-in');
}

module.exports = { useEditorSession, UI_TIMEOUT_MS };
