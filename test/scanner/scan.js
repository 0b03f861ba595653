'use strict';

// Runs n8n's community-package scanner (the analyzer behind @n8n/scan-community-package) on the
// source tree and on the unpacked `npm pack` tarball, the two legs n8n scans for a published
// package. Exits non-zero on any violation. Used by scripts/test.sh.
const { execFileSync } = require('node:child_process');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');
const { packageTarball, REPO_ROOT } = require('../harness/packageTarball');

async function main() {
	// The scanner ships as an ES module only.
	const { analyzePackage, SOURCE_FILE_PATTERNS } = await import(
		'@n8n/scan-community-package/scanner/scanner.mjs'
	);
	const unpacked = mkdtempSync(path.join(tmpdir(), 'sound-search-scan-'));
	try {
		execFileSync('tar', ['xzf', packageTarball(), '-C', unpacked, '--strip-components=1']);
		const legs = [
			['source tree', await analyzePackage(REPO_ROOT, SOURCE_FILE_PATTERNS)],
			['unpacked tarball', await analyzePackage(unpacked, ['**/*.js', 'package.json'])],
		];
		for (const [leg, result] of legs) {
			console.log(`scanner, ${leg}: ${result.passed ? 'passed' : `FAILED (${result.message})`}`);
			if (result.details) console.log(result.details);
		}
		process.exitCode = legs.every(([, result]) => result.passed) ? 0 : 1;
	} finally {
		rmSync(unpacked, { recursive: true, force: true });
	}
}

void main();
