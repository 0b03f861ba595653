'use strict';

// What both editor case modules (cases/) use: our node icon's path, the deadline of a run, and a
// wait for an image to have loaded.

const { PACKAGE_NAME } = require('../harness/stack');
const { UI_TIMEOUT_MS } = require('./session');
const { deadlineMs } = require('../harness/deadlines');

const ICON_PATH_PART = `/icons/${PACKAGE_NAME}/`;
const RUN_TIMEOUT_MS = deadlineMs('editorRun');

/**
 * Waits until the image has loaded.
 * @param {import('playwright-core').Page} page @param {import('playwright-core').Locator} img
 */
async function imageLoaded(page, img) {
	const element = await img.elementHandle({ timeout: UI_TIMEOUT_MS });
	const loaded = (/** @type {any} */ el) => el.complete && el.naturalWidth > 0;
	await page.waitForFunction(loaded, element, { timeout: UI_TIMEOUT_MS });
}

module.exports = { ICON_PATH_PART, RUN_TIMEOUT_MS, UI_TIMEOUT_MS, imageLoaded };
