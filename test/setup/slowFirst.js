'use strict';

// Jest's order, but the test files that wait minutes on the real clock first: with two workers
// they then run beside the others instead of alone at the end. Jest alone puts them first only
// once its cache knows their times, and a fresh clone (CI) has no cache.
const Sequencer = require('@jest/test-sequencer').default;

const SLOW = [
	'e2e/sharedN8n.e2e.test.js', // examples, trends (n8n's own minute poll, a restart), MCP
	'e2e/nodeInN8n.e2e.test.js', // the node's own cases, beside it on an n8n of their own
	'nightly/trendWindow.test.js', // a 3-minute growth window, 3.5 min on the real clock
	'nightly/bench.test.js', // the benchmark's smoke run
];

/** The newest n8n line: the files of older lines run after its own (see sort). */
const NEWEST_LINE = '2.x';

class SlowFirst extends Sequencer {
	/** @param {import('@jest/test-result').Test[]} tests */
	async sort(tests) {
		const slow = (/** @type {{ path: string }} */ test) =>
			SLOW.some((file) => test.path.endsWith(`/test/${file}`));
		const slowFirst = (/** @type {import('@jest/test-result').Test[]} */ group) => [
			...group.filter(slow),
			...group.filter((test) => !slow(test)),
		];
		// npm test installs the older line behind the newest line's e2e files: its files come last,
		// by when it is in (they would otherwise wait for it in their set-up, holding a worker).
		const line = (/** @type {import('@jest/test-result').Test} */ test) =>
			test.context.config.globals.N8N_LINE ?? NEWEST_LINE;
		const sorted = await super.sort(tests);
		return [
			...slowFirst(sorted.filter((test) => line(test) === NEWEST_LINE)),
			...slowFirst(sorted.filter((test) => line(test) !== NEWEST_LINE)),
		];
	}
}

module.exports = SlowFirst;
