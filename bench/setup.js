'use strict';

// What the benchmark measures, set up: the reference services, the n8n user folder with the
// package, credentials and workflows, and the versions for the report.

const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const n8n = require('../test/harness/n8n');
const { startReferenceService } = require('../test/harness/referenceService');
const { REPO_ROOT } = require('../test/harness/packageTarball');
const workflows = require('./workflows');
const { SCALE_SERVICE } = require('./phases/keylists');
const { keyOf } = require('./contacts');

const API_KEY = 'bench-key';
const SERVICES = ['timing', 'billing', 'scale'];

/**
 * The three reference services: timing (cache off: every page a fresh, charged reading for every
 * variant, so that no variant gets cache hits another made), billing (the default 60 s cache),
 * scale (keyword lists: cache off, 150 ms per answer; besides the benchmark's key, one key per slot
 * of contacts.js). Each is stored in `into` as soon as it
 * runs, so that cleanup finds it.
 */
async function startServices(into) {
	const pages = { keys: [API_KEY], maxPageSize: 50, defaultPageSize: 20 };
	into.timing = await startReferenceService({ ...pages, cacheSeconds: 0 });
	into.billing = await startReferenceService({ ...pages, cacheSeconds: 60 });
	const keys = [API_KEY, ...workflows.SCALE_SLOTS.map(({ name }) => keyOf(name))];
	into.scale = await startReferenceService({ keys, ...SCALE_SERVICE });
}

/** The credential pairs of the services, and of the scale service's slots (contacts.js). */
function credentials(services) {
	const pair = (tag, serviceUrl, apiKey = API_KEY) =>
		workflows.credentialsFor({ serviceUrl, apiKey, tag });
	const creds = Object.fromEntries(SERVICES.map((tag) => [tag, pair(tag, services[tag].url)]));
	const slots = workflows.SCALE_SLOTS.map(({ name }) => [
		name,
		pair(`scale ${name}`, services.scale.url, keyOf(name)),
	]);
	return { ...creds, slots: Object.fromEntries(slots) };
}

/** A fresh user folder with the package, the credentials and all workflows imported. */
async function prepareN8nFolder(tarball, services, { pagesQuery, pagesPageSize }) {
	const folder = await n8n.createN8nUserFolder({ packageTarball: tarball });
	const creds = credentials(services);
	const pairs = [...SERVICES.map((tag) => creds[tag]), ...Object.values(creds.slots)];
	await n8n.importCredentials(
		folder,
		pairs.flatMap((c) => [c.soundSearch, c.headerAuth]),
	);
	const urls = {
		timing: services.timing.url,
		billing: services.billing.url,
		scale: services.scale.url,
	};
	const all = workflows.buildWorkflows({ ...urls, creds, pagesQuery, pagesPageSize });
	await n8n.importFile(folder, 'workflow', all, { throwOnFailure: true });
	return { folder, workflows: all };
}

/** How the installed package's credential authenticates requests (for the report's why). */
function credentialAuthenticate(folder) {
	const dist = path.join(folder, '.n8n/nodes/node_modules', workflows.PACKAGE_NAME, 'dist');
	try {
		const { SoundSearchApi } = require(`${dist}/credentials/SoundSearchApi.credentials.js`);
		const auth = new SoundSearchApi().authenticate;
		if (typeof auth === 'function') return { kind: 'function' };
		return { kind: auth?.type ?? 'none', properties: auth?.properties ?? null };
	} catch (error) {
		return { kind: 'unknown', error: String(error) };
	}
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
		httpRequestVersion: workflows.HTTP_REQUEST_VERSION,
		webhookVersion: workflows.WEBHOOK_VERSION,
	};
}

module.exports = { API_KEY, startServices, prepareN8nFolder, credentialAuthenticate, versions };
