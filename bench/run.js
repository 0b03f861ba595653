'use strict';

// `npm run bench` (bench/run.sh -> node bench/run.js [options]): the whole benchmark in one
// command. Packs the package, starts three reference services and one real n8n with the package
// installed and the benchmark workflows imported and activated, warms up, runs the interleaved
// timing rounds, the scale series, the credit matrix, the several-keywords case and the keyword
// lists at service scale, stops everything by pid (on success and on failure) and writes
// BENCHMARKS.md.
//
// Options:
//   --quick                 fewer rounds and sizes: a smoke test (a few minutes)
//   --rounds N              timing rounds (default 40; --quick 6)
//   --warmup N              warm-up rounds (default 5; --quick 2)
//   --out FILE              report path (default BENCHMARKS.md at the repo root)
//   --max-load X            wait for a 1-minute load average below X before starting (0.7)
//   --wait-load-seconds S   how long to wait for that at most (default 600; --quick 0)
//   --deadline-minutes M    hard bound on the whole run (default 40)
//   --max-foreign-cores X   other processes' CPU use above which the timing phase counts as
//                           disturbed (default 0.15 cores)
//   --busy-retries N        repeat a disturbed timing phase up to N times, after waiting for
//                           other processes to calm down; the least disturbed attempt is
//                           reported, the others are listed (default 2; --quick 0)
//   --phases LIST           run only these of time,scale,credits,keywords,keylists,memory,profile
//   --tarball FILE          benchmark this package tarball instead of packing the working tree

const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');
const { execFileSync } = require('node:child_process');

const n8n = require('../test/harness/n8n');
const { startReferenceService } = require('../test/harness/referenceService');
const { packageTarball, REPO_ROOT } = require('../test/harness/packageTarball');
const {
	buildWorkflows,
	credentialsFor,
	HTTP_REQUEST_VERSION,
	WEBHOOK_VERSION,
} = require('./workflows');
const { closeClients } = require('./client');
const system = require('./system');
const phases = require('./phases');
const { writeReport } = require('./report');
const { inspectorSession, profileScenarios, measureHeap } = require('./profile');
const { keywordScaleWorkflows, keywordScalePhase, SCALE_SERVICE } = require('./keywordScale');

const API_KEY = 'bench-key';
const PAGES = 100;
const PAGE_SIZE = 20;
const PAGES_QUERY = 'bench pages';

