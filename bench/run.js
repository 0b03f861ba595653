'use strict';

// `npm run bench` (bench/run.sh -> node bench/run.js [options], listed in bench/options.js):
// packs the package, starts three reference services and one real n8n with the package installed
// and the benchmark workflows imported and active, runs the phases, stops everything (on success
// and on failure), keeps the results and writes BENCHMARKS.md from them (bench/report.js).

const fs = require('node:fs');
const path = require('node:path');

const n8n = require('../test/harness/n8n');
const { packageTarball, REPO_ROOT } = require('../test/harness/packageTarball');
const setup = require('./setup');
const { readOptions, USAGE } = require('./options');
const system = require('./system');
const { closeClients } = require('./client');
const { writeReport } = require('./report');
const { timePhase, scalePhase, scaleQuery } = require('./phases/time');
const { creditsPhase, keywordsPhase } = require('./phases/credits');
const { keywordScalePhase } = require('./phases/keylists');
const { quotaPhase } = require('./phases/quotas');
const { movingPhase } = require('./phases/moving');

const PHASES = {
	time: timePhase,
	scale: scalePhase,
	credits: creditsPhase,
	keywords: keywordsPhase,
	keylists: keywordScalePhase,
	quotas: quotaPhase,
	moving: movingPhase,
};
const PAGE_SIZE = 20;
const PAGES_QUERY = 'bench pages';
const log = (message) =>
	process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);

/** What is running, so that cleanup can stop it. @type {Record<string, any>} */
const resources = {};

/** Starts the services and n8n with every workflow active; returns the phases' context. */
async function start(options, deadline) {
	if (!options.tarball) log('building and packing the package');
	const tarball = options.tarball ?? packageTarball();
	log(`packed ${path.relative(REPO_ROOT, tarball)}`);
	await n8n.ensureN8nInstalled();
	await setup.startServices(resources);
	const { timing, billing, scale } = resources;
	log(`reference services: timing ${timing.url}, billing ${billing.url}, scale ${scale.url}`);
	const pages = { pagesQuery: PAGES_QUERY, pageSize: PAGE_SIZE };
	const { folder, workflows } = await setup.prepareN8nFolder(tarball, resources, pages);
	resources.folder = folder;
	const t0 = Date.now();
	const server = (resources.server = await n8n.startN8n(folder, {
		env: { N8N_LOG_LEVEL: 'warn' },
	}));
	const startSeconds = (Date.now() - t0) / 1000;
	log(`n8n ready at ${server.url} (pid ${server.pid}) in ${startSeconds.toFixed(1)} s`);
	const rest = await n8n.setupOwner(server.url);
	for (const wf of workflows) await n8n.activateWorkflow(rest, wf.id);
	log(`${workflows.length} workflows active`);
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
		timing,
		billing,
		scale,
		apiKey: setup.API_KEY,
		pages: options.pages,
		pageSize: PAGE_SIZE,
		pagesQuery: PAGES_QUERY,
		resetTiming,
		seen: new Set(),
	};
	return { ctx, startSeconds };
}

async function main() {
	const options = readOptions(process.argv.slice(2));
	if (options.help) return void process.stdout.write(USAGE);
	const machine = system.machine();
	log(`machine: ${machine.cores} cores, ${machine.cpuModel}; load ${system.loadavg().join(' ')}`);
	const quiet = await system.waitForQuiet(options.maxLoad, options.waitLoadSeconds, log);
	log(
		`load ${quiet.load.join(' ')}: ${quiet.quiet ? 'quiet' : 'busy, measuring anyway (recorded)'}`,
	);
	// The deadline and the wall time count from here, after the wait for a quiet machine.
	const runStart = Date.now();
	const hardStop = setTimeout(() => {
		log(`deadline of ${options.deadlineMs / 60000} min reached: stopping`);
		void shutdown(1);
	}, options.deadlineMs + 60_000);
	hardStop.unref();
	const { ctx, startSeconds } = await start(options, runStart + options.deadlineMs);
	const pid = ctx.n8nPid;
	const [versions, n8nMemoryAfterStart] = [setup.versions(pid), system.memory(pid)];
	const phases = {};
	for (const [name, phase] of Object.entries(PHASES))
		if (options.phases.has(name)) phases[name] = await phase(ctx);
	const results = {
		options: { ...options, phases: [...options.phases] },
		tarball: options.tarball ? path.basename(options.tarball) : null,
		machine,
		quiet,
		startSeconds,
		versions,
		n8nMemoryAfterStart,
		phases,
		loadAtEnd: system.loadavg(),
		wallSeconds: (Date.now() - runStart) / 1000,
		finishedAt: new Date().toISOString(),
	};
	await stopAll();
	// The raw results (gitignored) let `node bench/report.js` render the report again.
	fs.mkdirSync(path.dirname(options.raw), { recursive: true });
	fs.writeFileSync(options.raw, JSON.stringify(results));
	writeReport(options.out, results);
	log(`wrote ${path.relative(process.cwd(), options.out)} (${results.wallSeconds.toFixed(0)} s)`);
	clearTimeout(hardStop);
}

/** @type {Promise<void> | undefined} */
let stopping;
function stopAll() {
	stopping ??= (async () => {
		for (const key of ['server', 'timing', 'billing', 'scale']) {
			const running = resources[key];
			delete resources[key];
			if (running) await running.stop().catch((e) => log(`stopping ${key}: ${e}`));
		}
		if (resources.folder) n8n.removeN8nUserFolder(resources.folder);
		delete resources.folder;
		await closeClients();
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
]))
	process.on(signal, () => {
		log(`${signal}: stopping n8n and the reference services`);
		void shutdown(code);
	});

main().then(
	() => shutdown(0),
	async (error) => {
		log(`FAILED: ${error && error.stack ? error.stack : error}`);
		if (resources.server) log(`n8n log tail:\n${resources.server.logs().slice(-4000)}`);
		await shutdown(1);
	},
);
