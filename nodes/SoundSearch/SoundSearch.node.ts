import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { soundOperations } from './resources/sound';
import { PLATFORM_PRICES } from './shared/platforms';
import { searchSounds } from './shared/searchOperation';

export class SoundSearch implements INodeType {
	// Search runs in the node's execute context so that it can show what the run cost (an
	// execution hint); the declarative routing stays for n8n versions that run a tool without it.
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
		// Only the credential's host ever receives the key: the paginator reads its Base URL once
		// per run, and cursors and response values are sent as query values, never in the URL.
		requestDefaults: { headers: { Accept: 'application/json' } },
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [{ name: 'Sound', value: 'sound' }],
				default: 'sound',
			},
			...soundOperations,
		],
	};
}
