import type { INodeProperties } from 'n8n-workflow';

/**
 * The Limit field both nodes show: n8n's convention for it (default 50) with each node's own
 * ceiling (the action node pages through up to 100,000 sounds, a trigger poll through 1,000).
 */
export function limitField(
	maxValue: number,
	displayOptions?: INodeProperties['displayOptions'],
): INodeProperties {
	return {
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		...(displayOptions && { displayOptions }),
		typeOptions: { minValue: 1, maxValue },
		default: 50,
		description: 'Max number of results to return',
	};
}
