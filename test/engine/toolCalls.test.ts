import { SIMPLIFIED_FIELDS } from '../harness/outputShape';
import { fetchDirect, useReferenceService } from '../harness/engine/searchFixture';

// The node as an AI tool that n8n calls directly: the MCP Server Trigger, AI Agent up to 2.2 and
// sub-agents (n8n runs the node's routing, not its custom operation). AI Agent 3 runs the tool as a
// node of the workflow: output.test.ts covers that path and the Output modes of both. Both paths
// run the same search run as the workflow node (limiter, retries, Max Credits: faults.test.ts,
// budget.test.ts).

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

	it('a bad argument fails before any call, naming the field', async () => {
		const { answers } = await callTool({ query: QUERY, limit: 2 }, [{ query: '  ' }]);

		expect(answers[0].error).toMatch(/The "Query" parameter is empty \[item 0\]/);
		expect(await calls()).toEqual([]);
	});
});
