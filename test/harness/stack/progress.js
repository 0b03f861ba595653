'use strict';

// What a long step of `npm start` says while it runs: a line every 15 s with the time so far and
// what is happening. A first start installs for minutes (n8n alone is 2.7 GB); with nothing
// printed it looks hung. Installs also say how much is unpacked so far.

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const EVERY_MS = 15_000;

/**
 * "1,234 MB unpacked so far" for an install into <dir>/node_modules: it grows while npm works
 * (npm creates every package's folder at once, so a count of folders would sit still).
 * @param {string} dir
 */
function installDetail(dir) {
	return () => {
		const modules = path.join(dir, 'node_modules');
		if (!fs.existsSync(modules)) return 'nothing unpacked yet';
		const mb = Number(execFileSync('du', ['-sm', modules], { encoding: 'utf8' }).split('\t')[0]);
		return `${mb.toLocaleString('en-US')} MB unpacked`;
	};
}

/**
 * Says `doing`, the seconds so far and `detail()` every 15 s until the returned stop() is called.
 * @param {(line: string) => void} say @param {string} doing @param {() => string} [detail]
 */
function heartbeat(say, doing, detail) {
	const t0 = Date.now();
	const timer = setInterval(() => {
		const seconds = Math.round((Date.now() - t0) / 1000);
		let more = '';
		try {
			more = detail ? `, ${detail()}` : '';
		} catch {} // a folder being replaced under the install: the time alone then
		say(`... ${doing}: ${seconds} s so far${more}`);
	}, EVERY_MS);
	timer.unref();
	return () => clearInterval(timer);
}

module.exports = { heartbeat, installDetail };
