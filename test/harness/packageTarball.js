'use strict';

// Builds the package and packs it with `npm pack`, as it would be published: the real-n8n suites
// install this tarball, so what users get from the registry is what is tested. Packed once per
// process into .cache/pack/.

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const PACK_DIR = path.join(REPO_ROOT, '.cache', 'pack');
let packed;

/**
 * @returns {string} absolute path of n8n-nodes-sound-search-<version>.tgz
 */
function packageTarball() {
	if (packed) return packed;
	const npx = (args) =>
		execFileSync('npx', args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
	npx(['n8n-node', 'build']);
	fs.mkdirSync(PACK_DIR, { recursive: true });
	// A folder of its own: another process packing at the same time must not delete this tarball.
	const dir = fs.mkdtempSync(path.join(PACK_DIR, `${process.pid}-`));
	process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
	const out = execFileSync('npm', ['pack', '--json', '--pack-destination', dir], {
		cwd: REPO_ROOT,
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	const [{ filename }] = JSON.parse(out.toString());
	packed = path.join(dir, path.basename(filename));
	return packed;
}

module.exports = { packageTarball, REPO_ROOT };
