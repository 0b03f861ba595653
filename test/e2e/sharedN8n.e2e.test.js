'use strict';

// The e2e cases that share one real n8n per line: one user folder, one credential import, one
// `n8n start` (and the restart the trend case makes) for all of them. Each case module of cases/
// registers its tests (and hooks) against this scenario, in a describe of its own; the reference
// service is reset before each test and what a test activated is deactivated after it
// (scenario.js). The order matters: `n8n execute` runs headless on the user folder before n8n is
// started on it; the trend cases restart n8n, so MCP after them proves that the restarted server
// carries on. The node's own cases run beside this file, on an n8n of their own
// (nodeInN8n.e2e.test.js); the growth window on the real clock is nightly
// (test/nightly/trendWindow.test.js).

const { useN8n } = require('./scenario');
const { deadlineMs } = require('../harness/deadlines');
const { examplesHeadless } = require('./cases/examplesHeadless');
const { trends } = require('./cases/trends');
const { mcpServer } = require('./cases/mcpServer');

const scenario = useN8n({ start: false });

describe('headless, with `n8n execute`', () => examplesHeadless(scenario));

describe('in a running n8n (REST API, as the editor uses it)', () => {
	// Here, not in useN8n(): jest runs a describe's beforeAll only when one of its tests runs,
	// after the headless cases above.
	beforeAll(() => scenario.start(), deadlineMs('setUp'));

	describe('sound trends', () => trends(scenario));
	describe('Sound Search over MCP, with the official MCP SDK client', () => mcpServer(scenario));
});
