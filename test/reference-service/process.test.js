'use strict';

// The service as a process: where it listens, how it stops, its log and its CLI settings.

const { spawn } = require('node:child_process');
const net = require('node:net');
const os = require('node:os');
const { setTimeout: sleep } = require('node:timers/promises');
const { startReferenceService } = require('../harness/referenceService');
const { readSettings } = require('../../reference-service/server');

const alive = (pid) => {
	try {
		return process.kill(pid, 0);
	} catch (error) {
		expect(error.code).toBe('ESRCH');
		return false;
	}
};

/** Resolves 'connected' or the connection error code. */
const tryConnect = (host, port) =>
	new Promise((resolve) => {
		const socket = net.connect({ host, port, timeout: 2000 });
		const end = (result) => {
			socket.destroy();
			resolve(result);
		};
		socket.once('connect', () => end('connected'));
		socket.once('timeout', () => end('timeout'));
		socket.once('error', (/** @type {any} */ error) => resolve(error.code));
	});

it('binds 127.0.0.1 only, logs each request without the key, and stop() ends it cleanly', async () => {
	const started = await startReferenceService({ quiet: false, keys: ['log-secret-key'] });
	const { hostname, port } = new URL(started.url);
	expect(hostname).toBe('127.0.0.1');
	expect(await tryConnect('127.0.0.1', Number(port))).toBe('connected');
	const elsewhere = Object.values(os.networkInterfaces())
		.flatMap((addresses) => addresses ?? [])
		.filter((address) => address.family === 'IPv4' && !address.internal)
		.map((address) => address.address);
	// On Linux all of 127/8 is loopback: a server on 0.0.0.0 would answer 127.0.0.2 too.
	if (process.platform === 'linux') elsewhere.push('127.0.0.2');
	for (const host of elsewhere) {
		expect([host, await tryConnect(host, Number(port))]).toEqual([host, 'ECONNREFUSED']);
	}

	await started.search('photosocial', { q: 'rain' });
	await sleep(100);
	expect(started.stderr()).toContain('GET /v1/photosocial/sound/search 200 credits=2');
	expect(started.stderr()).not.toContain('log-secret-key');

	expect(await started.stop()).toEqual({ code: 0, signal: null });
	expect(alive(started.pid)).toBe(false);
});

it('exits by itself when its --parent-pid is gone', async () => {
	const parent = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 300)']);
	const parentGone = new Promise((resolve) => parent.once('exit', resolve));
	const orphan = await startReferenceService({ args: ['--parent-pid', String(parent.pid)] });
	await parentGone;
	for (const deadline = Date.now() + 5000; alive(orphan.pid) && Date.now() < deadline; ) {
		await sleep(100);
	}
	expect(alive(orphan.pid)).toBe(false);
	expect(await orphan.stop()).toEqual({ code: 0, signal: null });
});

it('reads port and keys from the environment when no flag is given; refuses a bad flag', () => {
	const env = { SOUND_SEARCH_SANDBOX_PORT: '4321', SOUND_SEARCH_SANDBOX_KEYS: 'x, y' };
	expect(readSettings([], env)).toMatchObject({ port: 4321, keys: ['x', 'y'], host: '127.0.0.1' });
	expect(readSettings(['--port', '0', '--keys', 'z'], env)).toMatchObject({ port: 0, keys: ['z'] });
	expect(readSettings(['--refusal-status', '422'], {}).refusalStatus).toBe(422);
	expect(readSettings(['--quota', '20/10s'], {}).quota).toEqual({
		limit: 20,
		windowMs: 10_000,
		headers: false,
	});
	expect(() => readSettings(['--max-page-size', '0'], {})).toThrow(/max-page-size/);
	expect(() => readSettings(['--refusal-status', '404'], {})).toThrow(/200, 400, 422/);
	expect(() => readSettings(['--quota', '10 per second'], {})).toThrow(
		/--quota must look like 10\/s/,
	);
});
