'use strict';

// The examples/ workflows, as users get them, in a real n8n: first headless (`n8n execute`), then
// `n8n start` on the same user folder and the REST API the editor uses, with a Schedule Trigger
// that fires by itself and, for the AI Agent, a fake OpenAI model. n8n's own features and the
// examples that need not run twice: newest n8n line only. Set-up: scenario.js.

const fs = require('node:fs');
const path = require('node:path');
const { REPO_ROOT } = require('../harness/packageTarball');
const { useN8n, KEYS } = require('./scenario');
const { poll } = require('../harness/poll');
const { page, bySearch } = require('./ledger');
const { readSheet } = require('./sheets');

const scenario = useN8n({ model: true, start: false });
const PRICE = { shortvideo: 1, photosocial: 2 };
const TREND_COLLECTION = 'examples/scheduled-trend-collection.json';
/** The columns Simplify Output promises a spreadsheet. */
const SIMPLE_COLUMNS = 'soundId title audioUrl platform query creditsCharged page'.split(' ');
/** @typedef {'shortvideo' | 'photosocial'} Platform */

/**
 * The searches the service must have seen, one page each: in the order bySearch gives the ledger.
 * @param {{ platform: Platform, q: string }[]} searches @param {Record<string, unknown>} fields
 */
const onePageEach = (searches, fields) =>
	bySearch(searches).map((s) => page({ ...s, ...fields, credits: PRICE[s.platform] }));

describe('headless, with `n8n execute`', () => {
	// One test() each (not test.each): the newest-line gate of test/setup/n8nLine.js wraps test().
	for (const [what, rowsNode] of [
		['without a keywords file: the sample rows', 'Sample Keywords (No File)'],
		["with the user's .n8n-files/keywords.csv", 'Extract Keywords from CSV'],
	]) {
		test(`examples/keywords-from-spreadsheet.json ${what}, one search per row, all results in one XLSX file [newest n8n line only]`, async () => {
			const userFile = path.join(scenario.filesDir, 'keywords.csv');
			if (rowsNode === 'Extract Keywords from CSV')
				fs.copyFileSync(path.join(REPO_ROOT, 'examples/keywords.csv'), userFile);
			try {
				await expectSpreadsheetRun(rowsNode);
			} finally {
				fs.rmSync(userFile, { force: true });
			}
		});
	}
});

