import type { INodeParameters } from 'n8n-workflow';
import { SIMPLIFIED_FIELDS } from '../harness/outputShape';
import { TOOL_TYPE } from '../harness/engine/engine';
import {
	fetchDirect,
	RAW_FIELDS,
	useReferenceService,
	type SearchExtras,
} from '../harness/engine/searchFixture';

// Version 2's Simplify and, as an AI Agent 3 tool (a node of the workflow), its Output. Version 1's
// output: platforms.test.ts; the tool n8n calls directly (MCP, AI Agent up to 2.2): toolCalls.test.ts.

const { service, search, calls } = useReferenceService();

/** Version 2, the version new nodes get. */
const V2 = { typeVersion: 2 };
const asV2 = async (parameters: INodeParameters, extras: SearchExtras = {}) =>
	await search(parameters, { ...extras, nodeSettings: { ...V2, ...extras.nodeSettings } });
/** The node as an AI Agent's tool (version 2). */
const asTool = async (parameters: INodeParameters) =>
	await search(parameters, { nodeSettings: { ...V2, type: TOOL_TYPE } });
const keysOf = (run: { items: Array<{ json: object }> }) =>
	run.items.map(({ json }) => Object.keys(json));

describe('Simplify (version 2)', () => {
	it('is on by default: 10 flat fields per sound, most used first, credits third; the tool-only Output changes nothing', async () => {
		const run = await asV2({ query: 'ocean waves', limit: 3, output: 'raw' });
		const direct = await fetchDirect(service(), 'shortvideo', { q: 'ocean waves', limit: 3 });

		expect(run.error).toBeUndefined();
		expect(keysOf(run)).toEqual([SIMPLIFIED_FIELDS, SIMPLIFIED_FIELDS, SIMPLIFIED_FIELDS]);
		run.items.forEach(({ json }, index) => {
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
		});
	});

	it('keeps the same 10 columns on the platform that reports no author, count or audio', async () => {
		const run = await asV2({ platform: 'photosocial', query: 'ocean waves', limit: 2 });

		expect(keysOf(run)).toEqual([SIMPLIFIED_FIELDS, SIMPLIFIED_FIELDS]);
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

		expect(keysOf(run)).toEqual([RAW_FIELDS, RAW_FIELDS]);
		expect(run.items[0].json.url).toMatchObject({
			url_list: expect.arrayContaining([expect.any(String)]),
		});
	});
});

describe('Output, as an AI tool', () => {
	it.each<[INodeParameters, string[]]>([
		[{ output: 'raw' }, RAW_FIELDS],
		[{ output: 'selected', fields: ['postCount', 'title'] }, ['soundId', 'postCount', 'title']],
		[{ output: 'selected', fields: [] }, ['soundId']],
		[{ output: 'selected', fields: ['soundId', 'coverImageUrl'] }, ['soundId', 'coverImageUrl']],
	])('%j sends exactly %j', async (parameters, keys) => {
		const run = await asTool({ query: 'ocean waves', limit: 2, ...parameters });

		expect(run.error).toBeUndefined();
		expect(keysOf(run)).toEqual([keys, keys]);
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
});
