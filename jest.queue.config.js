/**
 * The queue-mode suite (test/queue/): n8n's queue mode on one machine (Redis, PostgreSQL, an n8n
 * main and several workers, see test/harness/queueStack.js). One environment per file, files one
 * after the other; long timeouts because n8n processes start slowly on a busy 2-core machine.
 */
module.exports = {
	testEnvironment: 'node',
	rootDir: __dirname,
	testMatch: ['<rootDir>/test/queue/**/*.queue.test.js'],
	// Plain CommonJS: nothing to transform.
	transform: {},
	maxWorkers: 1,
	testTimeout: 300_000,
	slowTestThreshold: 120,
};
