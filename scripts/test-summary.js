'use strict';
// Prints one closing line for the whole test run, summed over the jest result files each layer
// wrote (jest --json --outputFile): "<passed> passed, <failed> failed[, <skipped> skipped]".
const fs = require('node:fs');

const totals = { passed: 0, failed: 0, skipped: 0 };
for (const file of process.argv.slice(2)) {
	if (!fs.existsSync(file)) continue;
	const result = JSON.parse(fs.readFileSync(file, 'utf8'));
	totals.passed += result.numPassedTests;
	totals.failed += result.numFailedTests + result.numRuntimeErrorTestSuites;
	totals.skipped += result.numPendingTests + result.numTodoTests;
}
const skipped = totals.skipped ? `, ${totals.skipped} skipped` : '';
console.log(`${totals.passed} passed, ${totals.failed} failed${skipped}`);
