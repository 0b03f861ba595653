'use strict';

// Gives every registry package of install.sh's lockfile copy its tarball address on npm's registry:
//   node n8n-host/resolveLockfile.js <package-lock.json> <registry URL>
// The committed lockfiles name no registry; without addresses npm fetches and parses the metadata
// of each of n8n's ~1,900 packages first (most of an install's CPU). The integrity still holds.
const fs = require('node:fs');

const [file, registry] = process.argv.slice(2);
if (!file || !registry) throw new Error('usage: resolveLockfile.js <package-lock.json> <registry>');
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const base = registry.replace(/\/+$/, '');
const FOLDER = 'node_modules/';
for (const [location, entry] of Object.entries(lock.packages ?? {})) {
	// Not the root, links, nor entries without a registry version or integrity.
	if (!location || entry.link || entry.resolved || !entry.version || !entry.integrity) continue;
	// An alias (node_modules/x installed from "npm:y@1") names the real package in `name`.
	const name = entry.name ?? location.slice(location.lastIndexOf(FOLDER) + FOLDER.length);
	entry.resolved = `${base}/${name}/-/${name.split('/').pop()}-${entry.version}.tgz`;
}
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
