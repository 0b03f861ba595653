import type { INodeParameters } from 'n8n-workflow';
import { TOOL_TYPE } from '../harness/engine/engine';
import {
	fetchDirect,
	RAW_FIELDS,
	useReferenceService,
	type SearchExtras,
} from '../harness/engine/searchFixture';

const { service, search, calls } = useReferenceService();

/** Version 2, the version new nodes get. */
const V2 = { typeVersion: 2 };
const asV2 = async (parameters: INodeParameters, extras: SearchExtras = {}) =>
	await search(parameters, { ...extras, nodeSettings: { ...V2, ...extras.nodeSettings } });
/** The node as an AI Agent's tool (version 2). */
const asTool = async (parameters: INodeParameters) =>
	await search(parameters, { nodeSettings: { ...V2, type: TOOL_TYPE } });

const SIMPLIFIED = [
	'soundId',
	'title',
	'creditsCharged',
	'authorName',
	'postCount',
	'query',
	'platform',
	'audioUrl',
	'durationSeconds',
	'fetchedAt',
];

describe('Simplify (version 2)', () => {
	it('is on by default: 10 flat fields per sound, most used first, credits third', async () => {
		const run = await asV2({ query: 'ocean waves', limit: 3 });
		const direct = await fetchDirect(service(), 'shortvideo', { q: 'ocean waves', limit: 3 });

		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(3);
		run.items.forEach(({ json }, index) => {
			expect(Object.keys(json)).toEqual(SIMPLIFIED);
			const sound = direct.items[index] as Record<string, unknown> & {
				url: { url_list: string[] };
			};
			expect(json).toEqual({
				soundId: sound.soundId,
				title: sound.title,
				creditsCharged: 1,
				authorName: sound.authorName,
				postCount: sound.postCount,
				query: 'ocean waves',
				platform: 'shortvideo',
				// The nested media object, flattened to its first location.
				audioUrl: sound.url.url_list[0],
				durationSeconds: sound.durationSeconds,
				fetchedAt: sound.fetchedAt,
			});
			expect(
				Object.values(json).every((value) => typeof value !== 'object' || value === null),
			).toBe(true);
		});
	});

	it('keeps the same 10 columns on the platform that reports no author, count or audio', async () => {
		const run = await asV2({ platform: 'photosocial', query: 'ocean waves', limit: 2 });

		expect(run.items.map(({ json }) => Object.keys(json))).toEqual([SIMPLIFIED, SIMPLIFIED]);
		expect(run.items[0].json).toMatchObject({
			authorName: null,
			postCount: null,
			audioUrl: null,
			creditsCharged: 2,
			platform: 'photosocial',
		});
		expect(typeof run.items[0].json.soundId).toBe('string');
	});

	it('off: every field of the service, media objects included, with creditsCharged and page', async () => {
		const run = await asV2({ query: 'ocean waves', limit: 2, simplify: false });

		expect(run.items.map(({ json }) => Object.keys(json))).toEqual([RAW_FIELDS, RAW_FIELDS]);
		expect(run.items[0].json.url).toMatchObject({
			url_list: expect.arrayContaining([expect.any(String)]),
		});
	});

	it('as a plain node, the tool-only Output parameter changes nothing', async () => {
		const run = await asV2({ query: 'ocean waves', limit: 1, output: 'raw' });

		expect(Object.keys(run.items[0].json)).toEqual(SIMPLIFIED);
	});
});

describe('version 1, as saved workflows have it', () => {
	it('"Simplify Output" still gives every field flat, with platform and query', async () => {
		const run = await search({ query: 'ocean waves', limit: 1, options: { simplify: true } });

		expect(Object.keys(run.items[0].json)).toEqual([
			...['soundId', 'title', 'authorName', 'postCount', 'durationSeconds', 'audioUrl'],
			...['coverImageUrl', 'fetchedAt', 'cached', 'cacheAgeSeconds', 'platform', 'query'],
			...['creditsCharged', 'page'],
		]);
	});

	it('without it, the service fields unchanged; a version 2 parameter left in is ignored', async () => {
		const run = await search({ query: 'ocean waves', limit: 1, simplify: true });

		expect(Object.keys(run.items[0].json)).toEqual(RAW_FIELDS);
	});
});

describe('Output, as an AI tool', () => {
	it('defaults to Simplified', async () => {
		const run = await asTool({ query: 'ocean waves', limit: 2 });

		expect(run.items.map(({ json }) => Object.keys(json))).toEqual([SIMPLIFIED, SIMPLIFIED]);
	});

	it('Raw sends every field', async () => {
		const run = await asTool({ query: 'ocean waves', limit: 2, output: 'raw' });

		expect(run.items.map(({ json }) => Object.keys(json))).toEqual([RAW_FIELDS, RAW_FIELDS]);
	});

	it.each([
		[
			['postCount', 'title'],
			['soundId', 'postCount', 'title'],
		],
		[[], ['soundId']],
		[
			['soundId', 'coverImageUrl'],
			['soundId', 'coverImageUrl'],
		],
	])('Selected Fields %j sends exactly %j', async (fields, keys) => {
		const run = await asTool({ query: 'ocean waves', limit: 2, output: 'selected', fields });

		expect(run.error).toBeUndefined();
		expect(run.items.map(({ json }) => Object.keys(json))).toEqual([keys, keys]);
		expect(run.items.every(({ json }) => typeof json.soundId === 'string')).toBe(true);
	});

	it('Selected Fields with a field that does not exist fails before any call', async () => {
		const run = await asTool({ query: 'ocean waves', output: 'selected', fields: ['lyrics'] });

		expect(run.error?.message).toMatch(
			/^The "Output" parameter is not a known choice.*\[item 0\]$/,
		);
		expect(run.error?.description).toMatch(/audioUrl, authorName/);
		expect(await calls()).toEqual([]);
	});

	it('for Limit 10, Simplified sends the model less than half of what Raw sends (docs/output.md has the figures)', async () => {
		const bytes = async (parameters: INodeParameters) => {
			const run = await asTool({ query: 'lofi', limit: 10, ...parameters });
			return Buffer.byteLength(JSON.stringify(run.items.map(({ json }) => json)));
		};
		const raw = await bytes({ output: 'raw' });
		const simplified = await bytes({});
		const selected = await bytes({ output: 'selected', fields: ['title', 'postCount'] });

		expect(simplified).toBeLessThan(raw / 2);
		expect(selected).toBeLessThan(simplified);
	});
});
