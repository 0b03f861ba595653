'use strict';

// What the benchmark measures, set up: the reference services, the n8n user folder with the
// package, credentials and workflows, and the versions for the report.

const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const n8n = require('../test/harness/n8n');
const { startReferenceService } = require('../test/harness/referenceService');
const { REPO_ROOT } = require('../test/harness/packageTarball');
const W = require('./workflows');

const API_KEY = 'bench-key';
const SERVICES = ['timing', 'billing', 'scale'];
/** How the scale service starts; its reset() comes back to this. */
const SCALE_SERVICE = { cacheSeconds: 0, latencyMs: W.KEYLISTS.LATENCY_MS };

/**
 * The three reference services, each stored in `into` as soon as it runs (for cleanup): timing
 * (cache off: every page a fresh reading for every variant), billing (the default 60 s cache),
 * scale (keyword lists: cache off, 150 ms an answer, one more API key per slot).
 */
async function startServices(into) {
	const pages = { keys: [API_KEY], maxPageSize: 50, defaultPageSize: 20 };
	into.timing = await startReferenceService({ ...pages, cacheSeconds: 0 });
	into.billing = await startReferenceService({ ...pages, cacheSeconds: 60 });
	const keys = [API_KEY, ...W.SLOTS.map(W.keyOf)];
	into.scale = await startReferenceService({ keys, ...SCALE_SERVICE });
}

/** A fresh user folder with the package, the credentials and all workflows imported. */
async function prepareN8nFolder(tarball, services, pages) {
	const folder = await n8n.createN8nUserFolder({ packageTarball: tarball });
	const pair = (tag, service, apiKey = API_KEY) =>
		W.credentialsFor({ serviceUrl: services[service].url, apiKey, tag });
	const creds = Object.fromEntries(SERVICES.map((tag) => [tag, pair(tag, tag)]));
	const slots = Object.fromEntries(
		W.SLOTS.map((s) => [s, pair(`scale ${s}`, 'scale', W.keyOf(s))]),
	);
	const pairs = [...Object.values(creds), ...Object.values(slots)];
	await n8n.importCredentials(
		folder,
		pairs.flatMap((c) => [c.soundSearch, c.headerAuth]),
	);
	const urls = Object.fromEntries(SERVICES.map((tag) => [tag, services[tag].url]));
	const all = W.buildWorkflows({ ...urls, creds: { ...creds, slots }, ...pages });
	await n8n.importFile(folder, 'workflow', all, { throwOnFailure: true });
	return { folder, workflows: all };
}

/** The output of a command, or '' when it fails. */
function run(cmd, args) {
	try {
		const stdio = /** @type {any} */ (['ignore', 'pipe', 'ignore']);
		return execFileSync(cmd, args, { cwd: REPO_ROOT, encoding: 'utf8', stdio }).trim();
	} catch {
		return '';
	}
}
const versionOf = (dir) => {
	try {
		return JSON.parse(fs.readFileSync(path.join(REPO_ROOT, dir, 'package.json'), 'utf8')).version;
	} catch {
		return undefined;
	}
};

/** Versions of everything measured, for the report. */
function versions(n8nPid) {
	const host = (pkg) => versionOf(`.cache/n8n-host/node_modules/${pkg}`);
	const n8nNodeExe = run('readlink', [`/proc/${n8nPid}/exe`]);
	// Only what goes into the package counts (the benchmark's own files do not change it).
	const sources = ['nodes', 'credentials', 'icons', 'package.json', 'tsconfig.json'];
	const dirty = run('git', ['status', '--porcelain', '--untracked-files=all', '--', ...sources]);
	const commit = run('git', ['rev-parse', '--short', 'HEAD']) || 'unknown';
	return {
		package: versionOf('.'),
		commit: `${commit}${dirty ? ' (with uncommitted changes to the package sources)' : ''}`,
		n8n: host('n8n'),
		n8nCore: host('n8n-core'),
		n8nNodesBase: host('n8n-nodes-base'),
		benchNode: process.version,
		n8nNode: (n8nNodeExe && run(n8nNodeExe, ['--version'])) || 'unknown',
		undici: versionOf('node_modules/undici'),
		httpRequestVersion: W.HTTP_REQUEST_VERSION,
		webhookVersion: W.WEBHOOK_VERSION,
	};
}

module.exports = { API_KEY, startServices, prepareN8nFolder, versions };