function log(message) {
	process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

function readOptions(argv) {
	const { values } = parseArgs({
		args: argv,
		options: {
			quick: { type: 'boolean', default: false },
			rounds: { type: 'string' },
			warmup: { type: 'string' },
			out: { type: 'string' },
			'max-load': { type: 'string', default: '0.7' },
			'wait-load-seconds': { type: 'string' },
			'deadline-minutes': { type: 'string', default: '40' },
			'busy-retries': { type: 'string' },
			'max-foreign-cores': { type: 'string', default: '0.15' },
			phases: { type: 'string', default: 'time,scale,credits,keywords,keylists,memory,profile' },
			tarball: { type: 'string' },
			help: { type: 'boolean', default: false },
		},
		strict: true,
	});
	const int = (v, d) => (v === undefined ? d : Math.max(0, Math.floor(Number(v))));
	const quick = values.quick;
	return {
		help: values.help,
		quick,
		rounds: Math.max(1, int(values.rounds, quick ? 6 : 40)),
		warmup: int(values.warmup, quick ? 2 : 5),
		scaleSizes: quick ? [1000, 10000] : [1000, 2000, 5000, 10000],
		scaleReps: quick ? 1 : 3,
		keywordRounds: quick ? 2 : 8,
		out: path.resolve(values.out ?? path.join(REPO_ROOT, 'BENCHMARKS.md')),
		maxLoad: Number(values['max-load']),
		waitLoadSeconds: int(values['wait-load-seconds'], quick ? 0 : 600),
		deadlineMs: Number(values['deadline-minutes']) * 60_000,
		busyRetries: int(values['busy-retries'], quick ? 0 : 2),
		maxForeignCores: Number(values['max-foreign-cores']),
		tarball: values.tarball ? path.resolve(values.tarball) : undefined,
		phases: new Set(values.phases.split(',').map((p) => p.trim())),
		argv,
	};
}

function versions(n8nPid) {
	const readJson = (file) => {
		try {
			return JSON.parse(fs.readFileSync(file, 'utf8'));
		} catch {
			return {};
		}
	};
	const hostModules = path.join(REPO_ROOT, '.cache', 'n8n-host', 'node_modules');
	let n8nNode = 'unknown';
	try {
		const exe = fs.readlinkSync(`/proc/${n8nPid}/exe`);
		n8nNode = execFileSync(exe, ['--version'], { encoding: 'utf8' }).trim();
	} catch {
		// leave unknown
	}
	const git = (args) => {
		try {
			return execFileSync('git', args, {
				cwd: REPO_ROOT,
				encoding: 'utf8',
				stdio: ['ignore', 'pipe', 'ignore'],
			}).trim();
		} catch {
			return '';
		}
	};
	// Only what goes into the package counts (the benchmark's own files do not change the package).
	const dirty = git([
		'status',
		'--porcelain',
		'--untracked-files=all',
		'--',
		'nodes',
		'credentials',
		'icons',
		'package.json',
		'tsconfig.json',
	]);
	return {
		package: readJson(path.join(REPO_ROOT, 'package.json')).version,
		commit: `${git(['rev-parse', '--short', 'HEAD']) || 'unknown'}${dirty ? ' (with uncommitted changes to the package sources)' : ''}`,
		n8n: readJson(path.join(hostModules, 'n8n', 'package.json')).version,
		n8nCore: readJson(path.join(hostModules, 'n8n-core', 'package.json')).version,
		n8nNodesBase: readJson(path.join(hostModules, 'n8n-nodes-base', 'package.json')).version,
		benchNode: process.version,
		n8nNode,
		undici: readJson(path.join(REPO_ROOT, 'node_modules', 'undici', 'package.json')).version,
		httpRequestVersion: HTTP_REQUEST_VERSION,
		webhookVersion: WEBHOOK_VERSION,
	};
}

/** Imports the credentials and all workflows (one CLI call each) into a fresh user folder. */
async function prepareN8nFolder(tarball, services) {
	const folder = await n8n.createN8nUserFolder({ packageTarball: tarball });
	const creds = {
		timing: credentialsFor({ serviceUrl: services.timing.url, apiKey: API_KEY, tag: 'timing' }),
		billing: credentialsFor({ serviceUrl: services.billing.url, apiKey: API_KEY, tag: 'billing' }),
		scale: credentialsFor({ serviceUrl: services.scale.url, apiKey: API_KEY, tag: 'scale' }),
	};
	await n8n.importCredentials(
		folder,
		Object.values(creds).flatMap((c) => [c.soundSearch, c.headerAuth]),
	);
	const base = buildWorkflows({
		timing: { serviceUrl: services.timing.url, creds: creds.timing },
		billing: { serviceUrl: services.billing.url, creds: creds.billing },
		pagesQuery: PAGES_QUERY,
		pagesPageSize: PAGE_SIZE,
	});
	const keylists = keywordScaleWorkflows({ serviceUrl: services.scale.url, creds: creds.scale });
	const workflows = [...base.workflows, ...keylists.workflows];
	const paths = { ...base.paths, ...keylists.paths };
	const dir = path.join(folder, 'bench-input');
	fs.mkdirSync(dir, { recursive: true });
	const file = path.join(dir, 'workflows.json');
	fs.writeFileSync(file, JSON.stringify(workflows, null, 2));
	const result = await n8n.n8nCli(folder, ['import:workflow', `--input=${file}`]);
	if (result.code !== 0) {
		throw new Error(
			`n8n import:workflow failed (${result.code}):\n${result.stdout.slice(-3000)}\n${result.stderr.slice(-2000)}`,
		);
	}
	return { folder, workflows, paths };
}

/** How the installed package's credential authenticates requests (for the report's explanation). */
function credentialAuthenticate(folder) {
	const file = path.join(
		folder,
		'.n8n',
		'nodes',
		'node_modules',
		'n8n-nodes-sound-search',
		'dist',
		'credentials',
		'SoundSearchApi.credentials.js',
	);
	try {
		const { SoundSearchApi } = require(file);
		const auth = new SoundSearchApi().authenticate;
		if (typeof auth === 'function') return { kind: 'function' };
		return { kind: auth?.type ?? 'none', properties: auth?.properties ?? null };
	} catch (error) {
		return { kind: 'unknown', error: String(error) };
	}
}

/** Activates (publishes) every workflow through the REST API, as the editor's toggle does. */
async function activateAll(rest, workflows) {
	for (const wf of workflows) {
		const got = await rest('GET', `/rest/workflows/${wf.id}`);
		const versionId = got.body?.data?.versionId;
		if (got.status !== 200 || !versionId)
			throw new Error(
				`GET /rest/workflows/${wf.id}: ${got.status} ${JSON.stringify(got.body).slice(0, 500)}`,
			);
		const activated = await rest('POST', `/rest/workflows/${wf.id}/activate`, { versionId });
		if (activated.status !== 200) {
			throw new Error(
				`activating ${wf.name}: ${activated.status} ${JSON.stringify(activated.body).slice(0, 1000)}`,
			);
		}
	}
}

async function main() {
	const options = readOptions(process.argv.slice(2));
	if (options.help) {
		const header = fs.readFileSync(__filename, 'utf8').split('\n').slice(2);
		const comment = header.slice(
			0,
			header.findIndex((line) => !line.startsWith('//')),
		);
		process.stdout.write(`${comment.map((line) => line.replace(/^\/\/ ?/, '')).join('\n')}\n`);
		return;
	}
	const started = Date.now();
	const machine = system.machine();
	log(
		`machine: ${machine.cores} cores, ${machine.cpuModel}, ${machine.memoryGiB.toFixed(1)} GiB; load ${system.loadavg().join(' ')}`,
	);
	const quiet = await system.waitForQuiet(options.maxLoad, options.waitLoadSeconds, log);
	log(
		quiet.quiet
			? `load ${quiet.load.join(' ')}: quiet enough`
			: `load ${quiet.load.join(' ')}: machine busy, measuring anyway (recorded)`,
	);

	// The deadline and the run's wall time count from here (after the wait for a quiet machine).
	const runStart = Date.now();
	const deadline = runStart + options.deadlineMs;
	// Hard bound: whatever hangs, the run ends (cleanup runs on the way out).
	const hardStop = setTimeout(() => {
		log(`deadline of ${options.deadlineMs / 60000} min reached: stopping`);
		void shutdown(1);
	}, options.deadlineMs + 60_000);
	hardStop.unref();

	if (!options.tarball) log('building and packing the package');
	const tarball = options.tarball ?? packageTarball();
	log(`packed ${path.relative(REPO_ROOT, tarball)}`);
	await n8n.ensureN8nInstalled();

	// Two reference services: timing (cache off: every page is a fresh, charged reading for every
	// variant, so no variant gets cache hits the others made) and billing (the default 60 s cache).
	resources.timing = await startReferenceService({
		keys: [API_KEY],
		cacheSeconds: 0,
		maxPageSize: 50,
		defaultPageSize: 20,
	});
	resources.billing = await startReferenceService({
		keys: [API_KEY],
		cacheSeconds: 60,
		maxPageSize: 50,
		defaultPageSize: 20,
	});
	// The third (keyword lists at service scale): cache off, 150 ms per answer, capped per run.
	resources.scale = await startReferenceService({ keys: [API_KEY], ...SCALE_SERVICE });
	log(
		`reference services: ${['timing', 'billing', 'scale'].map((k) => `${k} ${resources[k].url} (pid ${resources[k].pid})`).join(', ')}`,
	);

	log(
		'creating the n8n user folder: package installed from the tarball, credentials and workflows imported',
	);
	const prepared = await prepareN8nFolder(tarball, resources);
	resources.folder = prepared.folder;
	log('starting n8n');
	const tStart = Date.now();
	// --inspect-port only chooses the port: the inspector stays closed unless the profile step
	// opens it (SIGUSR1), after the timed phases.
	const inspectPort = await n8n.getFreePort();
	resources.server = await n8n.startN8n(prepared.folder, {
		env: { N8N_LOG_LEVEL: 'warn', NODE_OPTIONS: `--inspect-port=127.0.0.1:${inspectPort}` },
	});
	const server = resources.server;
	const startSeconds = (Date.now() - tStart) / 1000;
	log(`n8n ready at ${server.url} (pid ${server.pid}) in ${startSeconds.toFixed(1)} s`);
	const rest = await n8n.setupOwner(server.url);
	await activateAll(rest, prepared.workflows);
	log(`${prepared.workflows.length} workflows active`);

	const ctx = {
		options,
		log,
		deadline,
		n8nPid: server.pid,
		n8nUrl: server.url,
		inspectPort,
		paths: prepared.paths,
		timing: resources.timing,
		billing: resources.billing,
		scale: resources.scale,
		folder: prepared.folder,
		apiKey: API_KEY,
		pages: PAGES,
		pageSize: PAGE_SIZE,
		pagesQuery: PAGES_QUERY,
	};
	const results = {
		credentialAuthenticate: credentialAuthenticate(prepared.folder),
		options: { ...options, phases: [...options.phases] },
		tarball: options.tarball ? path.basename(options.tarball) : null,
		machine,
		quiet,
		startSeconds,
		versions: versions(server.pid),
		phases: {},
	};
	results.n8nMemoryAfterStart = system.memory(server.pid);
	await phases.prepareServices(ctx);
	const want = options.phases;
	if (want.has('time')) results.phases.time = await timeWithRetries(ctx, options);
	if (want.has('scale')) results.phases.scale = await phases.scalePhase(ctx);
	if (want.has('credits')) results.phases.credits = await phases.creditsPhase(ctx);
	if (want.has('keywords')) results.phases.keywords = await phases.keywordsPhase(ctx);
	if (want.has('keylists')) results.phases.keylists = await keywordScalePhase(ctx);
	if (want.has('memory') || want.has('profile')) {
		// After the timed phases: the inspector is opened only now (see --inspect-port above).
		const session = await inspectorSession({ pid: server.pid, port: inspectPort });
		try {
			if (want.has('memory'))
				results.phases.memory = await phases.memoryPhase(ctx, session, measureHeap);
			if (want.has('profile'))
				results.phases.profile = await phases.profilePhase(ctx, session, profileScenarios);
		} finally {
			session.close();
		}
	}
	results.n8nMemoryAtEnd = system.memory(server.pid);
	results.loadAtEnd = system.loadavg();
	results.wallSeconds = (Date.now() - runStart) / 1000;
	results.totalSeconds = (Date.now() - started) / 1000;
	results.finishedAt = new Date().toISOString();

	const stopped = await stopAll();
	results.stopped = stopped;
	saveRaw(results);
	writeReport(options.out, results);
	log(
		`wrote ${path.relative(process.cwd(), options.out) || options.out} (${results.wallSeconds.toFixed(0)} s)`,
	);
	clearTimeout(hardStop);
}

/**
 * The timing phase, repeated (bounded) when other processes disturbed it: before each attempt,
 * a bounded wait for other processes' CPU use to fall below the threshold.
 */
async function timeWithRetries(ctx, options) {
	const attempts = [];
	let best;
	for (let attempt = 1; attempt <= 1 + options.busyRetries; attempt++) {
		const before = options.quick
			? null
			: await system.waitForQuietCpu(options.maxForeignCores, 300, log);
		const t = await phases.timePhase(ctx);
		t.attempt = attempt;
		t.quietBefore = before;
		attempts.push(t);
		if (!best || t.cpu.foreignCores < best.cpu.foreignCores) best = t;
		if (t.cpu.foreignCores < options.maxForeignCores) break;
		log(
			`time: attempt ${attempt} disturbed (other processes used ${t.cpu.foreignCores.toFixed(2)} cores)`,
		);
	}
	best.attempts = attempts.map((t) => ({
		attempt: t.attempt,
		foreignCores: t.cpu.foreignCores,
		runs: t.attempt === best.attempt ? undefined : t.runs,
	}));
	return best;
}

/** Keeps the raw results of the last run (gitignored) so the report can be re-rendered. */
function saveRaw(results) {
	const dir = path.join(REPO_ROOT, '.cache', 'bench');
	fs.mkdirSync(dir, { recursive: true });
	fs.writeFileSync(path.join(dir, 'last-results.json'), JSON.stringify(results));
}

/** What is running, so that cleanup can stop it by pid. */
const resources = {
	/** @type {any} */ timing: undefined,
	/** @type {any} */ billing: undefined,
	/** @type {any} */ scale: undefined,
	/** @type {any} */ server: undefined,
	/** @type {string | undefined} */ folder: undefined,
};

let stopping;
function stopAll() {
	stopping ??= (async () => {
		const out = {};
		if (resources.server) {
			out.n8n = await resources.server.stop().catch((e) => ({ error: String(e) }));
			resources.server = undefined;
		}
		for (const key of ['timing', 'billing', 'scale']) {
			if (resources[key]) {
				out[key] = await resources[key].stop().catch((e) => ({ error: String(e) }));
				resources[key] = undefined;
			}
		}
		if (resources.folder) {
			n8n.removeN8nUserFolder(resources.folder);
			resources.folder = undefined;
		}
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

process.on('SIGINT', () => {
	log('interrupted: stopping n8n and the reference services');
	void shutdown(130);
});
process.on('SIGTERM', () => {
	log('terminated: stopping n8n and the reference services');
	void shutdown(143);
});

main().then(
	() => shutdown(0),
	async (error) => {
		log(`FAILED: ${error && error.stack ? error.stack : error}`);
		if (resources.server) log(`n8n log tail:\n${resources.server.logs().slice(-4000)}`);
		await shutdown(1);
	},
);
