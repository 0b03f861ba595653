'use strict';

// Gives every registry package of a lockfile its tarball address on the registry npm is set to:
//   node n8n-host/resolveLockfile.js <package-lock.json> <registry URL>
// The committed lockfiles carry no addresses (no registry host is written into the repository),
// so npm would fetch and parse the metadata of each of n8n's ~1,900 packages to find its tarball
// first: most of the CPU of an install. With the address and the committed integrity,
// npm fetches the tarball alone and still checks it against that integrity. Used on install.sh's
// copy of the lockfile, in the install folder; the registry comes from npm's own configuration.
const fs = require('node:fs');

const [file, registry] = process.argv.slice(2);
if (!file || !registry) throw new Error('usage: resolveLockfile.js <package-lock.json> <registry>');
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const base = registry.replace(/\/+$/, '');
const FOLDER = 'node_modules/';
for (const [location, entry] of Object.entries(lock.packages ?? {})) {
	// The root, links and entries without a registry version or integrity are left as they are.
	if (!location || entry.link || entry.resolved || !entry.version || !entry.integrity) continue;
	// An alias (node_modules/x installed from "npm:y@1") names the real package in `name`.
	const name = entry.name ?? location.slice(location.lastIndexOf(FOLDER) + FOLDER.length);
	entry.resolved = `${base}/${name}/-/${name.split('/').pop()}-${entry.version}.tgz`;
}
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
