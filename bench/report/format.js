'use strict';

// Number formats and the Markdown tables of the report.

const { markdownTable } = require('markdown-table');

/** @param {(x: number) => string} f */
const finite = (f) => (/** @type {number} */ x) => (Number.isFinite(x) ? f(x) : 'n/a');
const [f0, f1, f2, f3] = [0, 1, 2, 3].map((digits) => finite((x) => x.toFixed(digits)));
const mib = finite((kb) => (kb / 1024).toFixed(0));
const int = finite((x) => Math.round(x).toLocaleString('en-US'));
const pct = finite((x) => `${(100 * x).toFixed(1)} %`);
/** A service's latency: 150 ms, 2 s. */
const latency = (/** @type {number} */ ms) => (ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`);

/**
 * The report's tables are unpadded, with `---` delimiters: markdown-table pads to the widest cell,
 * so every cell is said to be 3 characters wide.
 * @param {string[]} header @param {unknown[][]} rows
 */
const table = (header, rows) =>
	markdownTable([header, ...rows.map((r) => r.map(String))], { stringLength: () => 3 });

/**
 * A table from the cell of a row under each header.
 * @template T @param {Record<string, (row: T) => unknown>} cells @param {T[]} rows
 */
const columns = (cells, rows) =>
	table(
		Object.keys(cells),
		rows.map((r) => Object.values(cells).map((cell) => cell(r))),
	);

/** Paragraphs (strings, or nested lists of them) joined by blank lines; empty ones left out. */
const blocks = (...parts) =>
	parts
		.flat(Infinity)
		.filter((p) => typeof p === 'string' && p !== '')
		.join('\n\n');

module.exports = { f0, f1, f2, f3, mib, int, pct, latency, table, columns, blocks };
