import type { INodeParameters } from 'n8n-workflow';
import {
	BY_KEYWORD,
	NOTHING_SPENT,
	searchOn,
	useReferenceService,
} from '../harness/engine/searchFixture';
import { TOOL_TYPE } from '../harness/engine/engine';
import { triggersOn } from '../harness/engine/trigger';

// Both nodes' input checks to the letter: the message (field, value, item) and the advice a user
// reads, the bounds of every number, and the values that pass. Written against the mutation report
// (docs/testing.md): each case fails on a one-line change of nodes/shared/input.ts,
// nodes/SoundSearch/searchInput.ts or nodes/SoundSearchTrigger/triggerInput.ts. How a refusal
// meets n8n (the item named, Continue On Fail): input.test.ts.

const { service, search, calls, refused } = useReferenceService();

describe('Sound Search: what each refusal says', () => {
	const wholeNumber = (name: string, range: string, value: string, advice?: string) => ({
		message: `The "${name}" parameter must be a whole number from ${range}, but it is ${value} [item 0]`,
		description: `${advice ?? `Set "${name}" to a whole number in that range.`}${NOTHING_SPENT}`,
	});
	const notText = (value: string) => ({
		message: `The "Query" parameter must be text, but its expression gave ${value} [item 0]`,
		description: `Make the expression return a keyword string, e.g. {{ String($json.keyword) }}.${NOTHING_SPENT}`,
	});
	const LIMIT_ADVICE = 'Set a limit of at least 1, or turn on Return All.';
	it.each<[string, INodeParameters, { message: string; description: string }]>([
		[
			'an unknown platform',
			{ platform: '={{ "radio" }}' },
			{
				message: 'The "Platform" parameter is not a known platform: "radio" [item 0]',
				description: `Use "shortvideo" or "photosocial".${NOTHING_SPENT}`,
			},
		],
		[
			'a blank query',
			{ query: ' \t ' },
			{
				message: 'The "Query" parameter is empty [item 0]',
				description: `Enter a keyword to search for, or check that the expression or spreadsheet column it reads has a value for this item.${NOTHING_SPENT}`,
			},
		],
		['a query that is a number', { query: '={{ 42 }}' }, notText('number 42')],
		['a query that is a boolean', { query: '={{ true }}' }, notText('boolean true')],
		['a query that is null', { query: '={{ null }}' }, notText('empty')],
		['a query from a column the item lacks', BY_KEYWORD, notText('empty')],
		['a query that is a list', { query: '={{ ["lofi"] }}' }, notText('a list')],
		['a query that is an object', { query: '={{ { q: "lofi" } }}' }, notText('an object')],
		['a limit of 0', { limit: 0 }, wholeNumber('Limit', '1 to 100000', 'number 0', LIMIT_ADVICE)],
		[
			'a limit above the ceiling',
			{ limit: 100001 },
			wholeNumber('Limit', '1 to 100000', 'number 100001', LIMIT_ADVICE),
		],
		[
			'a limit given as text',
			{ limit: '={{ "5" }}' },
			wholeNumber('Limit', '1 to 100000', 'the text "5"', LIMIT_ADVICE),
		],
		[
			'a fractional limit',
			{ limit: 2.5 },
			wholeNumber('Limit', '1 to 100000', 'number 2.5', LIMIT_ADVICE),
		],
		[
			'a long text is cut in the message',
			{ limit: `={{ "${'9'.repeat(60)}" }}` },
			wholeNumber('Limit', '1 to 100000', `the text "${'9'.repeat(40)}"`, LIMIT_ADVICE),
		],
		[
			'a page size above 100',
			{ options: { pageSize: 101 } },
			wholeNumber('Page Size', '1 to 100', 'number 101'),
		],
		[
			'negative retries',
			{ options: { maxRetries: -1 } },
			wholeNumber('Retries per Page', '0 to 5', 'number -1'),
		],
		[
			'max pages above 10000',
			{ options: { maxPages: 10001 } },
			wholeNumber('Max Pages', '1 to 10000', 'number 10001'),
		],
		[
			'max credits of 0',
			{ options: { maxCredits: 0 } },
			wholeNumber('Max Credits', '1 to 10000000', 'number 0'),
		],
		[
			'a timeout below a second',
			{ options: { timeoutMs: 10 } },
			wholeNumber('Timeout', '1000 to 300000', 'number 10'),
		],
	])('%s', async (_case, parameters, expected) => {
		expect(await refused(search({ query: 'lofi', limit: 5, ...parameters }))).toEqual(expected);
	});

	it("an AI tool's Output that is no known choice is refused, showing what it got", async () => {
		const nodeSettings = { typeVersion: 2, type: TOOL_TYPE };
		const run = search({ query: 'lofi', output: 'all' }, { nodeSettings });

		expect(await refused(run)).toEqual({
			message: 'The "Output" parameter is not a known choice: ["all",[]] [item 0]',
			description: expect.stringMatching(/^Choose Raw, Simplified, or Selected Fields with/),
		});
	});

	it.each([
		['a control character', 'abc\u0007def'],
		['a character outside ASCII', 'caf\u00e9'],
		['a character outside ASCII first', '\u00e9abc'],
		['a space', 'not a cursor'],
		['2049 characters', 'c'.repeat(2049)],
		['a number', '={{ 12345 }}'],
	])('refuses a start cursor with %s', async (_case, startCursor) => {
		const run = search({ query: 'lofi', limit: 5, options: { startCursor } });
		expect(await refused(run)).toEqual({
			message: 'The "Start Cursor" option is not a valid cursor [item 0]',
			description: `Use the nextCursor value of an earlier page exactly as the service returned it, or clear the option to start from the first page.${NOTHING_SPENT}`,
		});
	});
});

