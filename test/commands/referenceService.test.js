'use strict';

// `npm run reference-service`, as the README gives it: it serves on 127.0.0.1 until stopped (on a
// free port: npm passes extra arguments after the script's, and the last --port wins).
const { start, stopGroup } = require('../harness/command');
const { until } = require('../harness/poll');
const { deadlineMs } = require('../harness/deadlines');

test('npm run reference-service answers a search with its credits, and stops by pid', async () => {
	const command = start(
		`npm run --silent reference-service -- --port 0 --parent-pid ${process.pid}`,
	);
	try {
		const url = await listeningUrl(command);
		const answer = await fetch(`${url}/v1/photosocial/sound/search?q=lofi&limit=2`, {
			headers: { authorization: 'Bearer sandbox-key' },
		});
		expect(answer.status).toBe(200);
		expect(answer.headers.get('x-credits-charged')).toBe('2');
		const page = /** @type {{ data: { items: unknown[] } }} */ (await answer.json());
		expect(page.data.items).toHaveLength(2);
	} finally {
		stopGroup(command.pid);
	}
	await new Promise((resolve) => command.process.on('exit', resolve));
});

/** @param {ReturnType<typeof start>} command */
async function listeningUrl(command) {
	const listening = () => /\{"event":"listening","url":"([^"]+)"/.exec(command.output());
	const what = `the listening line of the reference service`;
	const line = await until(what, listening, Boolean, deadlineMs('childListening'), 100);
	return /** @type {RegExpExecArray} */ (line)[1];
}
