/**
 * Every test layer is a jest project; run one with `npx jest --selectProjects <name>`
 * (Node 24 on PATH: `source scripts/node24.sh`). scripts/test.sh runs them one after the other.
 *
 *   unit               the limiter (rules and a modelled service), retry policy, error reading
 *   engine             the nodes through n8n-core's real engine, over HTTP to the reference service
 *   reference-service  the reference service against the spec
 *   release            GitHub workflows, the tag check, a release dry run, verification checks
 *   e2e n8n 2.x / 1.x  the packed package in each pinned n8n line (n8n-host/), CLI and REST
 *   queue              n8n in queue mode: Redis, PostgreSQL, a main and workers
 *   editor             the n8n editor in headless Chromium (scripts/ensure-chromium.sh)
 *   commands           the commands a newcomer types (README), run briefly as a user types them
 *   nightly            what is slow and rarely breaks (scripts/test-nightly.sh): the benchmark
 *                      smoke and report re-render, Stryker on a few lines, the error shapes
 *                      re-recorded, the queue-env smoke, the growth window on the real clock
 *
 * Real-n8n layers start about 1 GB processes: scripts/layer.sh says how many files run at once.
 */
const { deadlineMs } = require('./test/harness/deadlines');

const ts = { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] };

/**
 * @typedef {object} LayerOptions
 * @property {number} [timeoutS] per test, scaled by SOUND_SEARCH_TEST_PATIENCE (deadlines.js)
 * @property {string} [match] test file name pattern
 * @property {Record<string, unknown>} [globals]
 * @property {string[]} [setup] files run after jest's globals exist, before each test file
 * @property {string} [globalSetup] run once before the project's first test
 * @property {number} [slowS] a test slower than this is reported as slow
 */

/** @param {string} displayName @param {string} folder under test/ @param {LayerOptions} [options] */
function layer(displayName, folder, options = {}) {
	const { timeoutS = 30, match = '*.test.{js,ts}', globals, setup = [], globalSetup } = options;
	return {
		displayName,
		rootDir: __dirname,
		// test/ only: not dist/ (its package.json collides with the root one) nor .cache/ (n8n).
		roots: ['<rootDir>/test'],
		testEnvironment: 'node',
		testMatch: [`<rootDir>/test/${folder}/**/${match}`],
		transform: ts,
		globals: { TEST_TIMEOUT_MS: deadlineMs(timeoutS), ...globals },
		setupFilesAfterEnv: ['<rootDir>/test/setup/timeout.js', ...setup],
		...(globalSetup && { globalSetup }),
		slowTestThreshold: options.slowS ?? 5,
	};
}

// A test in a real n8n may restart it: above the n8n start's own deadline, whose error says more.
/** @type {LayerOptions} */
const realN8n = { globalSetup: '<rootDir>/test/setup/packOnce.js', timeoutS: 300, slowS: 60 };

module.exports = {
	testSequencer: '<rootDir>/test/setup/slowFirst.js',
	// A jest timeout is reported with the machine's load (test/setup/timeoutLoad.js).
	reporters: ['default', '<rootDir>/test/setup/timeoutLoad.js'],
	projects: [
		layer('unit', 'unit'),
		layer('engine', 'engine'),
		layer('reference-service', 'reference-service'),
		layer('release', 'release', { timeoutS: 60 }),
		...['2.x', '1.x'].map((line) =>
			layer(`e2e n8n ${line}`, 'e2e', {
				...realN8n,
				match: '*.e2e.test.js',
				globals: { N8N_LINE: line },
				setup: ['<rootDir>/test/setup/n8nLine.js'],
			}),
		),
		layer('queue', 'queue', { ...realN8n, slowS: 120 }),
		layer('editor', 'editor', realN8n),
		layer('commands', 'commands', realN8n),
		// The growth window's scenario is e2e's, on the newest line (test/setup/n8nLine.js).
		layer('nightly', 'nightly', {
			...realN8n,
			globals: { N8N_LINE: '2.x' },
			setup: ['<rootDir>/test/setup/n8nLine.js'],
		}),
	],
};
