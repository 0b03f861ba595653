'use strict';

// `node test/harness/queue/cli.js up [--workers N] [--minutes M] [--smoke]`, what `bash
// scripts/queue-env.sh up` runs: the reference service, the stack with the demo credential (id
// soundSearchDemo) and the examples imported, the owner created; prints how to reach it and stays
// up until Ctrl-C, SIGTERM or M minutes (default 60), then tears everything down. --smoke tears
// down as soon as everything is up (exit 0): a check that the command works.

const fs = require('node:fs');
const path = require('node:path');
const { packageTarball, REPO_ROOT } = require('../packageTarball');
const { startQueueStack } = require('./stack');

const log = (/** @type {string} */ line) => console.log(`[queue-env] ${line}`);

/** The workflows of examples/ (n8n gives each an id). */
function examples() {
	const dir = path.join(REPO_ROOT, 'examples');
	const files = fs.readdirSync(dir).filter((file) => file.endsWith('.json'));
	return files.flatMap((file) => JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')));
}

/** @param {string[]} argv */
function flags(argv) {
	if (argv[0] !== 'up')
		throw new Error(
			'usage: node test/harness/queue/cli.js up [--workers N] [--minutes M] [--smoke]',
		);
	const number = (/** @type {string} */ flag, /** @type {number} */ fallback) => {
		const index = argv.indexOf(flag);
		const value = index >= 0 ? Number(argv[index + 1]) : fallback;
		if (!Number.isInteger(value) || value < 1)
			throw new Error(`${flag} must be a positive integer`);
		return value;
	};
	return {
		workers: number('--workers', 2),
		minutes: number('--minutes', 60),
		smoke: argv.includes('--smoke'),
	};
}

/** @param {import('./stack').QueueStack} stack */
function printAddresses(stack) {
	const { redis, postgres, main, rest } = stack;
	const serviceUrl = stack.service.url;
	log(
		`reference service: ${serviceUrl} (API key sandbox-key; ledger: ${serviceUrl}/__sandbox/ledger)`,
	);
	log(
		`Redis 127.0.0.1:${redis?.port} (pid ${redis?.pid}), PostgreSQL 127.0.0.1:${postgres?.port} database ${postgres?.database} user ${postgres?.user} (pid ${postgres?.pid})`,
	);
	log(
		`n8n main: ${main?.url} (pid ${main?.pid}); owner ${rest?.owner.email} / ${rest?.owner.password}`,
	);
	for (const w of stack.workers)
		log(`${w.name}: pid ${w.pid}, health ${w.url}/healthz/readiness, host name ${w.hostName}`);
}

async function up() {
	const { workers, minutes, smoke } = flags(process.argv.slice(2));
	/** @type {import('./stack').QueueStack | undefined} */
	let stack;
	const shutdown = async (/** @type {string} */ why, code = 0) => {
		log(`${why}: tearing down`);
		await stack?.stop();
		log('stopped');
		process.exit(code);
	};
	process.once('SIGINT', () => void shutdown('SIGINT'));
	process.once('SIGTERM', () => void shutdown('SIGTERM'));
	log(`packing the package and starting Redis, PostgreSQL, n8n main and ${workers} workers ...`);
	const workflows = examples();
	const credential = {
		id: 'soundSearchDemo',
		name: 'Sound Search account',
		type: 'soundSearchApi',
	};
	try {
		stack = await startQueueStack({
			packageTarball: packageTarball(),
			service: {},
			workers,
			credentials: [credential],
			workflows,
			log,
		});
	} catch (error) {
		console.error(error);
		return shutdown('the start failed', 1);
	}
	printAddresses(stack);
	log(`examples imported (inactive): ${workflows.map((w) => w.name).join('; ') || 'none'}`);
	if (smoke) return shutdown('--smoke: everything is up');
	log(`up for at most ${minutes} min; Ctrl-C to stop`);
	setTimeout(() => void shutdown(`${minutes} min passed`), minutes * 60_000);
}

up().catch((error) => {
	console.error(error);
	process.exit(1);
});
