/**
 * The editor check: the packed package in a real n8n, driven through the n8n editor in headless
 * Debian Chromium (playwright-core). Needs /usr/bin/chromium (scripts/ensure-chromium.sh).
 * Run: npx jest -c jest.editor.config.js   (screenshots in artifacts/editor/)
 */
module.exports = {
	testEnvironment: 'node',
	rootDir: __dirname,
	roots: ['<rootDir>/test'],
	testMatch: ['<rootDir>/test/editor/**/*.editor.test.js'],
	maxWorkers: 1,
	// A step in the editor waits for n8n to run a workflow; the first start on a machine also
	// installs n8n (beforeAll has its own, longer timeout).
	testTimeout: 180_000,
	slowTestThreshold: 60,
};
