'use strict';

// Throw-away n8n user folders with the community package installed as n8n installs one.

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { LIB_SH } = require('./install');

/**
 * An n8n user folder (n8n keeps its state in <folder>/.n8n) with the community package from an
 * `npm pack` tarball installed the way n8n installs one (install_package_tarball in
 * n8n-host/lib.sh): a fresh one in the system temp dir, or `folder` (kept between runs, as
 * `npm start` does), made if missing.
 * @param {{ packageTarball?: string, folder?: string }} [options]
 * @returns {Promise<string>} the folder (remove a temp one with removeN8nUserFolder)
 */
async function createN8nUserFolder({ packageTarball, folder } = {}) {
	const made = folder ? path.resolve(folder) : fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-user-'));
	fs.mkdirSync(made, { recursive: true });
	if (!packageTarball) return made;
	const script = 'source "$0" && install_package_tarball "$1" "$2"';
	const args = ['-c', script, LIB_SH, path.resolve(packageTarball), made];
	const result = spawnSync('bash', args, { encoding: 'utf8' });
	if (result.status !== 0) {
		if (!folder) fs.rmSync(made, { recursive: true, force: true });
		throw new Error(`install_package_tarball failed (${result.status}): ${result.stderr}`);
	}
	return made;
}

/**
 * Removes a user folder made by createN8nUserFolder (stop any server using it first).
 * @param {string} folder
 */
function removeN8nUserFolder(folder) {
	fs.rmSync(folder, { recursive: true, force: true, maxRetries: 3 });
}

module.exports = { createN8nUserFolder, removeN8nUserFolder };