// Each number's range is in its refusal's message above; the ends pass the same comparison.
describe('Sound Search: what passes the checks', () => {
	/** The calls a search made, as "limit cursor". */
	const made = async () => (await calls()).map(({ limit, cursor }) => `${limit} ${cursor}`);

	it.each<[string, INodeParameters, string[]]>([
		['the smallest limit', { limit: 1 }, ['1 null']],
		['the largest page size', { limit: 100, options: { pageSize: 100 } }, ['100 null', '50 set']],
		['a blank start cursor: the first page', { options: { startCursor: '  ' } }, ['5 null']],
		[
			'a start cursor of null: the first page',
			{ options: { startCursor: '={{ null }}' } },
			['5 null'],
		],
	])('%s', async (_case, parameters, expected) => {
		const run = await search({ query: 'lofi', limit: 5, ...parameters });

		expect(run.error).toBeUndefined();
		expect((await made()).map((call) => call.replace(/ (?!null).+$/, ' set'))).toEqual(expected);
	});

	it('takes a start cursor of 2048 characters', async () => {
		const run = await search({
			query: 'lofi',
			limit: 5,
			options: { startCursor: 'c'.repeat(2048) },
		});

		expect(run.error?.message).not.toMatch(/Start Cursor/);
		expect((await calls()).map((call) => call.cursor)).toEqual(['c'.repeat(2048)]);
	});
});

describe('the credential Base URL', () => {
	const host = () => new URL(service().url).host;
	const refusal = (shown: string) => ({
		message: `The "Base URL" of the Sound Search API credential is not an http(s) address without query, fragment or user info: ${JSON.stringify(shown)} [item 0]`,
		description: `Set it to the service address, like https://sound-search.example.com, http://127.0.0.1:4010 or https://api.vendor.example/sound-search (the node adds /v1/... to it), without a query, fragment or user info.${NOTHING_SPENT}`,
	});

	it.each([
		['not a URL', () => 'sound search'],
		['a query', () => `${service().url}/?region=eu`],
		['a fragment', () => `${service().url}/#top`],
		['user info', () => `http://user:pw@${host()}`],
		['a user name only', () => `http://user@${host()}`],
		['a password only', () => `http://:pw@${host()}`],
		['another protocol', () => `ftp://${host()}`],
		['a protocol that ends in https', () => `git+https://${host()}`],
	])('refuses %s before any request', async (_case, baseUrl) => {
		expect(await refused(searchOn(baseUrl(), { query: 'lofi' }))).toEqual(refusal(baseUrl()));
	});

	it('shows at most 80 characters of a wrong Base URL', async () => {
		const long = `${service().url}/?${'p'.repeat(100)}`;
		expect(await refused(searchOn(long, { query: 'lofi' }))).toEqual(refusal(long.slice(0, 80)));
	});

	// A call that cannot connect: the node's error, with the network code and the Base URL to check.
	it('accepts https: the call goes out (here it fails: the service speaks plain http)', async () => {
		const run = await searchOn(`https://${host()}`, { query: 'lofi', options: { maxRetries: 0 } });

		expect(run.error?.message).toBe('Could not reach the Sound Search service');
		expect(run.error?.description).toMatch(
			/^The connection failed \(E[A-Z_]+\)\. Check the Base URL/,
		);
	});

	it('accepts trailing slashes, however many', async () => {
		const run = await searchOn(`${service().url}////`, { query: 'lofi', limit: 2 });

		expect(run.error).toBeUndefined();
		expect((await calls()).map((call) => call.path)).toEqual(['/v1/shortvideo/sound/search']);
	});
});

