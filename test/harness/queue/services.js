'use strict';

// What queue mode needs besides n8n: a private Redis (Bull's job queue) and a private PostgreSQL
// cluster (SQLite is not reliable in queue mode), on 127.0.0.1 and free ports, each under the
// harness's supervisor (../supervisor.js: its own process group, stopped by pid, also when this
// process dies); and the environment every n8n process of a stack shares.

const { execFile } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { promisify } = require('node:util');
const { getFreePort } = require('../n8n');
const { supervise } = require('../supervisor');
const { until } = require('../poll');
const { deadlineMs } = require('../deadlines');

const run = promisify(execFile);
const USER = 'n8n';
const ok = () => true;

/** @typedef {(p: { name: string, supervisorPid: number, stop: () => Promise<unknown> }) => void} Track */

/**
 * Starts a server under the supervisor; its pid once `probe` resolves. One that exits first fails
 * the start at once, with its output.
 * @param {string} name
 * @param {string[]} command
 * @param {{ cwd: string, env?: NodeJS.ProcessEnv, stopSignal?: NodeJS.Signals, cleanupDir?: string }} options
 * @param {() => Promise<unknown>} probe
 * @param {Track} track
 */
async function startServer(name, command, options, probe, track) {
	const server = supervise(command, { ...options, graceMs: 10_000, tailChars: 20_000 });
	track({ name, supervisorPid: Number(server.supervisor.pid), stop: () => server.stop(10_000) });
	/** @type {object | undefined} */
	let exit;
	void server.exited.then((e) => (exit = e));
	const ready = async () => {
		if (exit) throw new Error(`exited while starting (${JSON.stringify(exit)})`);
		return probe().then(ok, () => false);
	};
	try {
		await until(`${name} to be ready`, ready, Boolean, deadlineMs('serviceReady'));
	} catch (error) {
		throw new Error(`${name}: ${error.message}\n${server.stdout()}${server.stderr()}`);
	}
	return server.childPid;
}

/** Redis without persistence. @param {{ redisServer: string, dir: string, track: Track }} options */
async function startRedis({ redisServer, dir, track }) {
	fs.mkdirSync(dir);
	const port = String(await getFreePort());
	const command = [redisServer, '--bind', '127.0.0.1', '--port', port, '--save', ''];
	command.push('--appendonly', 'no', '--dir', dir, '--logfile', '');
	// redis-cli comes with Debian's redis-server (redis-tools).
	const cli = path.join(path.dirname(redisServer), 'redis-cli');
	const ping = async () => {
		const { stdout } = await run(cli, ['-h', '127.0.0.1', '-p', port, 'ping']);
		if (stdout.trim() !== 'PONG') throw new Error(stdout);
	};
	const pid = await startServer('redis', command, { cwd: dir }, ping, track);
	return { port: Number(port), pid };
}

/**
 * A throw-away cluster: initdb into baseDir (the supervisor removes it if this process dies),
 * loopback only, fsync off; as the `postgres` user when this process is root (PostgreSQL refuses
 * to run as root).
 * @param {{ pgBin: string, baseDir: string, track: Track }} options
 */
async function startPostgres({ pgBin, baseDir, track }) {
	const bin = (/** @type {string} */ name) => path.join(pgBin, name);
	const dataDir = path.join(baseDir, 'pgdata');
	fs.mkdirSync(dataDir, { mode: 0o700 });
	const as = asPostgres(dataDir);
	const env = { ...process.env, LANG: 'C', LC_ALL: 'C' };
	const init = ['-D', dataDir, '-U', USER, '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync'];
	const [file, ...args] = [...as, bin('initdb'), ...init];
	await run(file, args, { env, cwd: baseDir });
	const port = String(await getFreePort());
	const settings = ['listen_addresses=127.0.0.1', 'unix_socket_directories=', 'fsync=off'];
	settings.push('synchronous_commit=off', 'full_page_writes=off', 'max_connections=200');
	const command = [...as, bin('postgres'), '-D', dataDir, '-p', port];
	command.push(...settings.flatMap((setting) => ['-c', setting]));
	// pg_isready, not a TCP wait: the port opens before PostgreSQL accepts connections.
	const at = ['-q', '-h', '127.0.0.1', '-p', port, '-U', USER, '-d', 'postgres'];
	const isReady = () => run(bin('pg_isready'), at);
	// SIGINT is PostgreSQL's fast shutdown (SIGTERM would wait for every client to leave).
	const stopSignal = /** @type {NodeJS.Signals} */ ('SIGINT');
	const spawn = { env, cwd: baseDir, stopSignal, cleanupDir: baseDir };
	const pid = await startServer('postgres', command, spawn, isReady, track);
	return { port: Number(port), pid, database: 'postgres', user: USER };
}

/** The prefix that runs a command as the `postgres` user, owning dataDir, when this is root. @param {string} dataDir */
function asPostgres(dataDir) {
	if (process.getuid?.() !== 0) return [];
	const entry = fs.readFileSync('/etc/passwd', 'utf8').match(/^postgres:[^:]*:(\d+):(\d+):/m);
	if (!entry) throw new Error('running as root, and there is no `postgres` user to run PostgreSQL');
	fs.chownSync(dataDir, Number(entry[1]), Number(entry[2]));
	return ['setpriv', `--reuid=${entry[1]}`, `--regid=${entry[2]}`, '--clear-groups', '--'];
}

/**
 * The environment of every n8n process of a stack, on top of n8nEnv's: queue mode on this Redis
 * and PostgreSQL, JSON logs (read by ./n8nProcess.js), files only in filesDir.
 * @param {{ port: number } | undefined} redis
 * @param {{ port: number, database: string, user: string } | undefined} pg
 * @param {string} filesDir
 * @param {{ lockDurationMs: number, lockRenewMs: number, stalledIntervalMs: number }} [stall]
 */
function queueEnv(redis, pg, filesDir, stall) {
	if (!redis || !pg) throw new Error('Redis and PostgreSQL must run first');
	return {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(pg.port),
		DB_POSTGRESDB_DATABASE: pg.database,
		DB_POSTGRESDB_USER: pg.user,
		DB_POSTGRESDB_PASSWORD: 'trust-auth-on-loopback',
		N8N_LOG_FORMAT: 'json',
		N8N_RESTRICT_FILE_ACCESS_TO: filesDir,
		...(stall && {
			QUEUE_WORKER_LOCK_DURATION: String(stall.lockDurationMs),
			QUEUE_WORKER_LOCK_RENEW_TIME: String(stall.lockRenewMs),
			QUEUE_WORKER_STALLED_INTERVAL: String(stall.stalledIntervalMs),
		}),
	};
}

module.exports = { startRedis, startPostgres, queueEnv };
