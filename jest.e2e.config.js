/**
 * End-to-end suite: the packed package installed in the real, pinned n8n (n8n-host/), driven by its
 * CLI and REST API, against the local reference service and a fake OpenAI model.
 * Run: source scripts/node24.sh && npx jest -c jest.e2e.config.js
 * Plain JavaScript on purpose (the strict linter applies shipped-node rules to every .ts file).
 */
module.exports = {
	rootDir: __dirname,
	// Only test/ is scanned: not dist/ (its package.json would collide with the root one) nor
	// .cache/ (the n8n install).
	roots: ['<rootDir>/test'],
	testEnvironment: 'node',
	testMatch: ['<rootDir>/test/e2e/**/*.e2e.test.js'],
	transform: {},
	// One n8n (about 1 GB of memory and a CPU core while it starts) at a time.
	maxWorkers: 1,
	// A test runs workflows in a real n8n; the set-up (install on a cold machine, pack, start) is
	// given its own, longer timeouts in the suite.
	testTimeout: 180_000,
	verbose: true,
};
