'use strict';

// A private Redis on 127.0.0.1 (n8n's job queue, Bull): no persistence, a free port.

const fs = require('node:fs');
const net = require('node:net');
const { getFreePort } = require('../n8n');
const { superviseService, waitUntil } = require('./service');

/**
 * @param {{ redisServer: string, dir: string, track: (s: import('./service').Service) => void }} options
 */
async function startRedis({ redisServer, dir, track }) {
	fs.mkdirSync(dir);
	const port = await getFreePort();
	const args = ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no'];
	const proc = superviseService('redis', [redisServer, ...args, '--dir', dir, '--logfile', ''], {
		cwd: dir,
	});
	track(proc);
	await waitUntil('redis-server', () => ping(port), { timeoutMs: 60_000, process: proc });
	return { port, pid: await proc.childPid, process: proc };
}

/**
 * PING over a socket, expecting +PONG. Written by hand: wait-on only knows that the port is open,
 * and a Redis client library would be a dependency for these ten lines.
 * @param {number} port
 * @returns {Promise<boolean>}
 */
function ping(port) {
	return new Promise((resolve) => {
		const socket = net.connect({ host: '127.0.0.1', port }, () => socket.write('PING\r\n'));
		const done = (/** @type {boolean} */ ok) => resolve(ok) ?? socket.destroy();
		socket.setTimeout(2_000, () => done(false));
		socket.on('error', () => done(false));
		socket.on('data', (chunk) => done(chunk.toString('latin1').startsWith('+PONG')));
	});
}

module.exports = { startRedis };
