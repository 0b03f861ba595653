'use strict';

// Which n8n the harness drives and where it lives: the line named by N8N_LINE when this module is
// loaded (2.x by default, or 1.x; see n8n-host/README.md; a jest project per line sets it), installed
// once per machine by n8n-host/install.sh, and the environment every n8n process gets, from
// n8n_env in n8n-host/lib.sh (one definition for bash and for this file).

const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
const HOST_DIR = path.join(REPO_ROOT, 'n8n-host');
const LIB_SH = path.join(HOST_DIR, 'lib.sh');
const INSTALL_SH = path.join(HOST_DIR, 'install.sh');
const N8N_LINE = process.env.N8N_LINE || '2.x';
/** Where the line is installed, from n8n_install_dir in lib.sh (one definition). */
const INSTALL_DIR = path.resolve(libSh('n8n_install_dir'));
const N8N_BIN = path.join(INSTALL_DIR, 'node_modules', '.bin', 'n8n');

/** @type {Promise<string> | undefined} */
let installPromise;

/**
 * Runs a function of n8n-host/lib.sh for this module's line and returns what it printed.
 * @param {string} fn
 * @returns {string}
 */
function libSh(fn) {
	const result = spawnSync('bash', ['-c', 'source "$0" >&2 && "$1"', LIB_SH, fn], {
		env: { ...process.env, N8N_LINE },
		encoding: 'utf8',
	});
	if (result.status !== 0) throw new Error(`n8n-host/lib.sh ${fn} failed: ${result.stderr}`);
	return result.stdout.trim();
}

/**
 * The version of the installed n8n of this line (after ensureN8nInstalled).
 * @returns {string}
 */
function n8nVersion() {
	return JSON.parse(
		fs.readFileSync(path.join(INSTALL_DIR, 'node_modules', 'n8n', 'package.json'), 'utf8'),
	).version;
}

/**
 * Installs this line's pinned n8n (n8n-host/install.sh <line>) unless already installed; runs the script at most
 * once per process. The first install on a machine takes about 4-5 minutes; afterwards well under
 * a second.
 * @returns {Promise<string>} path of the n8n executable
 */
function ensureN8nInstalled() {
	if (!installPromise) {
		installPromise = new Promise((resolve, reject) => {
			const child = spawn('bash', [INSTALL_SH, N8N_LINE], {
				stdio: ['ignore', 'inherit', 'inherit'],
			});
			child.on('error', reject);
			child.on('exit', (code, signal) => {
				if (code === 0 && fs.existsSync(N8N_BIN)) resolve(N8N_BIN);
				else reject(new Error(`n8n-host/install.sh failed (code ${code}, signal ${signal})`));
			});
		});
		installPromise.catch(() => {
			installPromise = undefined;
		});
	}
	return installPromise;
}

/**
 * The environment an n8n process gets: this process's environment plus n8n_env from
 * n8n-host/lib.sh (which also puts Node 24 first on PATH), minus NODE_ENV (jest sets it to "test",
 * and n8n then refuses to load nodes) and NODE_OPTIONS; then `extra` on top.
 * @param {string} userFolder
 * @param {number} port
 * @param {number} brokerPort
 * @param {Record<string, string | undefined>} [extra]
 * @returns {Record<string, string>}
 */
function n8nEnv(userFolder, port, brokerPort, extra = {}) {
	/** @type {Record<string, string | undefined>} */
	const base = { ...process.env, N8N_LINE };
	delete base.NODE_ENV;
	delete base.NODE_OPTIONS;
	const result = spawnSync(
		'bash',
		[
			'-c',
			'source "$0" >&2 && n8n_env "$1" "$2" "$3" >&2 && env -0',
			LIB_SH,
			userFolder,
			String(port),
			String(brokerPort),
		],
		{ env: /** @type {NodeJS.ProcessEnv} */ (base), encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
	);
	if (result.status !== 0) {
		throw new Error(`n8n_env failed (${result.status}): ${result.stderr}`);
	}
	/** @type {Record<string, string>} */
	const env = {};
	for (const entry of result.stdout.split('\0')) {
		const eq = entry.indexOf('=');
		if (eq > 0) env[entry.slice(0, eq)] = entry.slice(eq + 1);
	}
	for (const [key, value] of Object.entries(extra)) {
		if (value === undefined) delete env[key];
		else env[key] = value;
	}
	return env;
}

module.exports = {
	N8N_LINE,
	N8N_BIN,
	INSTALL_DIR,
	HOST_DIR,
	LIB_SH,
	n8nVersion,
	ensureN8nInstalled,
	n8nEnv,
};
