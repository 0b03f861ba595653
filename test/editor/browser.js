'use strict';

// The browser of the editor check: headless Debian Chromium (/usr/bin/chromium, installed by
// scripts/ensure-chromium.sh) driven through playwright-core. Chromium runs as a browser server,
// a process of ours that close() stops by pid (its process group, its temporary profile removed);
// the page talks to 127.0.0.1 only. Each concern of the session keeps its screenshots and step
// times in its own folder under artifacts/editor/ (folder()), and close() writes what the run took
// and saw to summary.json in each. The docs' pictures: docsShot() (written by `npm run pictures`).

const fs = require('node:fs');
const path = require('node:path');
const { chromium, selectors } = require('playwright-core');
const { REPO_ROOT } = require('../harness/packageTarball');

const CHROMIUM = '/usr/bin/chromium';
// Playwright adds --headless itself; a small /dev/shm in containers crashes Chromium without
// --disable-dev-shm-usage.
const CHROMIUM_FLAGS = `--no-sandbox --disable-gpu --disable-quic --no-first-run
	--disable-background-networking --disable-component-update --disable-sync
	--disable-dev-shm-usage`.split(/\s+/);
const ARTIFACTS = path.join(REPO_ROOT, 'artifacts', 'editor');
// Every URL but data:, blob: and those of host 127.0.0.1. A RegExp, not a function: Playwright
// matches a RegExp in its server and lets the others through there, while a function sees every
// request of every page load go out to this process and back (CPU in Chromium and here).
const ELSEWHERE =
	/^(?!(?:data|blob):)(?![a-z][a-z0-9+.-]*:\/\/(?:[^/?#@]*@)?127\.0\.0\.1(?:[:/?#]|$))/i;

selectors.setTestIdAttribute('data-test-id');

/** One concern's screenshots and step times, in artifacts/editor/<folder>/, taken of the browser's page. */
class ShotFolder {
	/** @type {string[]} */ screenshots = [];
	/** @type {Record<string, number>} */ stepMs = {};

	/** @param {EditorBrowser} browser @param {string} folder under artifacts/editor/ ('' for itself) */
	constructor(browser, folder) {
		this.browser = browser;
		this.dir = path.join(ARTIFACTS, folder);
		// Only this folder's earlier files: other concerns keep theirs (in their own folders).
		fs.mkdirSync(this.dir, { recursive: true });
		for (const entry of fs.readdirSync(this.dir, { withFileTypes: true }))
			if (entry.isFile()) fs.rmSync(path.join(this.dir, entry.name), { force: true });
	}

	/** Saves a screenshot as NN-<name>.png (or <file>.png). @param {string} name @param {string} [file] */
	shot = async (name, file = `${String(this.screenshots.length + 1).padStart(2, '0')}-${name}`) => {
		await this.browser.page.screenshot({ path: path.join(this.dir, `${file}.png`) });
		this.screenshots.push(`${file}.png`);
	};

	/**
	 * A screenshot the docs show (docs/images/<file>.png): kept in the artifacts like any other; it
	 * replaces the docs' picture only when DOCS_IMAGES=1 (`npm run pictures`, scripts/pictures.sh),
	 * so a test run leaves the tree unchanged.
	 * @param {string} file
	 */
	docsShot = async (file) => {
		await this.shot(file, file);
		if (process.env.DOCS_IMAGES !== '1') return;
		const picture = path.join(REPO_ROOT, 'docs', 'images', `${file}.png`);
		fs.copyFileSync(path.join(this.dir, `${file}.png`), picture);
	};

	/**
	 * Runs one step; on failure it saves a screenshot "failed-<step>.png" first.
	 * @param {string} name @param {() => Promise<void>} fn
	 */
	step = async (name, fn) => {
		const t0 = Date.now();
		try {
			await fn();
		} catch (error) {
			if (this.browser.page) await this.shot(name, `failed-${name}`).catch(() => {});
			throw error;
		} finally {
			this.stepMs[name] = Date.now() - t0;
		}
	};
}

class EditorBrowser {
	/** @type {import('playwright-core').BrowserServer | undefined} */ server;
	/** @type {import('playwright-core').Page} */ page = /** @type {any} */ (undefined); // open()
	blockedRequests = 0;
	start = Date.now();
	/** @type {Map<string, ShotFolder>} */ folders = new Map();

	/** A concern's folder under artifacts/editor/, emptied of earlier runs' files when first asked for. @param {string} name */
	folder(name) {
		if (!this.folders.has(name)) this.folders.set(name, new ShotFolder(this, name));
		return /** @type {ShotFolder} */ (this.folders.get(name));
	}

	/** @param {number} timeoutMs for every action and wait of the page */
	async open(timeoutMs) {
		if (!fs.existsSync(CHROMIUM)) {
			throw new Error(`${CHROMIUM} is missing: run scripts/ensure-chromium.sh`);
		}
		const options = { executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS };
		this.server = await chromium.launchServer(options);
		const browser = await chromium.connect(this.server.wsEndpoint());
		const context = await browser.newContext({
			viewport: { width: 1440, height: 900 },
			...{ colorScheme: 'light', locale: 'en-US', timezoneId: 'UTC' },
		});
		context.setDefaultTimeout(timeoutMs);
		// Anything but this n8n (its editor looks packages up on a registry, for example) is
		// refused here and counted.
		await context.route(ELSEWHERE, (route) => {
			this.blockedRequests += 1;
			return route.abort('blockedbyclient');
		});
		this.page = await context.newPage();
		return this.page;
	}

	/** Stops Chromium by pid and writes each folder's summary.json (with `more`). @param {object} more */
	async close(more) {
		const chromiumPid = this.server?.process().pid;
		await this.server?.kill();
		const suiteMs = Date.now() - this.start;
		const shared = {
			...more,
			suiteMs,
			blockedNonLoopbackRequests: this.blockedRequests,
			chromiumPid,
		};
		for (const { dir, stepMs, screenshots } of this.folders.values()) {
			fs.mkdirSync(dir, { recursive: true });
			const summary = JSON.stringify({ ...shared, stepMs, screenshots }, null, 2);
			fs.writeFileSync(path.join(dir, 'summary.json'), summary);
		}
	}
}

module.exports = { EditorBrowser };
