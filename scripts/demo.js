'use strict';
// `npm run demo [query] [platform] [limit]` (scripts/demo.sh compiles it first): the Sound Search
// node once through n8n-core's engine against a local reference service, printed as a workflow
// gets it from a node added today (default version, Simplify on), with each call's credits.

const path = require('node:path');
const { startReferenceService } = require('../test/harness/referenceService');
// The engine harness as demo.sh compiled it: a path built at run time, not type-checked again.
const compiled = path.join(__dirname, '../.cache/demo');
const { runSoundSearch } = require(path.join(compiled, 'test/harness/engine/engine'));
const { SoundSearch } = require(path.join(compiled, 'nodes/SoundSearch/SoundSearch.node'));

const [query = 'lofi', platform = 'shortvideo', limit = '8'] = process.argv.slice(2);
const DEMO_KEY = 'demo-key';
// What the editor gives a new node, so that the demo shows the shape the README describes.
const { defaultVersion } = new SoundSearch().description;
// Too wide for a terminal's table: the first item, printed in full below the table, has them.
const WIDE_FIELDS = ['audioUrl', 'fetchedAt'];

async function main() {
	const service = await startReferenceService({ keys: [DEMO_KEY] });
	const price = platform === 'photosocial' ? '2 credits' : '1 credit';
	console.log(
		`Searching ${JSON.stringify(query)} on ${platform} (${price} per call), Limit ${limit}, ` +
			`through n8n's execution engine against the reference service at ${service.url} ...\n`,
	);
	try {
		const run = await runSoundSearch({
			parameters: { platform, query, limit: Number(limit) },
			credentials: { apiKey: DEMO_KEY, baseUrl: service.url },
			nodeSettings: { typeVersion: defaultVersion },
		});
		if (run.error) throw run.error;
		const sounds = run.items.map(({ json }) => json);
		const columns = Object.keys(sounds[0] ?? {}).filter((field) => !WIDE_FIELDS.includes(field));
		console.table(sounds, columns);
		const { totals } = await service.ledger();
		console.log(
			`\nSearched ${JSON.stringify(query)} on ${platform}, Limit ${limit}: ${run.items.length} sounds ` +
				`from ${totals.requests} call(s), ${totals.creditsCharged} credit(s) charged.`,
		);
		console.log(
			`First item as the workflow sees it (node version ${defaultVersion}, Simplify on):\n` +
				JSON.stringify(sounds[0] ?? null, null, 2),
		);
	} finally {
		await service.stop();
	}
}

main().catch((error) => {
	console.error(
		`Demo failed: ${error.message}${error.description ? `\n${error.description}` : ''}`,
	);
	process.exitCode = 1;
});
