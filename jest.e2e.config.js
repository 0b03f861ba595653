/**
 * End-to-end suite: the packed package installed in each pinned n8n line (n8n-host/2.x and
 * n8n-host/1.x), driven by its CLI and REST API, against the local reference service and a fake
 * OpenAI model. A jest project per line runs the same test files with N8N_LINE set; one n8n runs
 * at a time (maxWorkers 1), and the package is packed once for both (globalSetup).
 * Run: source scripts/node24.sh && npx jest -c jest.e2e.config.js [--selectProjects 'n8n 1.x']
 * Plain JavaScript on purpose (the strict linter applies shipped-node rules to every .ts file).
 */
const LINES = ['2.x', '1.x'];

module.exports = {
	// One n8n (about 1 GB of memory and a CPU core while it starts) at a time.
	maxWorkers: 1,
	verbose: true,
	// A test runs workflows in a real n8n; the set-up (install on a cold machine, pack, start) is
	// given its own, longer timeouts in the suite.
	testTimeout: 180_000,
	globalSetup: '<rootDir>/test/e2e/packOnce.js',
	projects: LINES.map((line) => ({
		displayName: `n8n ${line}`,
		rootDir: __dirname,
		// Only test/ is scanned: not dist/ (its package.json would collide with the root one) nor
		// .cache/ (the n8n installs).
		roots: ['<rootDir>/test'],
		testEnvironment: 'node',
		testMatch: ['<rootDir>/test/e2e/**/*.e2e.test.js'],
		transform: {},
		globals: { N8N_LINE: line },
		setupFilesAfterEnv: ['<rootDir>/test/e2e/selectLine.js'],
	})),
};
