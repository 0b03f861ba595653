'use strict';

// `npm run reference-service`, as the README gives it: it serves the spec on 127.0.0.1 until
// stopped. Its port (4010 in the npm script) is overridden with a free one: npm passes the extra
// arguments after the script's, and the last --port wins.
const { start, stopGroup } = require('./run');

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
	for (let waited = 0; waited < 20_000; waited += 100) {
		const line = /\{"event":"listening","url":"([^"]+)"/.exec(command.output());
		if (line) return line[1];
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
	throw new Error(`no listening line:\n${command.output()}`);
}
