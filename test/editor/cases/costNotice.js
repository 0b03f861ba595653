'use strict';

// What a user sees in the output panel after running a new Sound Search node (version 2) in n8n's
// editor: the notice with what the run cost, and Simplify's columns with creditsCharged in view
// without scrolling. Registered by editor.editor.test.js against its shared session
// (../session.js); the screenshot is kept as artifacts/editor/cost-notice.png (docs/images/ with
// DOCS_IMAGES=1).

const ui = require('../ui');

const QUERY = 'cello';
const LIMIT = 10;

/**
 * A new node on a new workflow, as a user adds it today: the newest version; its panel open.
 * @param {import('playwright-core').Page} page @param {string} n8nUrl
 */
async function addNewNode(page, n8nUrl) {
	await page.goto(`${n8nUrl}/workflow/new`);
	const item = await ui.searchNodePanel(page);
	await item.first().click();
	await page.getByText('Actions (1)').click();
	await ui.panelItem(page, 'Search sounds by keyword').click();
	await page.getByTestId('ndv').getByTestId('parameter-input-simplify').waitFor();
}

/** The output panel's notice. @param {import('playwright-core').Locator} output */
async function expectNotice(output) {
	// One page of 10 sounds: one call, 1 credit on the short-video platform.
	const notice = output.getByTestId('node-hint').filter({ hasText: 'This run cost' });
	await notice.waitFor();
	expect((await notice.innerText()).trim()).toBe(
		'This run cost 1 credit: 1 call to the service (0 answered free from its cache), 0 repeated searches made once.',
	);
}

/**
 * Registers this concern's test against the shared session.
 * @param {import('../session').EditorSession} session
 */
function costNoticeCases(session) {
	// Its folder is artifacts/editor/ itself: the picture's place since before the session.
	const { step, docsShot } = session.folder('');

	test('after a run, the output panel shows the cost notice and creditsCharged without scrolling', () =>
		step('cost-notice', async () => {
			const { page, stack } = session;
			// The notice counts what the service charged: no answer from its cache may come from a
			// search another concern made (a fresh service, as a stack of its own had).
			await session.resetService();
			await addNewNode(page, String(stack.n8n?.url));
			const output = await ui.runFromPanel(page, QUERY, LIMIT);
			await expectNotice(output);
			await ui.expectSimplifiedColumns(output);
			await docsShot('cost-notice');
		}));
}

module.exports = { costNoticeCases };