/** One run of the spreadsheet example, its keywords coming out of `rowsNode`. @param {string} rowsNode */
async function expectSpreadsheetRun(rowsNode) {
	const { items, runData } = await scenario.execute('examples/keywords-from-spreadsheet.json');
	expect(Object.keys(runData)).not.toContain('File Not Saved');

	const keywords = items(rowsNode);
	expect(keywords).toEqual([
		{ keyword: 'lofi', platform: 'shortvideo' },
		{ keyword: 'rainy jazz', platform: 'photosocial' },
		{ keyword: 'workout motivation', platform: 'shortvideo' },
		{ keyword: 'cinematic piano', platform: 'photosocial' },
	]);
	const searches = keywords.map(({ keyword, platform }) => ({ platform, q: keyword }));
	const authorization = `Bearer ${KEYS.sound}`;
	expect(bySearch(await scenario.ledger())).toEqual(
		onePageEach(searches, { limit: '10', outcome: 'ok', authorization }),
	);
	expect((await scenario.service.ledger()).totals).toEqual({ requests: 4, creditsCharged: 6 });

	const sounds = items('Sound Search');
	expect(sounds).toHaveLength(40);
	const fileName = '.n8n-files/sound-search-results.xlsx';
	expect(items('Write Results File')).toEqual([expect.objectContaining({ fileName })]);
	const written = path.join(scenario.filesDir, 'sound-search-results.xlsx');
	const bytes = fs.readFileSync(written);
	expect(bytes.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004'); // a zip container
	expect(bytes.includes(Buffer.from('xl/worksheets/sheet1.xml'))).toBe(true);
	const { sheetNames, rows } = readSheet(written);
	expect(sheetNames).toEqual(['Sounds']);
	expect(rows).toHaveLength(40); // one row per sound, the searches of all rows merged
	rows.forEach((row, i) => {
		const { keyword: query, platform } = keywords[Math.floor(i / 10)];
		const { soundId, title } = sounds[i];
		const creditsCharged = PRICE[/** @type {Platform} */ (platform)];
		expect(row).toMatchObject({ soundId, title, query, platform, creditsCharged, page: 1 });
	});
}

/**
 * What the scheduled-trend example produced: 3 keywords x 2 platforms, 20 sounds each, one page
 * each at the platform's price, and a CSV row per sound.
 * @param {ReturnType<import('./workflowFile').outcome>} run
 */
async function expectTrendCollection(run) {
	const searches = ['lofi', 'rainy jazz', 'workout motivation'].flatMap((q) =>
		/** @type {Platform[]} */ (['shortvideo', 'photosocial']).map((platform) => ({ q, platform })),
	);
	expect(bySearch(await scenario.ledger())).toEqual(
		onePageEach(searches, { limit: '20', outcome: 'ok', items: 20 }),
	);
	expect((await scenario.service.ledger()).totals).toEqual({ requests: 6, creditsCharged: 9 });

	const sounds = run.items('Sound Search');
	expect(sounds).toHaveLength(120);
	searches.forEach(({ q, platform }, search) => {
		for (const sound of sounds.slice(search * 20, search * 20 + 20)) {
			expect(sound).toMatchObject({ query: q, platform, creditsCharged: PRICE[platform], page: 1 });
			// Simplify Output: flat values only, ready for a spreadsheet.
			expect(Object.values(sound).every((v) => v === null || typeof v !== 'object')).toBe(true);
		}
	});

	const [written] = run.items('Write CSV to Disk');
	// Relative paths are the folder n8n runs in: its user folder here.
	const fileName = path.resolve(scenario.userFolder, String(written.fileName));
	const { rows } = readSheet(fileName);
	expect(rows).toHaveLength(sounds.length); // one row per sound
	// The columns are the items' fields, those Simplify Output promises among them.
	expect(Object.keys(rows[0])).toEqual(Object.keys(sounds[0]));
	expect(Object.keys(rows[0])).toEqual(expect.arrayContaining(SIMPLE_COLUMNS));
	rows.forEach((row, i) => {
		for (const column of ['soundId', 'title', 'query', 'platform', 'creditsCharged'])
			expect(row[column]).toBe(String(sounds[i][column]));
		expect(row.page).toBe('1');
	});
	return fileName;
}

describe('in a running n8n (REST API, as the editor uses it)', () => {
	beforeAll(() => scenario.start(), 180_000);

	describe('examples/scheduled-trend-collection.json', () => {
		test('run from its Schedule Trigger (editor "Execute workflow"): every keyword on both platforms, a CSV row per sound', async () => {
			const run = await scenario.run(TREND_COLLECTION);
			expect(run.status).toBe('success');
			const fileName = await expectTrendCollection(run);
			const today = /^sound-trends-\d{4}-\d{2}-\d{2}\.csv$/;
			expect(path.dirname(fileName)).toBe(scenario.filesDir);
			expect(path.basename(fileName)).toMatch(today);
		});

		test('activated, its Schedule Trigger starts the run by itself (interval shortened to 5 s) [newest n8n line only]', async () => {
			const outputFolder = path.join(scenario.filesDir, 'scheduled');
			fs.mkdirSync(outputFolder);
			const rule = { interval: [{ field: 'seconds', secondsInterval: 5 }] };
			const id = await scenario.activate(TREND_COLLECTION, {
				settings: { outputFolder },
				set: { 'Every Day at 06:00.rule': rule },
			});
			let executions = [];
			try {
				executions = await poll(
					() => scenario.executions(id),
					(list) => list.length > 0,
					30_000,
					200,
				);
			} finally {
				// As soon as the first scheduled run shows up, so that it is the only one.
				await scenario.deactivate(id);
			}
			expect(executions).toHaveLength(1);
			const run = await scenario.finished(executions[0].id);
			expect(run).toMatchObject({ mode: 'trigger', status: 'success' });
			expect(await scenario.executions(id)).toHaveLength(1);
			expect(path.dirname(await expectTrendCollection(run))).toBe(outputFolder);
		});

		test('a folder n8n may not write: the run still ends green, File Not Saved says why (the searches were paid, their CSV stays in the run) [newest n8n line only]', async () => {
			const outside = path.join(scenario.userFolder, 'outside');
			fs.mkdirSync(outside);
			const run = await scenario.run(TREND_COLLECTION, { settings: { outputFolder: outside } });
			expect(run.status).toBe('success');
			expect(run.items('File Not Saved')).toEqual([
				expect.objectContaining({ notSaved: expect.stringMatching(/not allowed/) }),
			]);
			expect(run.runData['Convert to CSV'][0].data.main[0][0].binary.data).toBeDefined();
			expect(fs.readdirSync(outside)).toEqual([]);
			expect((await scenario.service.ledger()).totals).toEqual({ requests: 6, creditsCharged: 9 });
		});
	});

	test('examples/ai-agent-sound-tool.json: the model gets the Sound_Search tool, calls it, and answers from its result [newest n8n line only]', async () => {
		const run = await scenario.run('examples/ai-agent-sound-tool.json');
		expect(run.status).toBe('success');

		const calls = await scenario.model.requests();
		expect(calls.map((c) => `${c.method} ${c.path} ${c.status}`)).toEqual([
			'POST /v1/chat/completions 200',
			'POST /v1/chat/completions 200',
		]);
		for (const call of calls) expect(call.authorization).toBe(`Bearer ${KEYS.openAi}`);
		const [first, second] = calls;
		expect(first.body.model).toBe('gpt-4.1-mini');
		expect(first.body.tools).toHaveLength(1);
		const [tool] = first.body.tools;
		expect(tool).toMatchObject({ type: 'function', function: { name: 'Sound_Search' } });
		expect(tool.function.description).toMatch(/^Search public sounds/);
		expect(tool.function.parameters).toMatchObject({
			type: 'object',
			properties: { query: { type: 'string', description: 'keyword to search sounds for' } },
			required: ['query'],
		});
		// Only the $fromAI() value is the model's to choose; platform, limit etc. stay fixed.
		expect(Object.keys(tool.function.parameters.properties)).toEqual(['query']);

		// The service saw exactly the model's query, with the tool's fixed platform and Limit.
		expect(await scenario.ledger()).toEqual([
			page({
				platform: 'shortvideo',
				q: 'rainy lofi',
				limit: '5',
				outcome: 'ok',
				credits: 1,
				items: 5,
			}),
		]);

		// The tool ran as its own node; its items went back to the model as the tool result.
		const toolRun = run.runData['Sound Search'];
		expect(toolRun).toHaveLength(1);
		const sounds = toolRun[0].data.ai_tool[0].map((/** @type {any} */ item) => item.json);
		expect(sounds).toHaveLength(5);
		expect(sounds[0]).toMatchObject({
			query: 'rainy lofi',
			platform: 'shortvideo',
			creditsCharged: 1,
			page: 1,
		});
		const toolMessage = second.body.messages.find((/** @type {any} */ m) => m.role === 'tool');
		expect(JSON.parse(toolMessage.content).map((/** @type {any} */ s) => s.soundId)).toEqual(
			sounds.map((/** @type {any} */ s) => s.soundId),
		);
		expect(run.items('AI Agent')).toEqual([
			{ output: `Found 5 sounds for "rainy lofi". The first one is "${sounds[0].title}".` },
		]);
	});
});
