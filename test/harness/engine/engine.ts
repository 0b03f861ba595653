import { DirectoryLoader, ExecutionLifecycleHooks, RoutingNode, WorkflowExecute } from 'n8n-core';
import {
	createRunExecutionData,
	NodeConnectionTypes,
	sleep,
	type IConnections,
	Workflow,
	type IDataObject,
	type IExecuteData,
	type IExecuteFunctions,
	type INode,
	type INodeExecutionData,
	type INodeParameters,
	type INodeType,
	type INodeTypes,
	type IRun,
	type IWorkflowBase,
	type IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { SoundSearchApi } from '../../../credentials/SoundSearchApi.credentials';
import { SoundSearch } from '../../../nodes/SoundSearch/SoundSearch.node';
import { SoundSearchTrigger } from '../../../nodes/SoundSearchTrigger/SoundSearchTrigger.node';
import { TestCredentialsHelper } from './credentialsHelper';
import { ToolCaller } from './toolCaller';

export const NODE_TYPE = 'n8n-nodes-sound-search.soundSearch';
const NODE_NAME = 'Sound Search';
export const TRIGGER_TYPE = 'n8n-nodes-sound-search.soundSearchTrigger';
/** The node as an AI tool, as n8n serves it (convertNodeToAiTool): no main input, one ai_tool output. */
export const TOOL_TYPE = `${NODE_TYPE}Tool`;
/** The credential a node under test refers to (its data comes from the test). */
export const CREDENTIAL = { soundSearchApi: { id: 'c1', name: 'Sound Search account' } };

/**
 * A declarative node as n8n's loader and NodeTypes serve it (n8n/dist/node-types.js): with the
 * "Request Options" setting, and an execute method that runs the RoutingNode in the execution's
 * context, so the node gets the execution's cancel signal (n8n-core's fallback passes none).
 */
function asServedByN8n(nodeType: INodeType, tool = false): INodeType {
	DirectoryLoader.applyDeclarativeNodeOptionParameters(nodeType);
	if (tool) {
		const name = `${nodeType.description.name}Tool`;
		const outputs = [NodeConnectionTypes.AiTool];
		nodeType.description = { ...nodeType.description, name, inputs: [], outputs };
	}
	nodeType.execute = async function (this: IExecuteFunctions) {
		const context = this as unknown as ConstructorParameters<typeof RoutingNode>[0];
		return (await new RoutingNode(context, nodeType).runNode()) ?? [];
	};
	return nodeType;
}

const registry: Record<string, INodeType> = {
	[NODE_TYPE]: asServedByN8n(new SoundSearch()),
	[TOOL_TYPE]: asServedByN8n(new SoundSearch(), true),
	[TRIGGER_TYPE]: new SoundSearchTrigger(),
	'test.toolCaller': new ToolCaller(),
};
export const nodeTypes: INodeTypes = {
	getByName: (type) => registry[type],
	getByNameAndVersion: (type) => registry[type],
	getKnownTypes: () => ({}),
};

export interface SearchRun {
	/** Items on the node's first (main) output. */
	items: INodeExecutionData[];
	/** Items on its second output, with "Continue (using error output)". */
	errorItems: INodeExecutionData[];
	error?: Error & { description?: string; context?: IDataObject; httpCode?: string | null };
	run: IRun;
}

export type Credentials = { apiKey: string; baseUrl: string };

export interface SearchRunOptions {
	parameters: INodeParameters;
	input?: IDataObject[];
	credentials: Credentials;
	/** Node settings such as { onError: 'continueRegularOutput' } or { retryOnFail: true }. */
	nodeSettings?: Partial<INode>;
	/** Cancels the execution this long after it starts, as the editor's Stop button does. */
	cancelAfterMs?: number;
}

/** Runs the Sound Search node on `input` through n8n-core's WorkflowExecute. */
export async function runSoundSearch(options: SearchRunOptions): Promise<SearchRun> {
	const { parameters, nodeSettings, input = [{}], credentials, cancelAfterMs } = options;
	const node = { type: NODE_TYPE, parameters, ...nodeSettings };
	return await runNode(node, input, credentials, { cancelAfterMs });
}

/**
 * Calls the node as an AI tool the way n8n's MCP Server Trigger and AI Agent up to 2.2 do
 * (toolCaller.ts): one call per entry of `calls`, each the arguments the model sends; each answer
 * is `{ response }` (the items' json) or `{ error }`. (AI Agent 3 runs the tool node as a node of
 * the workflow: runSoundSearch with the TOOL_TYPE.)
 */
export async function runAsTool(
	options: Omit<SearchRunOptions, 'input'> & { calls: IDataObject[] },
): Promise<{ answers: IDataObject[]; run: IRun }> {
	const { parameters, nodeSettings, calls, credentials } = options;
	const tool = { type: TOOL_TYPE, typeVersion: 2, parameters, ...nodeSettings };
	const caller = { id: '2', name: CALLER, type: 'test.toolCaller', typeVersion: 1 };
	const connections = {
		[NODE_NAME]: { ai_tool: [[{ node: CALLER, type: NodeConnectionTypes.AiTool, index: 0 }]] },
	};
	const { run } = await runNode(caller, calls, credentials, { others: [tool], connections });
	const output = run.data.resultData.runData[CALLER]?.[0]?.data?.main?.[0] ?? [];
	return { answers: output.map(({ json }) => json), run };
}
const CALLER = 'Tool Caller';

type NodeSettings = Pick<INode, 'type'> & Partial<INode>;
/** What a run has besides its first node: nodes connected to it, a cancel. */
type RunShape = { cancelAfterMs?: number; others?: NodeSettings[]; connections?: IConnections };

const nodeOf = (settings: NodeSettings): INode => ({
	id: '1',
	name: NODE_NAME,
	typeVersion: 1,
	position: [0, 0],
	credentials: CREDENTIAL,
	parameters: {},
	...settings,
});

/** Runs from one node, its input items handed to it as an upstream node's output would be. */
async function runNode(
	settings: NodeSettings,
	input: IDataObject[],
	credentials: Credentials,
	shape: RunShape = {},
): Promise<SearchRun> {
	const start = { node: nodeOf(settings), data: { main: [input.map((json) => ({ json }))] } };
	const run = await everyRun.wrap(
		credentials.apiKey,
		async () => await execute({ ...start, source: null }, credentials, shape),
		(result) => ({
			'the run data (items and errors)': JSON.stringify(result.data),
			'the error': errorText(result.data.resultData.error as SearchRun['error']),
		}),
	);
	const output = run.data.resultData.runData[NODE_NAME]?.[0]?.data?.main ?? [];
	const error = run.data.resultData.error as SearchRun['error'];
	return { items: output[0] ?? [], errorItems: output[1] ?? [], error, run };
}

/** An error's texts that a user can see: message, description and stack. */
export const errorText = (error?: Error & { description?: string | null }) =>
	[error?.message, error?.description, error?.stack].join('\n');

/** Texts of a run's result to search for the API key, by where they are. */
export type RunTexts<T> = (result: T) => Record<string, string>;

/**
 * Every engine run (a search, a credential test, a trigger's poll) goes through `wrap`: the engine
 * tests set it to their key-leak check (keyLeak.ts); elsewhere (the demo) it just runs.
 */
export const everyRun: {
	wrap: <T>(apiKey: string, run: () => Promise<T>, textsOf: RunTexts<T>) => Promise<T>;
} = { wrap: async (_apiKey, run) => await run() };

// n8n builds $resumeWebhookUrl-style values from these (`<name>Url`); never contacted.
const URL_NAMES = ['restApi', 'instanceBase', 'mcpBase', 'mcpTestBase', 'webhookBase'].concat([
	'webhookWaitingBase',
	'webhookTestBase',
	'formBase',
	'formWaitingBase',
	'formTestBase',
]);

/** What n8n hands a node besides its parameters: here, the test's credential. */
export function additionalDataFor(
	credentials: Credentials,
	hooks?: ExecutionLifecycleHooks,
): IWorkflowExecuteAdditionalData {
	return {
		hooks,
		credentialsHelper: new TestCredentialsHelper(
			{ soundSearchApi: new SoundSearchApi() },
			{ soundSearchApi: credentials },
		),
		currentNodeExecutionIndex: 0,
		variables: {},
		...Object.fromEntries(URL_NAMES.map((key) => [`${key}Url`, 'http://127.0.0.1:5678/'])),
		logAiEvent: () => {},
	} as unknown as IWorkflowExecuteAdditionalData;
}

async function execute(
	start: IExecuteData,
	credentials: Credentials,
	{ cancelAfterMs, others = [], connections = {} }: RunShape,
): Promise<IRun> {
	const nodes = [start.node, ...others.map(nodeOf)];
	const workflow = new Workflow({ id: 'w1', nodes, connections, nodeTypes, active: false });
	const hooks = new ExecutionLifecycleHooks('manual', 'e1', { id: 'w1' } as IWorkflowBase);
	const finished = new Promise<IRun>((resolve) =>
		hooks.addHandler('workflowExecuteAfter', resolve),
	);
	const additionalData = additionalDataFor(credentials, hooks);
	const runData = createRunExecutionData({ executionData: { nodeExecutionStack: [start] } });
	try {
		const running = new WorkflowExecute(additionalData, 'manual', runData).processRunExecutionData(
			workflow,
		);
		if (cancelAfterMs !== undefined) void sleep(cancelAfterMs).then(() => running.cancel());
		await running;
	} catch (error) {
		// n8n refuses some workflows before running any node (e.g. a required parameter left empty).
		return { data: { resultData: { runData: {}, error } } } as unknown as IRun;
	}
	return await finished;
}
