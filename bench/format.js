'use strict';

// Number formats and the Markdown tables of the report.

const { markdownTable } = require('markdown-table');

/** @param {number} digits */
const fixed = (digits) => (x) => (Number.isFinite(x) ? x.toFixed(digits) : 'n/a');
const [f0, f1, f2, f3] = [0, 1, 2, 3].map(fixed);
/** @param {number} kb */
const mib = (kb) => (Number.isFinite(kb) ? (kb / 1024).toFixed(0) : 'n/a');
/** @param {number} x */
const int = (x) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : 'n/a');
/** @param {number} x */
const pct = (x) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)} %` : 'n/a');

/**
 * A Markdown table. markdown-table pads cells to align the columns; the report is written
 * unpadded with `---` delimiters, so every cell counts as 3 characters wide (no padding needed).
 * @param {string[]} header
 * @param {unknown[][]} rows
 */
const table = (header, rows) =>
	markdownTable([header, ...rows.map((r) => r.map(String))], { stringLength: () => 3 });

/**
 * A table from column specs: [header, cell of a row].
 * @template T
 * @param {Array<[string, (row: T) => unknown]>} specs
 * @param {T[]} rows
 */
const columns = (specs, rows) =>
	table(
		specs.map(([h]) => h),
		rows.map((r) => specs.map(([, cell]) => cell(r))),
	);

/** Paragraphs (strings, or nested lists of them) joined by blank lines; empty ones left out. */
const blocks = (...parts) =>
	parts
		.flat(Infinity)
		.filter((p) => typeof p === 'string' && p !== '')
		.join('\n\n');

module.exports = { f0, f1, f2, f3, mib, int, pct, table, columns, blocks };
