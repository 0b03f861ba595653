'use strict';

// Builds the package and packs it as it would be published: the real-n8n suites install this
// tarball. Once per process, or once per run: SOUND_SEARCH_TARBALL (scripts/test-run.sh, the jest
// globalSetup) names one to use as it is.
//   node test/harness/packageTarball.js   # build, pack into .cache/pack/shared, print the path

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const PACK_DIR = path.join(REPO_ROOT, '.cache', 'pack');
/** @type {string | undefined} */
let packed;

/** Builds the working tree and packs it into dir; returns the tarball's path. */
function buildAndPack(/** @type {string} */ dir) {
	/** @type {import('node:child_process').ExecFileSyncOptions} */
	const options = { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] };
	execFileSync('npx', ['n8n-node', 'build'], options);
	const out = execFileSync('npm', ['pack', '--json', '--pack-destination', dir], options);
	return path.join(dir, path.basename(JSON.parse(out.toString())[0].filename));
}

/**
 * The tarball, checked: a build running elsewhere at once can leave dist/ half-written in it
 * (n8n then knows no such node).
 * @param {string} tarball
 */
function holdingTheBuiltNode(tarball) {
	const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' });
	for (const file of [
		'nodes/SoundSearch/SoundSearch.node',
		'credentials/SoundSearchApi.credentials',
	]) {
		if (!files.includes(`package/dist/${file}.js`))
			throw new Error(`${tarball} lacks dist/${file}.js`);
	}
	return tarball;
}

/** @returns {string} absolute path of n8n-nodes-sound-search-<version>.tgz */
function packageTarball() {
	const shared = process.env.SOUND_SEARCH_TARBALL;
	if (shared && fs.existsSync(shared)) return holdingTheBuiltNode(shared);
	if (packed) return packed;
	fs.mkdirSync(PACK_DIR, { recursive: true });
	// A folder of its own: another process packing at the same time must not delete this tarball.
	const dir = fs.mkdtempSync(path.join(PACK_DIR, `${process.pid}-`));
	process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
	return (packed = holdingTheBuiltNode(buildAndPack(dir)));
}

if (require.main === module) {
	const dir = path.join(PACK_DIR, 'shared');
	fs.rmSync(dir, { recursive: true, force: true });
	fs.mkdirSync(dir, { recursive: true });
	process.stdout.write(`${buildAndPack(dir)}\n`);
}

module.exports = { packageTarball, REPO_ROOT };
