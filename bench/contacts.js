'use strict';

// First contact and later runs (issue 30). The node remembers, per n8n process, what it learned of
// a service, keyed by the credential's Base URL and API key: a node run is first contact when this
// n8n has not searched with that pair before, a later run when it has. So that one case's lessons
// (a capacity of 4, a quota) do not leak into the next, every keyword-list case gets its own slot
// on the scale service: an API key it accepts, a credential pair with that key, and a Sound Search
// workflow on that credential (workflows.js). The benchmark is the only client of its n8n, so
// counting each slot's runs here tells first contact from later runs.

/**
 * Issue 30: a real service answers in seconds. The keyword phases' cases run at two latencies
 * where the issue asks: 'base', the one the Max Calls in Flight sweep and the hand-tuned batches
 * were made for, and 'slow' (options.js: 2 s, --smoke less, to keep it short). Slots are named
 * by role so that the workflows do not depend on the options.
 */
const LATENCY_ROLES = ['base', 'slow'];
const BASE_LATENCY_MS = 150;
/**
 * [role, ms] of each latency of this run.
 * @param {{ slowLatencyMs: number }} options @returns {[string, number][]}
 */
const latenciesOf = (options) => [
	['base', BASE_LATENCY_MS],
	['slow', options.slowLatencyMs],
];

/** The slot of each case, by name: one first contact each. */
const slot = {
	/** No limit, default options, at a latency (its role): the comparison with HTTP Request. */
	compare: (role) => `open-${role}`,
	/** The Max Calls in Flight sweep: one slot per bound and service, so every run meets it fresh. */
	sweep: (maxInFlight, capped) => `sweep-${maxInFlight}${capped ? '-capped' : ''}`,
	capped: (capacity) => `capped-${capacity}`,
	/** A quota ('second' or 'window'), with or without RateLimit-* headers, at a latency. */
	quota: (kind, role, headers = false) => `${kind}${headers ? '-headers' : ''}-${role}`,
	/** The 10/s quota another client floods before each run (phases/flood.js). */
	flood: (role) => `flood-${role}`,
	/** Two executions at once on one key (phases/sharedKey.js). */
	shared: (role) => `shared-${role}`,
	/** A run a 402 dooms (phases/sharedKey.js). */
	doomed: 'doomed',
};

const keyOf = (name) => `bench-key-${name}`;
/** The slot's Sound Search workflow (a keyword list: POST, so the key starts with `key`). */
const nodeWorkflowOf = (name) => `keylist-node-${name}`;
/** The flood's HTTP Request workflow, on the flood slot's key. */
const floodWorkflowOf = (role) => `keylist-http-flood-${role}`;

/**
 * Every slot, with the Sound Search options of its workflow: the sweep's Max Calls in Flight
 * values, the capped services' capacities.
 * @param {number[]} sweep @param {number[]} capacities
 * @returns {{ name: string, options?: Record<string, number> }[]}
 */
function slotsFor(sweep, capacities) {
	const bounds = sweep.flatMap((m) =>
		[false, true].map((capped) => ({ name: slot.sweep(m, capped), options: { maxInFlight: m } })),
	);
	const perLatency = LATENCY_ROLES.flatMap((role) => [
		slot.compare(role),
		...['second', 'window'].flatMap((kind) => [
			slot.quota(kind, role),
			slot.quota(kind, role, true),
		]),
		slot.flood(role),
		slot.shared(role),
	]);
	const plain = [...capacities.map(slot.capped), ...perLatency, slot.doomed].map((name) => ({
		name,
	}));
	return [...bounds, ...plain];
}

/** How the report and the log say a run's contact. */
const CONTACT = { first: 'first contact', later: 'later run' };

/**
 * Tells, for each node run, whether it is the first on its slot in this n8n ('first') or not
 * ('later'), and records it.
 */
function contactLog() {
	const seen = new Set();
	return (/** @type {string} */ name) => {
		if (seen.has(name)) return 'later';
		seen.add(name);
		return 'first';
	};
}

module.exports = {
	LATENCY_ROLES,
	BASE_LATENCY_MS,
	latenciesOf,
	CONTACT,
	slot,
	keyOf,
	nodeWorkflowOf,
	floodWorkflowOf,
	slotsFor,
	contactLog,
};
