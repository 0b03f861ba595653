/**
 * Release checks: the GitHub workflows, the release-tag check, a dry run of the release flow
 * (npm pack and the prepublishOnly guard, never publishing) and the checks behind the
 * verification checklist (docs/verification.md).
 * Run: source scripts/node24.sh && npx jest -c jest.release.config.js
 * Plain JavaScript on purpose (the strict linter applies shipped-node rules to every .ts file).
 */
module.exports = {
	rootDir: __dirname,
	roots: ['<rootDir>/test'],
	testEnvironment: 'node',
	testMatch: ['<rootDir>/test/release/**/*.test.js'],
	// The verification checks load the node and credential classes from their TypeScript sources.
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] },
	// The dry run builds dist/ and packs it: one test file at a time.
	maxWorkers: 1,
	testTimeout: 60_000,
	verbose: true,
};
