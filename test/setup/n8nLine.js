'use strict';

// Runs before each test file of an e2e jest project (jest.config.js), after jest has installed
// its globals (setupFilesAfterEnv). It tells the harness (test/harness/n8n/, loaded after this)
// which n8n line the project is for and, on any line but the newest, skips the tests whose title
// ends in NEWEST_LINE_ONLY (n8n's own features and the examples that need not run twice). Jest gives
// every test file its own copy of process.env and of these globals: projects do not see each other.
const NEWEST_LINE = '2.x';
const NEWEST_LINE_ONLY = '[newest n8n line only]';

process.env.N8N_LINE = globalThis.N8N_LINE;

if (globalThis.N8N_LINE !== NEWEST_LINE) {
	const original = globalThis.test;
	const gated = (name, ...rest) =>
		String(name).endsWith(NEWEST_LINE_ONLY)
			? original.skip(name, ...rest)
			: original(name, ...rest);
	globalThis.test = Object.assign(gated, original);
}
