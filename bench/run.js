'use strict';

// `npm run bench` (bench/run.sh -> node bench/run.js [options]): the whole benchmark in one
// command. Packs the package, starts three reference services and one real n8n with the package
// installed and the benchmark workflows imported and activated, warms up, runs the interleaved
// timing rounds, the scale series, the credit matrix, the several-keywords case and the keyword
// lists at service scale, stops everything by pid (on success and on failure) and writes
// BENCHMARKS.md.
//
// Options:
//   --smoke                 every phase at a tiny size (about a minute): checks that the benchmark
//                           runs; writes .cache/bench/smoke.md, not BENCHMARKS.md; exits non-zero
//                           if a phase fails
//   --rounds N              timing rounds (default 40)
//   --warmup N              warm-up rounds (default 5)
//   --out FILE              report path (default BENCHMARKS.md at the repo root)
//   --max-load X            wait for a 1-minute load average below X before starting (0.7)
//   --wait-load-seconds S   how long to wait for that at most (default 600; --smoke 0)
//   --deadline-minutes M    hard bound on the whole run (default 40)
//   --max-foreign-cores X   other processes' CPU use above which the timing phase counts as
//                           disturbed (default 0.15 cores)
//   --busy-retries N        repeat a disturbed timing phase up to N times, after waiting for
//                           other processes to calm down; the least disturbed attempt is
//                           reported, the others are listed (default 2; --smoke 0)
//   --phases LIST           run only these of time,scale,credits,keywords,keylists,memory,profile
//   --tarball FILE          benchmark this package tarball instead of packing the working tree

const fs = require('node:fs');
const path = require('node:path');

const n8n = require('../test/harness/n8n');
const { packageTarball, REPO_ROOT } = require('../test/harness/packageTarball');
const setup = require('./setup');
const { readOptions, CACHE } = require('./options');
const { closeClients } = require('./client');
const system = require('./system');
const { writeReport } = require('./report');
const { inspectorSession } = require('./inspector');
const { timeWithRetries } = require('./phases/time');
const { scalePhase, scaleQuery } = require('./phases/scale');
const { creditsPhase } = require('./phases/credits');
const { keywordsPhase } = require('./phases/keywords');
const { keywordScalePhase } = require('./phases/keylists');
const { memoryPhase, profilePhase } = require('./phases/inspected');

const PAGE_SIZE = 20;
const PAGES_QUERY = 'bench pages';

const log = (message) =>
	process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);

/** What is running, so that cleanup can stop it by pid. @type {Record<string, any>} */
const resources = {};

/** Starts the services and n8n with every workflow active; returns the phases' context. */
async function start(options, deadline) {
	if (!options.tarball) log('building and packing the package');
	const tarball = options.tarball ?? packageTarball();
	log(`packed ${path.relative(REPO_ROOT, tarball)}`);
	await n8n.ensureN8nInstalled();
	await setup.startServices(resources);
	log(
		`reference services: ${['timing', 'billing', 'scale'].map((k) => `${k} ${resources[k].url} (pid ${resources[k].pid})`).join(', ')}`,
	);
	log(
		'creating the n8n user folder: package installed from the tarball, credentials and workflows imported',
	);
	const prepared = await setup.prepareN8nFolder(tarball, resources, {
		pagesQuery: PAGES_QUERY,
		pageSize: PAGE_SIZE,
	});
	resources.folder = prepared.folder;
	log('starting n8n');
	const t0 = Date.now();
	// --inspect-port only chooses the port: the inspector stays closed unless the profile step
	// opens it (SIGUSR1), after the timed phases.
	const inspectPort = await n8n.getFreePort();
	const env = { N8N_LOG_LEVEL: 'warn', NODE_OPTIONS: `--inspect-port=127.0.0.1:${inspectPort}` };
	const server = (resources.server = await n8n.startN8n(prepared.folder, { env }));
	const startSeconds = (Date.now() - t0) / 1000;
	log(`n8n ready at ${server.url} (pid ${server.pid}) in ${startSeconds.toFixed(1)} s`);
	await setup.activateAll(await n8n.setupOwner(server.url), prepared.workflows);
	log(`${prepared.workflows.length} workflows active`);
	const { timing, billing, scale } = resources;
	const overrides = [
		{ query: PAGES_QUERY, total: options.pages * PAGE_SIZE },
		...options.scaleSizes.map((size) => ({ query: scaleQuery(size), total: size })),
	];
	const resetTiming = async () => {
		await timing.reset(); // which also clears the catalogue overrides: set them again
		for (const o of overrides) await timing.setCatalogue(o);
	};
	await resetTiming();
	const ctx = {
		options,
		log,
		deadline,
		n8nPid: server.pid,
		n8nUrl: server.url,
		inspectPort,
		paths: prepared.paths,
		timing,
		billing,
		scale,
		folder: prepared.folder,
		apiKey: setup.API_KEY,
		pages: options.pages,
		pageSize: PAGE_SIZE,
		pagesQuery: PAGES_QUERY,
		resetTiming,
	};
	return { ctx, startSeconds };
}

