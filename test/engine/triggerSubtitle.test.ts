import { Workflow, type INode } from 'n8n-workflow';
import { nodeTypes, TRIGGER_TYPE } from '../harness/engine/engine';
import { SoundSearchTrigger } from '../../nodes/SoundSearchTrigger/SoundSearchTrigger.node';

// The canvas subtitle: what one poll costs, short enough not to be cut ("Rising · 3 credits/poll").

function subtitleFor(parameters: INode['parameters']): unknown {
	const node: INode = {
		id: 's1',
		name: 'Sound Search Trigger',
		type: TRIGGER_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters,
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const { subtitle } = new SoundSearchTrigger().description;
	return workflow.expression.getSimpleParameterValue(node, subtitle as string, 'internal', {});
}

it.each([
	[
		{ event: 'risingSound', keywords: 'lofi, rainy jazz\nworkout', limit: 50 },
		'Rising · 3 credits/poll',
	],
	[
		{ event: 'newSound', keywords: 'lofi', limit: 120, platform: 'photosocial' },
		'New · 6 credits/poll',
	],
])('%j reads "%s"', (parameters, subtitle) => {
	expect(subtitleFor(parameters)).toBe(subtitle);
});
