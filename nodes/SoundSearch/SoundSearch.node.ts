import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { PLATFORM_PRICES } from '../shared/description';
import { operationField, resourceField, soundSearchFields } from './description';
import { searchAsTool, searchSounds } from './search';

export class SoundSearch implements INodeType {
	// n8n runs Search two ways, both into the same search run (search.ts): as this custom operation
	// for a workflow node and an AI Agent 3 tool, and through the routing below (its pagination)
	// when it calls the node as a tool directly (MCP Server Trigger, AI Agent up to 2.2).
	customOperations = { sound: { search: searchSounds } };

	description: INodeTypeDescription = {
		displayName: 'Sound Search',
		name: 'soundSearch',
		icon: {
			light: 'file:../../icons/soundSearch.svg',
			dark: 'file:../../icons/soundSearch.dark.svg',
		},
		group: ['input'],
		// 2: Simplify and the AI tool's Output as n8n's UX guidelines define them (CHANGELOG).
		version: [1, 2],
		defaultVersion: 2,
		subtitle: '={{$parameter["platform"] + ": " + $parameter["query"]}}',
		// Also what n8n pre-fills as the tool's description for a model (Set Manually): the prices
		// by parameter value, and what comes back.
		description: `Search public sounds (audio tracks) by keyword on a short-video or a photo-and-video platform (${PLATFORM_PRICES}). Returns each sound's title, author, post count and audio URL, with the credits the call cost`,
		defaults: { name: 'Sound Search' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'soundSearchApi', required: true }],
		// Only the credential's host ever receives the key: the run reads its Base URL once, and
		// cursors and response values are sent as query values, never in the URL.
		requestDefaults: { headers: { Accept: 'application/json' } },
		properties: [
			resourceField,
			// The request is built by the search run from checked values; `paginate` makes n8n's
			// routing node hand each tool call to searchAsTool.
			operationField({
				request: { method: 'GET' },
				send: { paginate: true },
				operations: { pagination: searchAsTool },
			}),
			...soundSearchFields,
		],
	};
}
