'use strict';

// The queue-mode stack, one module per component under test/harness/queue/ (stack.js composes
// them; n8nProcess.js starts a main or a worker).
module.exports = {
	...require('./stack'),
	...require('./prerequisites'),
	...require('./delayProxy'),
	...require('./events'),
};
