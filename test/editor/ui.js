'use strict';

// What more than one editor case module (cases/) does or checks: finding the node in the node
// panel, a run from the node's panel, our node icon, the run-data panel's text, Simplify's columns
// in the output panel's table, "Execute workflow" on the canvas, the service's requests for a query.

const fs = require('node:fs');
const path = require('node:path');
const { PACKAGE_NAME } = require('../harness/stack');
const { REPO_ROOT } = require('../harness/packageTarball');
const { poll } = require('../harness/poll');
const { UI_TIMEOUT_MS } = require('./session');
const { deadlineMs } = require('../harness/deadlines');
const { SIMPLIFIED_FIELDS } = require('../harness/outputShape');

const ICON_PATH_PART = `/icons/${PACKAGE_NAME}/`;
const RUN_TIMEOUT_MS = deadlineMs('editorRun');

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

/**
 * Opens the node panel from the canvas and searches "Sound Search"; its entries of that name.
 * @param {Page} page
 */
async function searchNodePanel(page) {
	await page.getByTestId('canvas-add-button').click();
	await page.getByTestId('node-creator-search-bar').fill('Sound Search');
	const name = page
		.getByTestId('node-creator-item-name')
		.getByText('Sound Search', { exact: true });
	return page.getByTestId('node-creator-action-item').filter({ has: name });
}

/** An entry of the node panel's lists (an event, an action). @param {Page} page @param {string} text */
const panelItem = (page, text) => page.getByTestId('item-iterator-item').filter({ hasText: text });

/**
 * In the open Sound Search node's panel: fills Query and Limit, runs the node and waits for its
 * success; the output panel.
 * @param {Page} page @param {string} query @param {number} limit
 */
async function runFromPanel(page, query, limit) {
	const ndv = page.getByTestId('ndv');
	await ndv.getByTestId('parameter-input-query').locator('input, textarea').first().fill(query);
	await ndv.getByTestId('parameter-input-limit').locator('input').fill(String(limit));
	await ndv.getByTestId('node-execute-button').click();
	const output = page.getByTestId('output-panel');
	await output.getByTestId('node-run-status-success').waitFor({ timeout: RUN_TIMEOUT_MS });
	return output;
}

/** The run-data panel's text (the JSON view splits lines oddly) in single spaces. @param {Locator} locator */
const flatText = async (locator) => (await locator.innerText()).replace(/\s+/g, ' ');

/**
 * The output panel's table shows Simplify's fields first, in their order, with creditsCharged
 * inside the panel as it opens (no scrolling): what the README's "At first sight" promises.
 * @param {Locator} output the output panel, showing a Sound Search run
 */
async function expectSimplifiedColumns(output) {
	await output.getByTestId('radio-button-table').click();
	const headers = output.locator('th');
	await headers.filter({ hasText: 'creditsCharged' }).first().waitFor();
	const names = (await headers.allInnerTexts()).map((text) => text.trim()).filter(Boolean);
	expect(names.slice(0, SIMPLIFIED_FIELDS.length)).toEqual(SIMPLIFIED_FIELDS);
	const panel = await output.boundingBox();
	const column = await headers.filter({ hasText: 'creditsCharged' }).first().boundingBox();
	expect(column && panel && column.x + column.width <= panel.x + panel.width).toBe(true);
}

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
	searchNodePanel,
	panelItem,
	runFromPanel,
	flatText,
	expectSimplifiedColumns,
	executeWorkflow,
	waitForSearches,
};
