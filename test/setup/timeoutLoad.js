'use strict';

// Jest's own timeouts ("Exceeded timeout of N ms for a test/hook") say nothing of the machine: this
// reporter prints, beside the test's name, the load average when jest reported the timeout. The
// harnesses' own deadlines say it in their errors (test/harness/deadlines.js).
const { machineLoad, PATIENCE } = require('../harness/deadlines');

class TimeoutLoadReporter {
	/**
	 * @param {unknown} _test
	 * @param {{ status: string, fullName: string, failureMessages: string[] }} result
	 */
	onTestCaseResult(_test, result) {
		const timedOut = result.failureMessages.some((message) => message.includes('Exceeded timeout'));
		if (result.status !== 'failed' || !timedOut) return;
		process.stderr.write(
			`[timeout] "${result.fullName}": jest's timeout passed; ${machineLoad()}; ` +
				`deadlines × ${PATIENCE} (SOUND_SEARCH_TEST_PATIENCE)\n`,
		);
	}
}

module.exports = TimeoutLoadReporter;
