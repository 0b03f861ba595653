import { Workflow, type INode, type INodeParameters } from 'n8n-workflow';
import { NODE_TYPE, nodeTypes, TRIGGER_TYPE } from '../harness/engine/engine';

// The canvas subtitles as the editor resolves them (n8n's expression engine): the search's
// platform and query (the platform alone while Query is empty), the trigger's cost per poll.

function subtitleOf(type: string, parameters: INodeParameters): unknown {
	const node: INode = {
		id: 's1',
		name: 'Node',
		type,
		typeVersion: 2,
		position: [0, 0],
		parameters,
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const { subtitle } = nodeTypes.getByName(type).description;
	return workflow.expression.getSimpleParameterValue(node, subtitle as string, 'internal', {});
}

it.each<[string, INodeParameters, string]>([
	[NODE_TYPE, { platform: 'shortvideo', query: 'lofi' }, 'shortvideo: lofi'],
	[NODE_TYPE, { platform: 'photosocial', query: '' }, 'photosocial'],
	[NODE_TYPE, { platform: 'shortvideo', query: '  ' }, 'shortvideo'],
	[NODE_TYPE, { platform: 'shortvideo' }, 'shortvideo'],
	[
		TRIGGER_TYPE,
		{ event: 'risingSound', keywords: 'lofi, rainy jazz\nworkout', limit: 50 },
		'Rising · 3 credits/poll',
	],
	[
		TRIGGER_TYPE,
		{ event: 'newSound', keywords: 'lofi', limit: 120, platform: 'photosocial' },
		'New · 6 credits/poll',
	],
])('%s %j reads "%s"', (type, parameters, subtitle) => {
	expect(subtitleOf(type, parameters)).toBe(subtitle);
});
