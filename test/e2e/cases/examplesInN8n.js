'use strict';

// What an example does in a running n8n that no other layer shows. Each example runs green from
// the editor's canvas (test/editor/cases/examples.js); the scheduled trend collection also runs
// by its own Schedule Trigger on a queue-mode worker with exact credits and CSV rows
// (test/queue/); the AI Agent example's tool is proven in cases/aiAgent.js. Here: the scheduled
// trend collection told to write where n8n may not. Newest n8n line only (n8n's own file access).
// It leaves the user folder's outside/ (empty).

const fs = require('node:fs');
const path = require('node:path');

const TREND_COLLECTION = 'examples/scheduled-trend-collection.json';

/** @param {import('../scenario').E2eScenario} scenario (started) */
function examplesInN8n(scenario) {
	test(`${TREND_COLLECTION}, a folder n8n may not write: the run still ends green, File Not Saved says why (the searches were paid, their CSV stays in the run) [newest n8n line only]`, async () => {
		const outside = path.join(scenario.userFolder, 'outside');
		fs.mkdirSync(outside);
		const run = await scenario.run(TREND_COLLECTION, { settings: { outputFolder: outside } });
		expect(run.status).toBe('success');
		expect(run.items('File Not Saved')).toEqual([
			expect.objectContaining({ notSaved: expect.stringMatching(/not allowed/) }),
		]);
		expect(run.runData['Convert to CSV'][0].data.main[0][0].binary.data).toBeDefined();
		expect(fs.readdirSync(outside)).toEqual([]);
		expect((await scenario.service.ledger()).totals).toEqual({ requests: 6, creditsCharged: 9 });
	});
}

module.exports = { examplesInN8n };
