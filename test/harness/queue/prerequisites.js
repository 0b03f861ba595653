'use strict';

// Redis and PostgreSQL's server binaries, installed when missing by `bash scripts/queue-env.sh install`
// (Debian's packages: root or password-less sudo). Blocking: a test file decides at load time.

const { spawnSync } = require('node:child_process');
const path = require('node:path');

/**
 * available: false only when they cannot be installed here (the script's exit code 3); throws on
 * any other failure.
 * @returns {{ available: boolean, reason?: string, REDIS_SERVER?: string, PG_BIN?: string,
 *   REDIS_VERSION?: string, PG_VERSION?: string }}
 */
function ensureQueuePrerequisitesSync() {
	const script = path.resolve(__dirname, '..', '..', '..', 'scripts', 'queue-env.sh');
	const result = spawnSync('bash', [script, 'install'], { encoding: 'utf8', timeout: 900_000 });
	if (result.status === 3)
		return { available: false, reason: result.stderr.trim().split('\n').slice(-5).join('\n') };
	if (result.status !== 0)
		throw new Error(`scripts/queue-env.sh install failed (${result.status}):\n${result.stderr}`);
	const found = Object.fromEntries(result.stdout.split('\n').map((line) => line.split('=')));
	return { available: true, ...found };
}

module.exports = { ensureQueuePrerequisitesSync };
