'use strict';

// `node test/harness/queue/cli.js up [--workers N] [--minutes M] [--smoke]`, what `bash
// scripts/queue-env.sh up` runs: the stack (./stack.js) with the examples imported, inactive;
// prints how to reach it and stays up until Ctrl-C, SIGTERM or M minutes (default 60), then tears
// everything down by pid. --smoke tears down as soon as everything is up (exit 0).

const { packageTarball } = require('../packageTarball');
const { readExampleWorkflows } = require('../stack/demo');
const { startQueueStack } = require('./stack');

const log = (/** @type {string} */ line) => console.log(`[queue-env] ${line}`);
const argv = process.argv.slice(2);
const flag = (/** @type {string} */ name, fallback = 0) =>
	argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : fallback;
const [workers, minutes] = [flag('--workers', 2), flag('--minutes', 60)];
/** @type {Awaited<ReturnType<typeof startQueueStack>> | undefined} */
let stack;

async function shutdown(/** @type {string} */ why, code = 0) {
	log(`${why}: tearing down`);
	await stack?.stop();
	log('stopped');
	process.exit(code);
}

async function up() {
	if (argv[0] !== 'up' || !(workers >= 1 && minutes >= 1))
		throw new Error(
			'usage: node test/harness/queue/cli.js up [--workers N] [--minutes M] [--smoke]',
		);
	process.once('SIGINT', () => void shutdown('SIGINT'));
	process.once('SIGTERM', () => void shutdown('SIGTERM'));
	log(`packing the package and starting Redis, PostgreSQL, n8n main and ${workers} workers ...`);
	stack = await startQueueStack({ packageTarball: packageTarball(), workers, log });
	for (const { workflow } of readExampleWorkflows().workflows) await stack.createWorkflow(workflow);
	const { service: s, redis, postgres: pg, main, rest } = stack;
	log(`reference service: ${s.url} (API key ${s.keys[0]}; ledger: ${s.url}/__sandbox/ledger)`);
	log(`Redis 127.0.0.1:${redis?.port} (pid ${redis?.pid})`);
	log(
		`PostgreSQL 127.0.0.1:${pg?.port} database ${pg?.database} user ${pg?.user} (pid ${pg?.pid})`,
	);
	log(
		`n8n main: ${main?.url} (pid ${main?.pid}); owner ${rest.owner.email} / ${rest.owner.password}`,
	);
	for (const w of stack.workers) log(`${w.name}: pid ${w.pid}, health ${w.url}/healthz/readiness`);
	log('the examples imported, inactive, on the credential "Sound Search account"');
	if (argv.includes('--smoke')) return shutdown('--smoke: everything is up');
	log(`up for at most ${minutes} min; Ctrl-C to stop`);
	setTimeout(() => void shutdown(`${minutes} min passed`), minutes * 60_000);
}

up().catch((error) => {
	console.error(error);
	return shutdown('the start failed', 1);
});
