import { PollContext } from 'n8n-core';
import {
	Workflow,
	type IDataObject,
	type INode,
	type INodeParameters,
	type INodeType,
} from 'n8n-workflow';
import {
	additionalDataFor,
	CREDENTIAL,
	errorText,
	everyRun,
	nodeTypes,
	TRIGGER_TYPE,
	type Credentials,
	type SearchRun,
} from './engine';

export type Poll = Pick<SearchRun, 'items' | 'error'>;

/**
 * A Sound Search Trigger as n8n polls it: each poll gets a fresh Workflow built from the static
 * data the previous poll left (n8n saves it with the workflow, and loads it again after a
 * restart), a PollContext in 'trigger' mode (an active workflow) or 'manual' ("Fetch Test Event").
 */
export class TriggerUnderTest {
	staticData: IDataObject = {};

	private readonly node: INode;

	constructor(
		parameters: INodeParameters,
		private readonly credentials: Credentials,
	) {
		this.node = {
			id: 't1',
			name: 'Sound Search Trigger',
			type: TRIGGER_TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters,
			credentials: CREDENTIAL,
		};
	}

	async poll(mode: 'trigger' | 'manual' = 'trigger'): Promise<Poll> {
		const workflow = new Workflow({
			id: 'w1',
			nodes: [this.node],
			connections: {},
			nodeTypes,
			active: true,
			staticData: JSON.parse(JSON.stringify(this.staticData)) as IDataObject,
		});
		const context = new PollContext(
			workflow,
			this.node,
			additionalDataFor(this.credentials),
			mode,
			'activate',
		);
		const trigger = nodeTypes.getByName(TRIGGER_TYPE) as INodeType;
		const poll = await everyRun.wrap(
			this.credentials.apiKey,
			async (): Promise<Poll> => {
				try {
					return { items: (await trigger.poll?.call(context))?.[0] ?? [] };
				} catch (error) {
					return { items: [], error: error as Poll['error'] };
				}
			},
			({ items, error }) => ({ 'the items': JSON.stringify(items), 'the error': errorText(error) }),
		);
		this.staticData = JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject;
		return poll;
	}

	/** The sounds the trigger remembers, as stored. */
	remembered(): Record<string, unknown[]> {
		const node = this.staticData[`node:${this.node.name}`] as IDataObject | undefined;
		return ((node?.trends as IDataObject | undefined)?.sounds ?? {}) as Record<string, unknown[]>;
	}
}
