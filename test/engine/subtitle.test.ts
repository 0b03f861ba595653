import { Workflow, type INode } from 'n8n-workflow';
import { NODE_TYPE, nodeTypes } from '../harness/engine/engine';
import { SoundSearch } from '../../nodes/SoundSearch/SoundSearch.node';

// The Sound Search node's canvas subtitle, resolved by n8n's expression engine as the editor does:
// the platform and the query, or the platform alone while Query is still empty.

function subtitleFor(parameters: INode['parameters']): unknown {
	const node: INode = {
		id: 's1',
		name: 'Sound Search',
		type: NODE_TYPE,
		typeVersion: 2,
		position: [0, 0],
		parameters,
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const { subtitle } = new SoundSearch().description;
	return workflow.expression.getSimpleParameterValue(node, subtitle as string, 'internal', {});
}

it.each([
	[{ platform: 'shortvideo', query: 'lofi' }, 'shortvideo: lofi'],
	[{ platform: 'photosocial', query: '' }, 'photosocial'],
	[{ platform: 'shortvideo', query: '  ' }, 'shortvideo'],
	[{ platform: 'shortvideo' }, 'shortvideo'],
])('%j reads "%s"', (parameters, subtitle) => {
	expect(subtitleFor(parameters)).toBe(subtitle);
});
