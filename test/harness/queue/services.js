'use strict';

// What queue mode needs besides n8n: a private Redis (the job queue, Bull) and a private
// PostgreSQL cluster (SQLite is not reliable in queue mode), both on 127.0.0.1 and free ports,
// under the same supervisor as n8n (../supervisor.js: it leads its own process group, so a stop by
// pid stops everything the command started, also when this process dies). Short commands
// (initdb, createdb, pg_isready) just run to the end.

const { execFile } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { getFreePort } = require('../n8n');
const { supervise } = require('../supervisor');
const { deadlineMs, timedOut } = require('../deadlines');

const STOP_GRACE_MS = 10_000;
const DB = 'n8n'; // the database and its user
const PG_SETTINGS = ['listen_addresses=127.0.0.1', 'unix_socket_directories=', 'fsync=off'].concat([
	'synchronous_commit=off',
	'full_page_writes=off',
	'max_connections=200',
]);

/**
 * @typedef {{ code: number | null, signal: string | null }} Exit
 * @typedef {object} Service
 * @property {string} name
 * @property {number} supervisorPid leader of the process group
 * @property {Promise<number>} childPid the command's own pid (-1 if it never started)
 * @property {() => Exit | undefined} exitStatus set once exited
 * @property {() => string} logs the tail of its output
 * @property {() => Promise<unknown>} stop its stop signal, SIGKILL of the group after a grace period
 * @typedef {(s: Pick<Service, 'name' | 'supervisorPid' | 'stop'>) => void} Track
 */

/**
 * @param {string} name
 * @param {string[]} command
 * @param {{ env?: NodeJS.ProcessEnv, cwd: string, stopSignal?: NodeJS.Signals, cleanupDir?: string }} options
 * @returns {Service}
 */
function superviseService(name, command, options) {
	const run = supervise(command, { ...options, graceMs: STOP_GRACE_MS, tailChars: 20_000 });
	/** @type {Exit | undefined} */
	let exit;
	void run.exited.then((e) => (exit = e));
	return {
		name,
		supervisorPid: /** @type {number} */ (run.supervisor.pid),
		childPid: run.childPid,
		exitStatus: () => exit,
		logs: () => `${run.stdout()}${run.stderr()}`,
		stop: () => run.stop(STOP_GRACE_MS),
	};
}

/**
 * Runs a short command to its end.
 * @param {string[]} command
 * @param {{ env?: NodeJS.ProcessEnv, cwd?: string, timeoutMs?: number }} [options]
 * @returns {Promise<{ code: number, stdout: string, stderr: string }>}
 */
function run([file, ...args], { env, cwd, timeoutMs = deadlineMs('serviceReady') } = {}) {
	return new Promise((resolve) =>
		execFile(file, args, { env, cwd, timeout: timeoutMs }, (error, stdout, stderr) =>
			resolve({ code: error ? Number(error.code ?? 1) || 1 : 0, stdout, stderr }),
		),
	);
}

/**
 * Polls a probe that no library offers (Redis PING, pg_isready, a webhook's CORS preflight) until
 * it holds; fails early when the process it waits for has exited.
 * @param {string} what
 * @param {() => Promise<boolean>} probe
 * @param {{ timeoutMs: number, process?: Pick<Service, 'exitStatus' | 'logs'> }} options
 */
async function waitUntil(what, probe, { timeoutMs, process: proc }) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const exit = proc?.exitStatus();
		if (exit)
			throw new Error(`${what} exited while starting (${JSON.stringify(exit)})\n${proc?.logs()}`);
		if (await probe().catch(() => false)) return;
		if (Date.now() > deadline) {
			const late = timedOut(`${what} to be ready`, timeoutMs);
			throw Object.assign(late, { message: `${late.message}\n${proc?.logs() ?? ''}` });
		}
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/** No persistence. @param {{ redisServer: string, dir: string, track: Track }} options */
async function startRedis({ redisServer, dir, track }) {
	fs.mkdirSync(dir);
	const port = await getFreePort();
	const args = ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no'];
	const proc = superviseService('redis', [redisServer, ...args, '--dir', dir, '--logfile', ''], {
		cwd: dir,
	});
	track(proc);
	await waitUntil('redis-server', () => ping(port), {
		timeoutMs: deadlineMs('serviceReady'),
		process: proc,
	});
	return { port, pid: await proc.childPid };
}

/**
 * PING over a socket, expecting +PONG. Written by hand: wait-on only knows that the port is open,
 * and a Redis client library would be a dependency for these ten lines.
 * @param {number} port
 * @returns {Promise<boolean>}
 */
function ping(port) {
	return new Promise((resolve) => {
		const socket = net.connect({ host: '127.0.0.1', port }, () => socket.write('PING\r\n'));
		const done = (/** @type {boolean} */ ok) => resolve(ok) ?? socket.destroy();
		socket.setTimeout(2_000, () => done(false));
		socket.on('error', () => done(false));
		socket.on('data', (chunk) => done(chunk.toString('latin1').startsWith('+PONG')));
	});
}

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
 * initdb into baseDir (removed by the supervisor if the test process dies), loopback only, fsync
 * off; then the database n8n uses.
 * @param {{ pgBin: string, baseDir: string, track: Track }} options
 */
async function startPostgres({ pgBin, baseDir, track }) {
	const bin = (/** @type {string} */ name) => path.join(pgBin, name);
	const dataDir = path.join(baseDir, 'pgdata');
	fs.mkdirSync(dataDir, { mode: 0o700 });
	const prefix = asPostgres(dataDir);
	const env = { ...process.env, LANG: 'C', LC_ALL: 'C' };
	const initArgs = ['-D', dataDir, '-U', DB, '--auth=trust', '-E', 'UTF8', '--locale=C'];
	const init = await run([...prefix, bin('initdb'), ...initArgs, '--no-sync'], {
		env,
		cwd: baseDir,
		timeoutMs: deadlineMs('serviceReady'),
	});
	if (init.code !== 0)
		throw new Error(`initdb failed (${init.code}):\n${init.stdout}\n${init.stderr}`);
	const port = await getFreePort();
	const settings = PG_SETTINGS.flatMap((setting) => ['-c', setting]);
	const command = [...prefix, bin('postgres'), '-D', dataDir, '-p', String(port), ...settings];
	// SIGINT is PostgreSQL's fast shutdown (SIGTERM would wait for every client to leave).
	const proc = superviseService('postgres', command, {
		env,
		cwd: baseDir,
		stopSignal: 'SIGINT',
		cleanupDir: baseDir,
	});
	track(proc);
	const at = ['-h', '127.0.0.1', '-p', String(port), '-U', DB];
	// pg_isready, not a TCP wait: the port opens before PostgreSQL accepts connections.
	const ready = async () =>
		(await run([bin('pg_isready'), '-q', ...at, '-d', 'postgres'])).code === 0;
	await waitUntil('postgres', ready, { timeoutMs: deadlineMs('serviceReady'), process: proc });
	const created = await run([bin('createdb'), ...at, DB]);
	if (created.code !== 0) throw new Error(`createdb failed (${created.code}): ${created.stderr}`);
	return { port, pid: await proc.childPid, database: DB, user: DB };
}

/**
 * The environment every n8n process of a stack shares, on top of n8nEnv's: queue mode on this
 * Redis and PostgreSQL, JSON logs (read by ./events.js), files only in filesDir.
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

module.exports = { startRedis, startPostgres, queueEnv, waitUntil };
