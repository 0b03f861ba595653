import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { soundOperations } from './resources/sound';

export class SoundSearch implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Sound Search',
		name: 'soundSearch',
		icon: {
			light: 'file:../../icons/soundSearch.svg',
			dark: 'file:../../icons/soundSearch.dark.svg',
		},
		group: ['input'],
		version: 1,
		subtitle: '={{$parameter["platform"] + ": " + $parameter["query"]}}',
		description:
			'Search public sounds (audio tracks) by keyword on a short-video or a photo-and-video platform, with the credits each call cost',
		defaults: { name: 'Sound Search' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'soundSearchApi', required: true }],
		requestDefaults: {
			// Only the credential's host ever receives the key: cursors and response values are
			// sent as query values, never used to build the URL.
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			headers: { Accept: 'application/json' },
		},
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
