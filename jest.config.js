/** Unit, engine and sandbox tests. The real-n8n suites have their own configs (see package.json). */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts', '**/*.test.js'],
	// Suites that need a real n8n (and more), and the release checks (they build and pack), have
	// their own configs: jest.<layer>.config.js.
	testPathIgnorePatterns: [
		'/node_modules/',
		'/test/e2e/',
		'/test/editor/',
		'/test/queue/',
		'/test/release/',
	],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] },
	testTimeout: 30_000,
};
