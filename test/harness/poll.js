'use strict';

// The one polling loop of the tests: what n8n and the services do in their own time is read
// again until it is as expected.

const { setTimeout: sleep } = require('node:timers/promises');
const { timedOut } = require('./deadlines');

/**
 * Calls fn until done(value) or the time is up; returns the last value either way.
 * @template T
 * @param {() => T | Promise<T>} fn
 * @param {(value: T) => boolean} done
 * @param {number} timeoutMs
 */
async function poll(fn, done, timeoutMs, intervalMs = 250) {
	const deadline = Date.now() + timeoutMs;
	let value = await fn();
	while (!done(value) && Date.now() < deadline) {
		await sleep(intervalMs);
		value = await fn();
	}
	return value;
}

/**
 * poll() for a wait that is not itself what a test checks: rejects, naming `what` and the
 * machine's load, unless done(value) in time.
 * @template T
 * @param {string} what
 * @param {() => T | Promise<T>} fn
 * @param {(value: T) => boolean} done
 * @param {number} timeoutMs
 */
async function until(what, fn, done, timeoutMs, intervalMs = 250) {
	const value = await poll(fn, done, timeoutMs, intervalMs);
	if (!done(value)) throw timedOut(what, timeoutMs);
	return value;
}

module.exports = { poll, until };
