import { SIMPLIFIED_FIELDS } from '../harness/outputShape';
import { RAW_FIELDS, fetchDirect, useReferenceService } from '../harness/engine/searchFixture';

// The node as an AI tool that n8n calls directly: the MCP Server Trigger, AI Agent up to 2.2 and
// sub-agents (n8n runs the node's routing, not its custom operation). AI Agent 3 runs the tool as a
// node of the workflow: output.test.ts covers that path.

const { service, callTool, calls } = useReferenceService();

const QUERY = "={{ $fromAI('query', 'Keyword to search sounds for', 'string') }}";

describe('the node as a tool n8n calls directly (MCP, AI Agent up to 2.2)', () => {
	it('answers with every sound of the page, Simplified by default', async () => {
		const expected = await fetchDirect(service(), 'shortvideo', { q: 'ocean waves', limit: 3 });
		await service().reset();

		const { answers } = await callTool({ query: QUERY, limit: 3 }, [{ query: 'ocean waves' }]);

		const [{ response }] = answers as Array<{ response: Array<Record<string, unknown>> }>;
		expect(response.map((sound) => sound.soundId)).toEqual(
			expected.items.map((sound) => sound.soundId),
		);
		expect(Object.keys(response[0])).toEqual(SIMPLIFIED_FIELDS);
		expect(response.every((sound) => sound.creditsCharged === 1)).toBe(true);
	});

	it('Raw and Selected Fields as the tool Output says', async () => {
		const { answers } = await callTool({ query: QUERY, limit: 2, output: 'raw' }, [
			{ query: 'lofi' },
		]);
		const selected = await callTool(
			{ query: QUERY, limit: 2, output: 'selected', fields: ['title'] },
			[{ query: 'lofi' }],
		);

		const keys = (answer: Record<string, unknown>) =>
			(answer.response as Array<Record<string, unknown>>).map(Object.keys);
		expect(keys(answers[0])).toEqual([RAW_FIELDS, RAW_FIELDS]);
		expect(keys(selected.answers[0])).toEqual([
			['soundId', 'title'],
			['soundId', 'title'],
		]);
	});

	it('Return All follows nextCursor page after page, within Max Credits', async () => {
		const { answers } = await callTool(
			{ query: QUERY, returnAll: true, options: { pageSize: 5, maxCredits: 2 } },
			[{ query: 'ocean waves' }],
		);

		expect(answers[0].error).toMatch(/reached its Max Credits \(2\)/);
		expect((await calls()).map((call) => call.status)).toEqual([200, 200]);
	});

	it('waits out a rate limit (429 with Retry-After) and goes on, as the workflow node does', async () => {
		await service().injectFaults([{ response: { status: 429, headers: { 'Retry-After': '1' } } }]);

		const { answers } = await callTool({ query: QUERY, limit: 2 }, [{ query: 'rain' }]);

		expect((answers[0].response as unknown[]).length).toBe(2);
		expect((await calls()).map((call) => call.status)).toEqual([429, 200]);
	});

	it('a bad argument fails before any call, naming the field', async () => {
		const { answers } = await callTool({ query: QUERY, limit: 2 }, [{ query: '  ' }]);

		expect(answers[0].error).toMatch(/The "Query" parameter is empty \[item 0\]/);
		expect(await calls()).toEqual([]);
	});
});