describe('Sound Search Trigger: input', () => {
	const trigger = triggersOn(service, { keywords: 'lofi', limit: 10 });
	const asked = async () => (await calls()).map(({ q, limit }) => `${q} ${limit}`);

	it('splits keywords on commas and new lines, keeps their order, searches each once', async () => {
		await trigger({ keywords: 'lofi\nrainy  jazz, Workout,\n\nRainy Jazz, LOFI' }).poll();

		expect(await asked()).toEqual(['lofi 10', 'rainy  jazz 10', 'Workout 10']);
	});

	// Turkish kır (countryside) and kir (dirt) are the same in capitals (KIR): folding to upper
	// case would drop one. "lo fi" and "lofi" differ by more than spacing.
	it('keywords that differ in more than letter case or spacing are each searched', async () => {
		await trigger({ keywords: 'kır, kir, lo fi, lofi' }).poll();

		expect(await asked()).toEqual(['kır 10', 'kir 10', 'lo fi 10', 'lofi 10']);
	});

	it.each<[INodeParameters, string, string]>([
		[
			{ keywords: '={{ 7 }}' },
			'The "Keywords" parameter must be text, but its expression gave number 7',
			'Make the expression return a keyword string, e.g. {{ String($json.keyword) }}.',
		],
		[
			{ keywords: ', ,\n' },
			'The "Keywords" parameter has no keyword',
			'Enter one or more keywords, separated by commas or new lines.',
		],
		[
			{ event: 'risingSound', platform: 'photosocial' },
			'Rising Sound needs post counts, which the photo-and-video platform does not report',
			'Use the New Sound event on that platform, or watch the short-video platform for rising sounds.',
		],
	])('%j: refused with advice', async (parameters, message, advice) => {
		expect(await refused(trigger(parameters).poll())).toEqual({
			message: `${message} [item 0]`,
			description: `${advice}${NOTHING_SPENT}`,
		});
	});

	it.each<[string, INodeParameters, RegExp]>([
		['a limit above 1000', { limit: 1001 }, /"Limit" .* from 1 to 1000, but it is number 1001/],
		[
			'max pages above 100',
			{ options: { maxPages: 101 } },
			/"Max Pages per Keyword" .* from 1 to 100, but it is number 101/,
		],
		['remembering under 100 sounds', { options: { rememberSounds: 99 } }, /from 100 to 20000/],
		['a negative poll interval', { options: { minPollInterval: -1 } }, /from 0 to 10080/],
		['max credits of 0', { options: { maxCredits: 0 } }, /"Max Credits" .* from 1 to 10000000/],
		['negative top risers', { options: { topRisers: -1 } }, /"Top Risers per Poll" .* from 0 to/],
		['a growth window over 30 days', { options: { growthWindowHours: 720.5 } }, /but it is 720.5/],
		[
			'negative growth in %',
			{ event: 'risingSound', minGrowthPercent: -5 },
			/"Min Growth \(%\)" .* from 0 to 100000, but it is number -5/,
		],
		[
			'negative post growth',
			{ event: 'risingSound', minGrowthPosts: -1 },
			/"Min Growth \(Posts\)" .* from 0 to 100000000, but it is number -1/,
		],
	])('%s is refused', async (_case, parameters, message) => {
		expect((await refused(trigger(parameters).poll())).message).toMatch(message);
	});

	it('a growth window under 3 minutes is refused with advice', async () => {
		expect(await refused(trigger({ options: { growthWindowHours: 0.04 } }).poll())).toEqual({
			message:
				'The "Growth Window (Hours)" parameter must be a number from 0.05 to 720, but it is 0.04 [item 0]',
			description: `Set "Growth Window (Hours)" to a number of hours in that range, e.g. 24.${NOTHING_SPENT}`,
		});
	});

	it.each([0.05, 720])(
		'takes a growth window of %s hours (the ends of its range)',
		async (hours) => {
			const poll = await trigger({ options: { growthWindowHours: hours } }).poll();

			expect(poll.error).toBeUndefined();
			expect(await calls()).toHaveLength(1);
		},
	);

	it('the event is New Sound unless Rising Sound is chosen', async () => {
		const watch = trigger({ event: 'somethingElse' });
		await watch.poll();
		await service().passTime({ newSounds: { lofi: 1 } });

		expect((await watch.poll()).items).toHaveLength(1);
	});
});
