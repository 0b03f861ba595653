'use strict';

// n8n's inspector, for the profile and memory phases. n8n is started with --inspect-port (set,
// not opened); SIGUSR1 opens the inspector on 127.0.0.1 only for those phases, after the timed
// ones. Node's own WebSocket speaks the protocol: no client library needed for three calls.

const WS_TIMEOUT_MS = 30_000;
const OPEN_TIMEOUT_MS = 10_000;

async function openInspector(pid, port) {
	process.kill(pid, 'SIGUSR1');
	const deadline = Date.now() + OPEN_TIMEOUT_MS;
	for (let i = 0; i < 200 && Date.now() < deadline; i++) {
		try {
			const res = await fetch(`http://127.0.0.1:${port}/json/list`, {
				signal: AbortSignal.timeout(1000),
			});
			const list = /** @type {any[]} */ (await res.json());
			const target = list.find((t) => t.webSocketDebuggerUrl);
			if (target) return target.webSocketDebuggerUrl;
		} catch {
			// not open yet
		}
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
	throw new Error(`inspector of pid ${pid} did not open on 127.0.0.1:${port}`);
}

function connect(url) {
	return new Promise((resolve, reject) => {
		const ws = new WebSocket(url);
		let nextId = 1;
		const pending = new Map();
		const timer = setTimeout(
			() => reject(new Error('inspector websocket did not open')),
			OPEN_TIMEOUT_MS,
		);
		ws.addEventListener('open', () => {
			clearTimeout(timer);
			resolve({
				send(method, params = {}) {
					const id = nextId++;
					ws.send(JSON.stringify({ id, method, params }));
					return new Promise((res, rej) => {
						const t = setTimeout(
							() => rej(new Error(`inspector ${method} timed out`)),
							WS_TIMEOUT_MS,
						);
						pending.set(id, (msg) => {
							clearTimeout(t);
							if (msg.error) rej(new Error(`inspector ${method}: ${JSON.stringify(msg.error)}`));
							else res(msg.result);
						});
					});
				},
				close: () => ws.close(),
			});
		});
		ws.addEventListener('message', (event) => {
			const msg = JSON.parse(String(event.data));
			const done = pending.get(msg.id);
			if (done) {
				pending.delete(msg.id);
				done(msg);
			}
		});
		ws.addEventListener('error', () => reject(new Error('inspector websocket error')));
	});
}

/**
 * Opens n8n's inspector (SIGUSR1; it listens on the --inspect-port n8n was started with) and
 * connects to it. Close the session when done.
 * @param {{ pid: number, port: number }} target
 */
async function inspectorSession(target) {
	return connect(await openInspector(target.pid, target.port));
}

module.exports = { inspectorSession };
