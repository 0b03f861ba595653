'use strict';

// A private PostgreSQL cluster (n8n's database in queue mode: SQLite is not reliable there):
// initdb into a temp folder, loopback only, a free port, fsync off; then the database n8n uses.

const fs = require('node:fs');
const path = require('node:path');
const { getFreePort } = require('../n8n');
const { superviseService, run, waitUntil } = require('./service');

const DB_NAME = 'n8n';
const DB_USER = 'n8n';
const SETTINGS = ['listen_addresses=127.0.0.1', 'unix_socket_directories=', 'fsync=off'].concat([
	'synchronous_commit=off',
	'full_page_writes=off',
	'max_connections=200',
]);

/**
 * PostgreSQL refuses to run as root: then it runs as the `postgres` user (setpriv), which must own
 * its data folder.
 * @param {string} dataDir
 * @returns {string[]} the command prefix
 */
function asPostgres(dataDir) {
	if (process.getuid?.() !== 0) return [];
	const entry = fs
		.readFileSync('/etc/passwd', 'utf8')
		.split('\n')
		.find((line) => line.startsWith('postgres:'));
	if (!entry)
		throw new Error('running as root, but there is no `postgres` user to run PostgreSQL as');
	const [, , uid, gid] = entry.split(':');
	fs.chownSync(dataDir, Number(uid), Number(gid));
	return ['setpriv', `--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', '--'];
}

/**
 * @param {{ pgBin: string, baseDir: string, track: (s: import('./service').Service) => void }} options
 *   baseDir: removed by the supervisor if the test process dies
 */
async function startPostgres({ pgBin, baseDir, track }) {
	const bin = (/** @type {string} */ name) => path.join(pgBin, name);
	const dataDir = path.join(baseDir, 'pgdata');
	fs.mkdirSync(dataDir, { mode: 0o700 });
	const prefix = asPostgres(dataDir);
	const env = { ...process.env, LANG: 'C', LC_ALL: 'C' };
	const initArgs = ['-D', dataDir, '-U', DB_USER, '--auth=trust', '-E', 'UTF8', '--locale=C'];
	const init = await run([...prefix, bin('initdb'), ...initArgs, '--no-sync'], {
		env,
		cwd: baseDir,
		timeoutMs: 120_000,
	});
	if (init.code !== 0)
		throw new Error(`initdb failed (${init.code}):\n${init.stdout}\n${init.stderr}`);
	const port = await getFreePort();
	const settings = SETTINGS.flatMap((setting) => ['-c', setting]);
	const command = [...prefix, bin('postgres'), '-D', dataDir, '-p', String(port), ...settings];
	// SIGINT is PostgreSQL's fast shutdown (SIGTERM would wait for every client to leave).
	const proc = superviseService('postgres', command, {
		env,
		cwd: baseDir,
		stopSignal: 'SIGINT',
		cleanupDir: baseDir,
	});
	track(proc);
	const at = ['-h', '127.0.0.1', '-p', String(port), '-U', DB_USER];
	// pg_isready, not a TCP wait: the port opens before PostgreSQL accepts connections.
	const ready = async () =>
		(await run([bin('pg_isready'), '-q', ...at, '-d', 'postgres'])).code === 0;
	await waitUntil('postgres', ready, { timeoutMs: 60_000, process: proc });
	const created = await run([bin('createdb'), ...at, DB_NAME]);
	if (created.code !== 0) throw new Error(`createdb failed (${created.code}): ${created.stderr}`);
	return { port, pid: await proc.childPid, database: DB_NAME, user: DB_USER, process: proc };
}

module.exports = { startPostgres, DB_NAME, DB_USER };
