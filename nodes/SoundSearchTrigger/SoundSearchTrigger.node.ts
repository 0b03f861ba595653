import {
	NodeConnectionTypes,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';
import { testSoundSearchApi } from '../shared/credentialTest';
import { triggerFields } from './description';
import { pollTrends } from './trendPoll';

export class SoundSearchTrigger implements INodeType {
	// The credential's test, run when it is saved or opened (nodes/shared/credentialTest.ts), named by `testedBy` below.
	methods = { credentialTest: { soundSearchApiTest: testSoundSearchApi } };

	description: INodeTypeDescription = {
		displayName: 'Sound Search Trigger',
		name: 'soundSearchTrigger',
		icon: {
			light: 'file:../../icons/soundSearch.svg',
			dark: 'file:../../icons/soundSearch.dark.svg',
		},
		group: ['trigger'],
		// 2: Simplify as n8n's UX guidelines define it (CHANGELOG); version 1 keeps Simplify Output.
		version: [1, 2],
		defaultVersion: 2,
		// What one poll costs, visible on the canvas before it runs.
		subtitle:
			'={{ ({ risingSound: "Rising", breakoutSound: "Breakout" }[$parameter["event"]] || "New") + " · " + String($parameter["keywords"] || "").split(/[,\\n]/).filter((k) => k.trim() !== "").length * Math.ceil(($parameter["limit"] || 50) / 50) * ($parameter["platform"] === "photosocial" ? 2 : 1) + " credits/poll" }}',
		description:
			'Starts a workflow when new sounds appear, or sounds rise or break out, for your keywords on a short-video or a photo-and-video platform',
		defaults: { name: 'Sound Search Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'soundSearchApi', required: true, testedBy: 'soundSearchApiTest' }],
		properties: triggerFields,
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollTrends.call(this);
	}
}
