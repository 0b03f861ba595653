'use strict';

// Redis and the PostgreSQL server binaries, installed when missing by
// `bash scripts/queue-env.sh install` (Debian packages through apt-get: root or password-less sudo).

const { spawnSync } = require('node:child_process');
const path = require('node:path');

const QUEUE_ENV_SH = path.resolve(__dirname, '..', '..', '..', 'scripts', 'queue-env.sh');

/**
 * @typedef {object} QueuePrerequisites
 * @property {boolean} available
 * @property {string} [reason] why not (when not available)
 * @property {string} [redisServer] path of redis-server
 * @property {string} [pgBin] folder of the PostgreSQL server binaries
 * @property {string} [redisVersion]
 * @property {string} [pgVersion]
 */

/**
 * Blocking, so that a test file can decide at load time whether its suite runs. available: false
 * only when they truly cannot be installed here (the script's exit code 3); throws otherwise.
 * @param {{ install?: boolean }} [options] install: false only checks
 * @returns {QueuePrerequisites}
 */
function ensureQueuePrerequisitesSync({ install = true } = {}) {
	const action = install ? 'install' : 'check';
	const result = spawnSync('bash', [QUEUE_ENV_SH, action], {
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
		timeout: 15 * 60_000,
	});
	if (result.status === 3)
		return { available: false, reason: result.stderr.trim().split('\n').slice(-5).join('\n') };
	if (result.status !== 0)
		throw new Error(`scripts/queue-env.sh ${action} failed (${result.status}):\n${result.stderr}`);
	const values = Object.fromEntries(result.stdout.split('\n').map((line) => line.split('=')));
	return {
		available: true,
		redisServer: values.REDIS_SERVER,
		pgBin: values.PG_BIN,
		redisVersion: values.REDIS_VERSION,
		pgVersion: values.PG_VERSION,
	};
}

module.exports = { ensureQueuePrerequisitesSync };
