'use strict';

// Checks on what the editor shows that more than one editor test file makes: our node icon, the
// run-data panel's text, "Execute workflow" on the canvas, the service's requests for a query.

const fs = require('node:fs');
const path = require('node:path');
const { PACKAGE_NAME } = require('../harness/stack');
const { REPO_ROOT } = require('../harness/packageTarball');
const { poll } = require('../harness/poll');
const { UI_TIMEOUT_MS } = require('./session');

const ICON_PATH_PART = `/icons/${PACKAGE_NAME}/`;
const RUN_TIMEOUT_MS = 60_000;

/** @typedef {import('playwright-core').Page} Page @typedef {import('playwright-core').Locator} Locator */

/** Waits until the image has loaded. @param {Page} page @param {Locator} img */
async function imageLoaded(page, img) {
	const element = await img.elementHandle({ timeout: UI_TIMEOUT_MS });
	const loaded = (/** @type {any} */ el) => el.complete && el.naturalWidth > 0;
	await page.waitForFunction(loaded, element, { timeout: UI_TIMEOUT_MS });
}

/**
 * Checks that an <img> is our node icon: served by n8n from the installed package, loaded, and
 * byte for byte the SVG in icons/ (not a fallback).
 * @param {Page} page @param {Locator} img
 */
async function expectOurIcon(page, img) {
	const src = String(await img.getAttribute('src', { timeout: UI_TIMEOUT_MS }));
	expect(src).toContain(ICON_PATH_PART);
	expect(src).toMatch(/soundSearch\.svg$/);
	await imageLoaded(page, img);
	const response = await page.request.get(new URL(src, page.url()).href);
	expect(response.status()).toBe(200);
	expect(response.headers()['content-type']).toContain('image/svg+xml');
	const svg = fs.readFileSync(path.join(REPO_ROOT, 'icons', 'soundSearch.svg'), 'utf8');
	expect((await response.body()).toString('utf8')).toBe(svg);
}

/** The run-data panel's text (the JSON view splits lines oddly) in single spaces. @param {Locator} locator */
const flatText = async (locator) => (await locator.innerText()).replace(/\s+/g, ' ');

/** Clicks "Execute workflow" on the canvas and waits for n8n's success message. @param {Page} page */
async function executeWorkflow(page) {
	await page.getByTestId('execute-workflow-button').click();
	const done = page.getByText('Workflow executed successfully').first();
	await done.waitFor({ timeout: RUN_TIMEOUT_MS });
}

/**
 * Waits until the reference service has `count` requests for the query; resolves them.
 * @param {import('../harness/stack').Stack} stack @param {number} count @param {string} query
 */
function waitForSearches(stack, count, query) {
	const searchesFor = async () => {
		const ledger = await stack.service?.ledger();
		return (ledger?.requests ?? []).filter(
			(/** @type {any} */ r) => r.query === query || r.q === query,
		);
	};
	return poll(searchesFor, (list) => list.length >= count, RUN_TIMEOUT_MS);
}

module.exports = {
	ICON_PATH_PART,
	RUN_TIMEOUT_MS,
	imageLoaded,
	expectOurIcon,
	flatText,
	executeWorkflow,
	waitForSearches,
};
