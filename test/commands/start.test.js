'use strict';

// `npm start`, as the README gives it, in its smoke form: the same stack in a temp folder on free
// ports, the demo workflow run once through the editor's REST API, everything stopped.
const { runToEnd } = require('./run');

test('npm start brings up n8n with the demo workflow, which finds 10 sounds for 1 credit', async () => {
	const { code, output } = await runToEnd('npm start -- --smoke', { timeoutS: 270 });

	// Never the state a user keeps in .cache/start/.
	expect(output).toContain('n8n state in a temp folder, removed when it stops, new');
	expect(output).toContain('Log in as:          demo@sound-search.local');
	expect(output).toContain('Demo workflow: 10 sounds, 1 credit(s).');
	// The trend examples' demo history is seeded, and the banner says it is not real data.
	expect(output).toContain('Demo trend data:    seeded so the trend examples show something');
	expect(output).toContain('900 demo rows (6 days, source "demo") in Data Table');
	expect(output).toContain('the Rising Sound trigger remembers post counts of 24 hours ago');
	expect(output).toContain('Stopped. Nothing left running.');
	expect(code).toBe(0);
});