/** Runs the chosen phases in order; the inspector is opened only after the timed ones. */
async function runPhases(ctx) {
	const want = ctx.options.phases;
	/** @type {Record<string, any>} */
	const out = {};
	const timed = {
		time: timeWithRetries,
		scale: scalePhase,
		credits: creditsPhase,
		keywords: keywordsPhase,
		keylists: keywordScalePhase,
	};
	for (const [name, phase] of Object.entries(timed))
		if (want.has(name)) out[name] = await phase(ctx);
	if (!want.has('memory') && !want.has('profile')) return out;
	const session = await inspectorSession({ pid: ctx.n8nPid, port: ctx.inspectPort });
	try {
		if (want.has('memory')) out.memory = await memoryPhase(ctx, session);
		if (want.has('profile')) out.profile = await profilePhase(ctx, session);
	} finally {
		session.close();
	}
	return out;
}

async function main() {
	const options = readOptions(process.argv.slice(2));
	if (options.help) {
		const lines = fs.readFileSync(__filename, 'utf8').split('\n').slice(2);
		const comment = lines.slice(
			0,
			lines.findIndex((line) => !line.startsWith('//')),
		);
		return void process.stdout.write(
			`${comment.map((l) => l.replace(/^\/\/ ?/, '')).join('\n')}\n`,
		);
	}
	const started = Date.now();
	const machine = system.machine();
	log(
		`machine: ${machine.cores} cores, ${machine.cpuModel}, ${machine.memoryGiB.toFixed(1)} GiB; load ${system.loadavg().join(' ')}`,
	);
	const quiet = await system.waitForQuiet(options.maxLoad, options.waitLoadSeconds, log);
	log(
		`load ${quiet.load.join(' ')}: ${quiet.quiet ? 'quiet enough' : 'machine busy, measuring anyway (recorded)'}`,
	);
	// The deadline and the run's wall time count from here (after the wait for a quiet machine).
	const runStart = Date.now();
	// Hard bound: whatever hangs, the run ends (cleanup runs on the way out).
	const hardStop = setTimeout(() => {
		log(`deadline of ${options.deadlineMs / 60000} min reached: stopping`);
		void shutdown(1);
	}, options.deadlineMs + 60_000);
	hardStop.unref();
	const { ctx, startSeconds } = await start(options, runStart + options.deadlineMs);
	const pid = ctx.n8nPid;
	const results = {
		credentialAuthenticate: setup.credentialAuthenticate(ctx.folder),
		options: { ...options, phases: [...options.phases] },
		tarball: options.tarball ? path.basename(options.tarball) : null,
		machine,
		quiet,
		startSeconds,
		versions: setup.versions(pid),
		n8nMemoryAfterStart: system.memory(pid),
		phases: await runPhases(ctx),
		n8nMemoryAtEnd: system.memory(pid),
		loadAtEnd: system.loadavg(),
		wallSeconds: (Date.now() - runStart) / 1000,
		totalSeconds: (Date.now() - started) / 1000,
		finishedAt: new Date().toISOString(),
		stopped: await stopAll(),
	};
	// The raw results (gitignored) let `node bench/report.js` render the report again.
	fs.mkdirSync(CACHE, { recursive: true });
	fs.writeFileSync(options.raw, JSON.stringify(results));
	writeReport(options.out, results);
	log(
		`wrote ${path.relative(process.cwd(), options.out) || options.out} (${results.wallSeconds.toFixed(0)} s)`,
	);
	clearTimeout(hardStop);
}

/** @type {Promise<Record<string, unknown>> | undefined} */
let stopping;
function stopAll() {
	stopping ??= (async () => {
		/** @type {Record<string, unknown>} */
		const out = {};
		for (const [key, name] of [['server', 'n8n'], ['timing'], ['billing'], ['scale']]) {
			const running = resources[key];
			delete resources[key];
			if (running) out[name ?? key] = await running.stop().catch((e) => ({ error: String(e) }));
		}
		if (resources.folder) n8n.removeN8nUserFolder(resources.folder);
		delete resources.folder;
		await closeClients();
		return out;
	})();
	return stopping;
}

async function shutdown(code) {
	try {
		await stopAll();
	} finally {
		process.exit(code);
	}
}

for (const [signal, code] of /** @type {const} */ ([
	['SIGINT', 130],
	['SIGTERM', 143],
])) {
	process.on(signal, () => {
		log(`${signal}: stopping n8n and the reference services`);
		void shutdown(code);
	});
}

main().then(
	() => shutdown(0),
	async (error) => {
		log(`FAILED: ${error && error.stack ? error.stack : error}`);
		if (resources.server) log(`n8n log tail:\n${resources.server.logs().slice(-4000)}`);
		await shutdown(1);
	},
);
