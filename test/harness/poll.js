'use strict';

// The one polling loop of the tests: what n8n and the services do in their own time (executions
// ending, triggers firing, webhooks registering) is read again until it is as expected.

const { setTimeout: sleep } = require('node:timers/promises');

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

module.exports = { poll };
