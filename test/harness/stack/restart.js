'use strict';

// What makes a restart of `npm start` quick: on a kept user folder, the package is built, packed
// and installed again only when its sources changed, and the credentials and workflows are
// imported again only when what would be imported changed. Both are recorded in a stamp inside
// <userFolder>/.n8n/, so a removed n8n state (or --reset) starts clean.

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { REPO_ROOT } = require('../packageTarball');

const STAMP = path.join('.n8n', 'sound-search-start.json');
/** What `n8n-node build` turns into the package. */
const SOURCES = ['nodes', 'credentials', 'icons', 'package.json', 'tsconfig.json'];

/** @param {string} file @returns {string[]} the file, or every file under a folder, sorted */
function filesUnder(file) {
	if (!fs.statSync(file).isDirectory()) return [file];
	return fs
		.readdirSync(file)
		.sort()
		.flatMap((name) => filesUnder(path.join(file, name)));
}

/** A hash of the package's sources (names and contents). */
function sourcesHash() {
	const hash = crypto.createHash('sha256');
	for (const file of SOURCES.flatMap((name) => filesUnder(path.join(REPO_ROOT, name))))
		hash.update(path.relative(REPO_ROOT, file)).update('\0').update(fs.readFileSync(file));
	return hash.digest('hex').slice(0, 16);
}

/** A hash of what would be imported. @param {unknown} value */
const valueHash = (value) =>
	crypto.createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);

/** @param {string} userFolder @returns {{ sources?: string, imported?: string }} */
function readStamp(userFolder) {
	try {
		return JSON.parse(fs.readFileSync(path.join(userFolder, STAMP), 'utf8'));
	} catch {
		return {};
	}
}

/** @param {string} userFolder @param {{ sources?: string, imported?: string }} changes */
function writeStamp(userFolder, changes) {
	const file = path.join(userFolder, STAMP);
	fs.mkdirSync(path.dirname(file), { recursive: true });
	fs.writeFileSync(file, JSON.stringify({ ...readStamp(userFolder), ...changes }));
}

module.exports = { sourcesHash, valueHash, readStamp, writeStamp };
