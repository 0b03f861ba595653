'use strict';

// The targets the summary judges, and the variants' labels.

module.exports = {
	TARGET_RATIO: 1.0,
	TARGET_PER_PAGE_MS: 2,
	/** y ~ x^k between 1,000 and 10,000 items: k <= 1.15 counts as linear. */
	LINEAR_EXPONENT_MAX: 1.15,
	/** Other processes' CPU above which the timing phase counts as disturbed (cores). */
	BUSY_FOREIGN_CORES: 0.15,
	/** @type {Record<string, string>} */
	LABELS: {
		node: '(a) Sound Search node',
		http: '(b) HTTP Request + Split Out',
		noop: '(c) no-op workflow',
		floor: '(d) undici loop, outside n8n',
		'floor-new': '(e) = (d) with a new connection per page',
		'scale-node': 'Sound Search node',
		'scale-http': 'HTTP Request + Split Out',
	},
};
