'use strict';

// The spreadsheets the example workflows write (CSV, XLSX), read back with the SheetJS build the
// n8n under test ships: no spreadsheet library of our own (2.x ships it as @e965/xlsx, 1.x as xlsx).

const fs = require('node:fs');
const path = require('node:path');
const n8n = require('../harness/n8n');

function sheetJs() {
	for (const name of ['@e965/xlsx', 'xlsx']) {
		const dir = path.join(n8n.INSTALL_DIR, 'node_modules', name);
		if (fs.existsSync(dir)) return require(dir);
	}
	throw new Error(`no SheetJS in ${n8n.INSTALL_DIR}/node_modules`);
}

/**
 * The rows of one sheet (the first unless named) as objects keyed by the header row; an empty
 * cell is null. CSV values stay text, as written (a soundId has more digits than a double keeps).
 * @param {string} file .csv or .xlsx
 * @param {string} [sheet]
 * @returns {{ sheetNames: string[], rows: Record<string, any>[] }}
 */
function readSheet(file, sheet) {
	const XLSX = sheetJs();
	const workbook = file.endsWith('.csv')
		? XLSX.read(fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, ''), { type: 'string', raw: true })
		: XLSX.read(fs.readFileSync(file));
	const rows = XLSX.utils.sheet_to_json(workbook.Sheets[sheet ?? workbook.SheetNames[0]], {
		defval: null,
	});
	return { sheetNames: workbook.SheetNames, rows };
}

module.exports = { readSheet };
