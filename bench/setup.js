'use strict';

// Setting up what the benchmark measures: the reference services, the n8n user folder with the
// package, credentials and workflows, their activation, and the versions for the report.

const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const n8n = require('../test/harness/n8n');
const { startReferenceService } = require('../test/harness/referenceService');
const { REPO_ROOT } = require('../test/harness/packageTarball');
const {
	buildWorkflows,
	credentialsFor,
	HTTP_REQUEST_VERSION,
	WEBHOOK_VERSION,
} = require('./workflows');
const { SCALE_SERVICE } = require('./phases/keylists');

const API_KEY = 'bench-key';

/**
 * The three reference services: timing (cache off: every page is a fresh, charged reading for
 * every variant, so no variant gets cache hits the others made), billing (the default 60 s
 * cache), scale (keyword lists: cache off, 150 ms per answer). Each is stored in `into` as soon
 * as it runs, so that cleanup finds it.
 */
async function startServices(into) {
	const pages = { maxPageSize: 50, defaultPageSize: 20 };
	into.timing = await startReferenceService({ keys: [API_KEY], cacheSeconds: 0, ...pages });
	into.billing = await startReferenceService({ keys: [API_KEY], cacheSeconds: 60, ...pages });
	into.scale = await startReferenceService({ keys: [API_KEY], ...SCALE_SERVICE });
}

/** Imports the credentials and all workflows (one CLI call each) into a fresh user folder. */
async function prepareN8nFolder(tarball, services, pages) {
	const folder = await n8n.createN8nUserFolder({ packageTarball: tarball });
	const tags = ['timing', 'billing', 'scale'];
	const creds = Object.fromEntries(
		tags.map((tag) => [
			tag,
			credentialsFor({ serviceUrl: services[tag].url, apiKey: API_KEY, tag }),
		]),
	);
	await n8n.importCredentials(
		folder,
		Object.values(creds).flatMap((c) => [c.soundSearch, c.headerAuth]),
	);
	/** @type {any} */
	const urls = Object.fromEntries(tags.map((tag) => [tag, services[tag].url]));
	const { workflows, paths } = buildWorkflows({
		...urls,
		creds,
		pagesQuery: pages.pagesQuery,
		pagesPageSize: pages.pageSize,
	});
	await n8n.importFile(folder, 'workflow', workflows, { throwOnFailure: true });
	return { folder, workflows, paths };
}

/** Activates (publishes) every workflow through the REST API, as the editor's toggle does. */
async function activateAll(rest, workflows) {
	for (const wf of workflows) await n8n.activateWorkflow(rest, wf.id);
}

/** How the installed package's credential authenticates requests (for the report's explanation). */
function credentialAuthenticate(folder) {
	const dist = path.join(folder, '.n8n/nodes/node_modules/n8n-nodes-sound-search/dist');
	try {
		const { SoundSearchApi } = require(
			path.join(dist, 'credentials/SoundSearchApi.credentials.js'),
		);
		const auth = new SoundSearchApi().authenticate;
		if (typeof auth === 'function') return { kind: 'function' };
		return { kind: auth?.type ?? 'none', properties: auth?.properties ?? null };
	} catch (error) {
		return { kind: 'unknown', error: String(error) };
	}
}

const readJson = (file) => {
	try {
		return JSON.parse(fs.readFileSync(file, 'utf8'));
	} catch {
		return {};
	}
};
const run = (cmd, args) => {
	try {
		return execFileSync(cmd, args, {
			cwd: REPO_ROOT,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'ignore'],
		}).trim();
	} catch {
		return '';
	}
};

/** Versions of everything measured, for the report. */
function versions(n8nPid) {
	const host = (pkg) =>
		readJson(path.join(REPO_ROOT, '.cache/n8n-host/node_modules', pkg, 'package.json')).version;
	let n8nNode = 'unknown';
	try {
		n8nNode = run(fs.readlinkSync(`/proc/${n8nPid}/exe`), ['--version']) || 'unknown';
	} catch {
		// leave unknown
	}
	// Only what goes into the package counts (the benchmark's own files do not change the package).
	const sources = ['nodes', 'credentials', 'icons', 'package.json', 'tsconfig.json'];
	const dirty = run('git', ['status', '--porcelain', '--untracked-files=all', '--', ...sources]);
	const commit = run('git', ['rev-parse', '--short', 'HEAD']) || 'unknown';
	return {
		package: readJson(path.join(REPO_ROOT, 'package.json')).version,
		commit: `${commit}${dirty ? ' (with uncommitted changes to the package sources)' : ''}`,
		n8n: host('n8n'),
		n8nCore: host('n8n-core'),
		n8nNodesBase: host('n8n-nodes-base'),
		benchNode: process.version,
		n8nNode,
		undici: readJson(path.join(REPO_ROOT, 'node_modules/undici/package.json')).version,
		httpRequestVersion: HTTP_REQUEST_VERSION,
		webhookVersion: WEBHOOK_VERSION,
	};
}

module.exports = {
	API_KEY,
	startServices,
	prepareN8nFolder,
	activateAll,
	credentialAuthenticate,
	versions,
};
