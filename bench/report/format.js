'use strict';

// Number formats, Markdown tables and paragraphs of the report.

/** @param {(x: number) => string} f */
const finite = (f) => (/** @type {number} */ x) => (Number.isFinite(x) ? f(x) : 'n/a');
const [f0, f1, f2, f3] = [0, 1, 2, 3].map((digits) => finite((x) => x.toFixed(digits)));
const mib = finite((kb) => (kb / 1024).toFixed(0));
const int = finite((x) => Math.round(x).toLocaleString('en-US'));
const pct = finite((x) => `${(100 * x).toFixed(1)} %`);
/** A service's latency: 150 ms, 2 s. */
const latency = (/** @type {number} */ ms) => (ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`);

/**
 * An unpadded Markdown table; the header and each row a list of cells, or one string of them
 * separated by ' | '. @param {string | string[]} header @param {(string | unknown[])[]} rows
 */
function table(header, rows) {
	const head = Array.isArray(header) ? header : header.split(' | ');
	const line = (r) => `| ${Array.isArray(r) ? r.join(' | ') : r} |`;
	return [head, head.map(() => '---'), ...rows].map(line).join('\n');
}

/** Paragraphs (strings, or nested lists of them) joined by blank lines; empty ones left out. */
const blocks = (...parts) =>
	parts
		.flat(Infinity)
		.filter((p) => typeof p === 'string' && p !== '')
		.join('\n\n');

module.exports = { f0, f1, f2, f3, mib, int, pct, latency, table, blocks };
