import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

interface Tool {
	invoke(args: object): Promise<string>;
}

/**
 * Calls its connected tool the way n8n's MCP Server Trigger, AI Agent up to 2.2 and sub-agents do
 * (n8n-core's getInputConnectionData → createNodeAsTool → `tool.invoke`): n8n runs the tool node's
 * `execute` in a SupplyDataContext, for a declarative node its routing node. One tool call per
 * input item, the item's json being the call's arguments. Each output item holds what the model
 * would read: the `response` (the tool's items' json) or the `error` n8n hands it.
 */
export class ToolCaller implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Tool Caller',
		name: 'toolCaller',
		group: ['transform'],
		version: 1,
		description: 'Calls the connected tool once per input item',
		defaults: { name: 'Tool Caller' },
		// Lint asks every node class for it; this test node is never served as a tool.
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main, { type: NodeConnectionTypes.AiTool, required: true }],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const [tool] = (await this.getInputConnectionData(NodeConnectionTypes.AiTool, 0)) as Tool[];
		const answers: INodeExecutionData[] = [];
		for (const { json } of this.getInputData()) {
			try {
				answers.push({ json: { response: JSON.parse(await tool.invoke(json)) } });
			} catch (error) {
				answers.push({ json: { error: (error as Error).message } });
			}
		}
		return [answers];
	}
}
