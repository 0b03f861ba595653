import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { testSoundSearchApi } from '../shared/credentialTest';
import { PLATFORM_PRICES } from '../shared/description';
import { operationField, resourceField, soundSearchFields } from './description';
import { searchAsTool, searchSounds } from './search';

export class SoundSearch implements INodeType {
	// n8n runs Search as this custom operation (a workflow node, an AI Agent 3 tool) or through the
	// routing below when it calls the tool directly (MCP Server Trigger): the same run (search.ts).
	customOperations = { sound: { search: searchSounds } };

	// The credential's test (nodes/shared/credentialTest.ts), named by `testedBy` below.
	methods = { credentialTest: { soundSearchApiTest: testSoundSearchApi } };

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
		// "shortvideo: lofi"; the platform alone while Query is empty (not "shortvideo:").
		subtitle:
			'={{ $parameter["platform"] + (String($parameter["query"] || "").trim() ? ": " + $parameter["query"] : "") }}',
		// Also the tool's description n8n pre-fills for a model: the prices by value, what comes back.
		description: `Search public sounds (audio tracks) by keyword on a short-video or a photo-and-video platform (${PLATFORM_PRICES}). Returns each sound's title, author, post count and audio URL, with the credits the call cost`,
		defaults: { name: 'Sound Search' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'soundSearchApi', required: true, testedBy: 'soundSearchApiTest' }],
		// Only the credential's host receives the key: cursors and values go as query values.
		requestDefaults: { headers: { Accept: 'application/json' } },
		properties: [
			resourceField,
			// `paginate` makes n8n's routing node hand each tool call to searchAsTool.
			operationField({
				request: { method: 'GET' },
				send: { paginate: true },
				operations: { pagination: searchAsTool },
			}),
			...soundSearchFields,
		],
	};
}
