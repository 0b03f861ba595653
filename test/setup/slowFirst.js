'use strict';

// Jest's order, but the test files that wait minutes on the real clock first: with two workers
// they then run beside the others instead of alone at the end. Jest alone puts them first only
// once its cache knows their times, and a fresh clone (CI) has no cache.
const Sequencer = require('@jest/test-sequencer').default;

const SLOW = [
	'e2e/trendWindow.e2e.test.js', // a 3-minute growth window, 3.5 min
	'e2e/trends.e2e.test.js', // n8n's own minute poll
	'editor/examples.editor.test.js', // every example from the canvas
	'commands/bench.test.js', // the benchmark's smoke run
	'commands/mutation.test.js', // StrykerJS on a few lines
];

class SlowFirst extends Sequencer {
	/** @param {import('@jest/test-result').Test[]} tests */
	async sort(tests) {
		const slow = (/** @type {{ path: string }} */ test) =>
			SLOW.some((file) => test.path.endsWith(`/test/${file}`));
		const sorted = await super.sort(tests);
		return [...sorted.filter(slow), ...sorted.filter((test) => !slow(test))];
	}
}

module.exports = SlowFirst;
