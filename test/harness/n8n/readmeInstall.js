'use strict';

// The README's install before the first registry release, typed as a user types it: the lines of
// its "Install in n8n" block from `mkdir -p ~/.n8n/nodes` on, read from README.md, run by bash with
// HOME set to an n8n user folder (n8n keeps its state, nodes/ included, in ~/.n8n by default), the
// tarball `npm pack` wrote in place of the README's /path/to/<file>. The file name must be the one
// the README names, so a version bump that leaves the README behind fails here.

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { deadlineMs } = require('../deadlines');

const README = path.resolve(__dirname, '..', '..', '..', 'README.md');
const TARBALL_IN_README = /\/path\/to\/(n8n-nodes-sound-search-\S+\.tgz)/;
const FIRST_LINE = 'mkdir -p ~/.n8n/nodes';

/** The install block's lines from FIRST_LINE on. @returns {string[]} */
function readmeInstallLines() {
	const readme = fs.readFileSync(README, 'utf8');
	const section = readme.slice(readme.indexOf('## Install in n8n'));
	const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
	const lines = block.split('\n').filter(Boolean);
	const from = lines.findIndex((line) => line.startsWith(FIRST_LINE));
	if (from < 0) throw new Error(`README.md's install block has no line "${FIRST_LINE}"`);
	return lines.slice(from);
}

/**
 * Installs the tarball into <userFolder>/.n8n/nodes by the README's lines; returns what they printed.
 * @param {string} tarball absolute path of the `npm pack` tarball
 * @param {string} userFolder an n8n user folder (N8N_USER_FOLDER: its state in <userFolder>/.n8n)
 */
function installAsTheReadmeSays(tarball, userFolder) {
	const script = readmeInstallLines().join('\n');
	const named = TARBALL_IN_README.exec(script)?.[1];
	if (named !== path.basename(tarball))
		throw new Error(`README.md installs ${named}; npm pack wrote ${path.basename(tarball)}`);
	const typed = script.replace(TARBALL_IN_README, `'${tarball}'`);
	// Quiet and offline as far as npm lets it: no audit, funding or update check (the user's npm
	// may do them; they change nothing in what is installed).
	const quiet = { npm_config_audit: 'false', npm_config_fund: 'false' };
	const env = { ...process.env, ...quiet, npm_config_update_notifier: 'false', HOME: userFolder };
	const result = spawnSync('bash', ['-eo', 'pipefail', '-c', typed], {
		env,
		encoding: 'utf8',
		timeout: deadlineMs('n8nCommand'),
	});
	const output = `${result.stdout}${result.stderr}`;
	if (result.status !== 0)
		throw new Error(`the README's install lines failed (${result.status}):\n${typed}\n${output}`);
	return output;
}

module.exports = { installAsTheReadmeSays, readmeInstallLines };
