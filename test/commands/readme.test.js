'use strict';

// Every command the documentation names (README.md, CONTRIBUTING.md, docs/*.md) is run by one of
// the two tiers, `npm test` or `npm run test:nightly`: each is mapped to the file that runs it and
// the words it runs it with, and a test file must be in a layer a tier runs. A command documented
// without a run fails this test; so does a run removed or renamed.
const fs = require('node:fs');
const path = require('node:path');
const { REPO_ROOT } = require('../harness/command');

/** A command's program: its first words, before arguments and placeholders. */
const PROGRAM = /^(?:\w+=\S+ )?((?:npm run|npm|npx|node|bash) [\w:@/.-]+(?: (?:up|install))?)/;

/** program -> [the file that runs it, the words it is run with there] */
const RUNS = {
	'npm start': ['test/editor/npmStart.js', "'npm start -- --temp'"],
	'npm test': ['.ci/run', 'npm test'],
	'npm run setup': ['scripts/test-run.sh', 'npm run --silent setup'],
	'npm run build': ['test/harness/packageTarball.js', "'n8n-node', 'build'"],
	'npm run lint': ['scripts/test.sh', 'npm run --silent lint'],
	'npm run format:check': ['scripts/test.sh', 'npm run --silent format:check'],
	// format writes; npm test runs the same prettier over the same files as a check.
	'npm run format': ['scripts/test.sh', 'npm run --silent format:check'],
	'npm run demo': ['test/commands/demo.test.js', "'npm run demo -- jazz photosocial 5'"],
	'npm run pictures': ['test/nightly/pictures.test.js', "'npm run --silent pictures'"],
	// The README's install before the first release: its own lines, read from it and run there.
	'npm install': ['test/e2e/nodeInN8n.e2e.test.js', 'readmeInstall: true'],
	'npm run bench': ['test/nightly/bench.test.js', 'npm run --silent bench -- --smoke'],
	'node bench/report.js': ['test/nightly/bench.test.js', 'node bench/report.js'],
	// Hours in full: run on a few lines.
	'npm run test:mutation': ['test/nightly/mutation.test.js', "'npm run test:mutation"],
	'npm run test:nightly': ['.github/workflows/nightly.yml', 'npm run test:nightly'],
	'npm run reference-service': [
		'test/commands/referenceService.test.js',
		'npm run --silent reference-service',
	],
	'bash scripts/queue-env.sh up': ['test/nightly/queueEnv.test.js', 'bash scripts/queue-env.sh up'],
	'bash bench/queue.sh': ['test/nightly/benchQueue.test.js', 'bash bench/queue.sh'],
	'bash scripts/queue-env.sh install': [
		'test/harness/queue/prerequisites.js',
		'queue-env.sh install',
	],
	'node scripts/lint-workflows.js': ['scripts/test.sh', 'node scripts/lint-workflows.js'],
	'node scripts/check-release-tag.js': [
		'test/release/releaseTag.test.js',
		"'scripts/check-release-tag.js'",
	],
	'node test/scanner/scan.js': ['scripts/test.sh', 'node test/scanner/scan.js'],
	'node test/fixtures/n8n-errors/record.js': [
		'test/nightly/errorShapes.test.js',
		'node test/fixtures/n8n-errors/record.js',
	],
	// The release steps that publish cannot run in a test; their dry runs do (test/release/).
	'npm pack': ['test/harness/packageTarball.js', "'npm', ['pack'"],
	'npm publish': ['test/release/dryRun.test.js', "'publish'"],
	'npm run release': ['test/release/dryRun.test.js', "'release'"],
	'npm version': ['test/release/releaseTag.test.js', 'version'],
	// The scan by name needs the published package: the same analyzer runs on the packed tarball.
	'npx @n8n/scan-community-package': ['test/scanner/scan.js', 'analyzePackage'],
};
/** A tier runs a layer as `layer <name>` (test.sh) or by layer.sh. */
const TIERS = ['scripts/test.sh', 'scripts/test-nightly.sh'];
const read = (/** @type {string} */ file) => fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
/** The tier that runs a layer, or undefined. @param {string} name */
const tierOfLayer = (name) =>
	TIERS.find((tier) =>
		new RegExp(`\\b(layer|run_layer \\S+|layer\\.sh) ${name}\\b`).test(read(tier)),
	);
// Every layer's script (package.json test:<layer>) is run by a tier as a layer.
const { scripts } = JSON.parse(read('package.json'));
for (const script of Object.keys(scripts).filter((name) => name.startsWith('test:'))) {
	const name = script.slice('test:'.length);
	const tier = tierOfLayer(name);
	if (tier) RUNS[`npm run ${script}`] ??= [tier, name];
}

const DOCUMENTS = [
	'README.md',
	'CONTRIBUTING.md',
	...fs.readdirSync(path.join(REPO_ROOT, 'docs')).map((name) => `docs/${name}`),
].filter((file) => file.endsWith('.md'));

function readmeCommands() {
	const readme = DOCUMENTS.map(read).join('\n');
	const spans = [...readme.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]);
	const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((match) =>
		match[1].split('\n').map((line) => line.replace(/#.*/, '').trim()),
	);
	const programs = [...spans, ...blocks].map((text) => PROGRAM.exec(text)?.[1]);
	return [...new Set(programs.filter((program) => program !== undefined))].sort();
}

test('the documentation names commands (the parser finds them)', () => {
	expect(readmeCommands()).toEqual(
		expect.arrayContaining(['npm start', 'npm test', 'npm run bench']),
	);
});

test.each(readmeCommands())('documented command "%s" is run by a tier', (program) => {
	expect(RUNS).toHaveProperty([program]);
	const [file, words] = RUNS[program];
	expect(read(file)).toContain(words);
	// A test file runs only when its layer (its folder) does.
	const folder = /^test\/([\w-]+)\/[^/]+\.test\.js$/.exec(file)?.[1];
	if (folder) expect([file, tierOfLayer(folder)]).toEqual([file, expect.any(String)]);
});
