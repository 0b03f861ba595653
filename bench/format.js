'use strict';

// Number formats and the Markdown table of the report (shared by report.js and the sections
// that live beside their phase, such as keywordScale.js).

const f0 = (x) => (Number.isFinite(x) ? x.toFixed(0) : 'n/a');
const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : 'n/a');
const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : 'n/a');
const f3 = (x) => (Number.isFinite(x) ? x.toFixed(3) : 'n/a');
const mib = (kb) => (Number.isFinite(kb) ? (kb / 1024).toFixed(0) : 'n/a');
const int = (x) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : 'n/a');
const pct = (x) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)} %` : 'n/a');

function table(header, rows) {
	const line = (cells) => `| ${cells.join(' | ')} |`;
	return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

module.exports = { f0, f1, f2, f3, mib, int, pct, table };
