'use strict';

// n8n starts take turns, machine-wide: an `n8n start` or a worker takes a core for 10-20 s until
// ready, and starts that coincided on 2 cores made readiness time out (issue 27). A directory made
// with mkdir (atomic) holds the owner's pid; a lock whose owner is gone, or held longer than a
// start may take, is taken over.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { deadlineMs } = require('../deadlines');
const { isAlive } = require('../supervisor');

const LOCK = path.join(os.tmpdir(), 'n8n-nodes-sound-search-n8n-start.lock');
const OWNER = path.join(LOCK, 'owner');

/** True when the lock is held by a live owner within the time a start may take. */
function held() {
	try {
		const { mtimeMs } = fs.statSync(LOCK);
		const pid = Number(fs.readFileSync(OWNER, 'utf8'));
		return (!pid || isAlive(pid)) && Date.now() - mtimeMs < deadlineMs('n8nReady');
	} catch {
		return false; // the owner file is written a moment after mkdir: an empty lock is young
	}
}

async function acquire() {
	for (let young = 0; ; ) {
		try {
			fs.mkdirSync(LOCK);
			fs.writeFileSync(OWNER, String(process.pid));
			return;
		} catch (error) {
			if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
		}
		// Not held: gone owner, or an owner file never written (after 5 tries, 1 s).
		if (!held() && (fs.existsSync(OWNER) || ++young > 4)) {
			fs.rmSync(LOCK, { recursive: true, force: true });
			young = 0;
		}
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
}

/**
 * Runs `start` (spawn n8n and wait until ready) once no other start is under way.
 * @template T @param {() => Promise<T>} start
 * @returns {Promise<T>}
 */
async function inTurn(start) {
	await acquire();
	try {
		return await start();
	} finally {
		fs.rmSync(LOCK, { recursive: true, force: true });
	}
}

module.exports = { inTurn };
