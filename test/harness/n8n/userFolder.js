'use strict';

// Throw-away n8n user folders with the community package installed as n8n installs one.

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { LIB_SH } = require('./install');

/**
 * Creates a fresh n8n user folder (n8n keeps its state in <folder>/.n8n) in the system temp dir,
 * with the community package from an `npm pack` tarball installed the way n8n installs one
 * (see install_package_tarball in n8n-host/lib.sh).
 * @param {{ packageTarball?: string }} [options]
 * @returns {Promise<string>} the folder (remove it with removeN8nUserFolder)
 */
async function createN8nUserFolder({ packageTarball } = {}) {
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-user-'));
	if (packageTarball) {
		const result = spawnSync(
			'bash',
			[
				'-c',
				'source "$0" && install_package_tarball "$1" "$2"',
				LIB_SH,
				path.resolve(packageTarball),
				folder,
			],
			{ encoding: 'utf8' },
		);
		if (result.status !== 0) {
			fs.rmSync(folder, { recursive: true, force: true });
			throw new Error(`install_package_tarball failed (${result.status}): ${result.stderr}`);
		}
	}
	return folder;
}

/**
 * Removes a user folder made by createN8nUserFolder (stop any server using it first).
 * @param {string} folder
 */
function removeN8nUserFolder(folder) {
	fs.rmSync(folder, { recursive: true, force: true, maxRetries: 3 });
}

module.exports = { createN8nUserFolder, removeN8nUserFolder };
