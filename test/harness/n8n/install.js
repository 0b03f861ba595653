'use strict';

// Which n8n the harness drives: the line named by N8N_LINE when this module is loaded (2.x by
// default, or 1.x; a jest project per line sets it), installed once per machine by
// n8n-host/install.sh. Its environment and the package's install come from n8n-host/lib.sh (one
// definition for bash and for this file).

const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { supervise } = require('../supervisor');
const { installAsTheReadmeSays } = require('./readmeInstall');

const HOST_DIR = path.resolve(__dirname, '..', '..', '..', 'n8n-host');
const LIB_SH = path.join(HOST_DIR, 'lib.sh');
const N8N_LINE = process.env.N8N_LINE || '2.x';
const LOG_TAIL_CHARS = 20_000; // of a server's output: enough to explain a failed start

/**
 * `source lib.sh && <script>` (args as $1...) for this line; what it printed.
 * @param {string} script
 * @param {NodeJS.ProcessEnv} [env]
 */
function libSh(script, args = [], env = { ...process.env, N8N_LINE }) {
	const bashArgs = ['-c', `source "$0" >&2 && ${script}`, LIB_SH, ...args];
	const result = spawnSync('bash', bashArgs, { env, encoding: 'utf8', maxBuffer: 16 << 20 });
	if (result.status !== 0) {
		throw new Error(`n8n-host/lib.sh ${script} failed (${result.status}): ${result.stderr}`);
	}
	return result.stdout;
}

const INSTALL_DIR = path.resolve(libSh('n8n_install_dir').trim());
const N8N_BIN = path.join(INSTALL_DIR, 'node_modules', '.bin', 'n8n');
/** @type {Promise<string> | undefined} */
let installed;

/** The installed version of this line (after ensureN8nInstalled). */
function n8nVersion() {
	const file = path.join(INSTALL_DIR, 'node_modules', 'n8n', 'package.json');
	return JSON.parse(fs.readFileSync(file, 'utf8')).version;
}

/**
 * Installs this line's pinned n8n unless it is there (minutes the first time on a machine, then
 * under a second), at most once per process; resolves the n8n executable.
 * @returns {Promise<string>}
 */
function ensureN8nInstalled() {
	installed ??= new Promise((resolve, reject) => {
		spawn('bash', [path.join(HOST_DIR, 'install.sh'), N8N_LINE], {
			stdio: ['ignore', 'inherit', 'inherit'],
		})
			.on('error', reject)
			.on('exit', (code, signal) => {
				if (code === 0 && fs.existsSync(N8N_BIN)) resolve(N8N_BIN);
				else reject(new Error(`n8n-host/install.sh failed (code ${code}, signal ${signal})`));
			});
	}).catch((error) => {
		installed = undefined;
		throw error;
	});
	return installed;
}

/**
 * This process's environment minus NODE_ENV (n8n loads no nodes under jest's "test") and
 * NODE_OPTIONS, plus n8n_env of lib.sh, then `extra` (undefined removes a variable).
 * @param {Record<string, string | undefined>} [extra]
 * @returns {Record<string, string>}
 */
function n8nEnv(/** @type {string} */ userFolder, port, brokerPort, extra = {}) {
	const { NODE_ENV, NODE_OPTIONS, ...base } = /** @type {NodeJS.ProcessEnv} */ ({
		...process.env,
		N8N_LINE,
	});
	const print = 'node -p "JSON.stringify(process.env)"';
	const args = [userFolder, String(port), String(brokerPort)];
	const env = {
		...JSON.parse(libSh(`n8n_env "$1" "$2" "$3" >&2 && ${print}`, args, base)),
		...extra,
	};
	return Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined));
}

/**
 * `n8n <args>` in userFolder under the supervisor (stopping kills n8n and its task runner), all
 * its output kept (a CLI run) or the last 20 KB (tailOnly, a server).
 * @param {string[]} args
 * @param {Record<string, string>} env
 * @param {string} cwd
 * @param {{ tailOnly?: boolean, graceMs: number }} options
 */
function superviseN8n(args, env, cwd, { tailOnly = false, graceMs }) {
	const tailChars = tailOnly ? LOG_TAIL_CHARS : Infinity;
	return supervise([N8N_BIN, ...args], { env, cwd, graceMs, tailChars });
}

/**
 * An n8n user folder (state in <folder>/.n8n) with an `npm pack` tarball installed as n8n installs
 * a community package (or, asReadme, by the README's own install lines: readmeInstall.js): a fresh
 * one in the temp dir, or `folder` (kept, as `npm start` does).
 * @param {{ packageTarball?: string, folder?: string, asReadme?: boolean }} [options]
 */
async function createN8nUserFolder({ packageTarball, folder, asReadme = false } = {}) {
	const made = folder ? path.resolve(folder) : fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-user-'));
	fs.mkdirSync(made, { recursive: true });
	try {
		if (packageTarball && asReadme) installAsTheReadmeSays(path.resolve(packageTarball), made);
		else if (packageTarball) {
			libSh('install_package_tarball "$1" "$2"', [path.resolve(packageTarball), made]);
		}
	} catch (error) {
		if (!folder) removeN8nUserFolder(made);
		throw error;
	}
	return made;
}

/** Removes a user folder made by createN8nUserFolder (stop any server using it first). */
function removeN8nUserFolder(/** @type {string} */ folder) {
	fs.rmSync(folder, { recursive: true, force: true, maxRetries: 3 });
}

module.exports = {
	N8N_LINE,
	INSTALL_DIR,
	n8nVersion,
	ensureN8nInstalled,
	n8nEnv,
	superviseN8n,
	createN8nUserFolder,
	removeN8nUserFolder,
};
