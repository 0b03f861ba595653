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
import { API_KEY, fetchDirect, type ReferenceService } from './searchFixture';

/** `emitted`: the poll returned items for n8n to start an execution with (not null: nothing new). */
export type Poll = Pick<SearchRun, 'items' | 'error'> & { emitted?: boolean };

/**
 * A Sound Search Trigger as n8n polls it: each poll gets a fresh Workflow built from the static
 * data the previous poll left (n8n saves it with the workflow, and loads it again after a
 * restart), a PollContext in 'trigger' mode (an active workflow) or 'manual' ("Fetch Test Event").
 * Version 1 unless told: the trend tests read the full items, which version 2 simplifies.
 */
export class TriggerUnderTest {
	staticData: IDataObject = {};

	private readonly node: INode;

	constructor(
		parameters: INodeParameters,
		private readonly credentials: Credentials,
		typeVersion = 1,
	) {
		this.node = {
			id: 't1',
			name: 'Sound Search Trigger',
			type: TRIGGER_TYPE,
			typeVersion,
			position: [0, 0],
			parameters,
			credentials: CREDENTIAL,
		};
	}

	/**
	 * `pollBudgetMs`: the time budget n8n gives the poll (n8n 2.39+; PollContext's 5 minutes unless
	 * given); null: none, as n8n before 2.39 (no getPollBudgetMs).
	 */
	async poll(
		mode: 'trigger' | 'manual' = 'trigger',
		{ pollBudgetMs }: { pollBudgetMs?: number | null } = {},
	): Promise<Poll> {
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
			// n8n-core's own __emit, __emitError, __commitCursor, __runPoll and static data.
			...([undefined, undefined, undefined, undefined, undefined] as const),
			typeof pollBudgetMs === 'number' ? () => pollBudgetMs : undefined,
		);
		if (pollBudgetMs === null) Object.assign(context, { getPollBudgetMs: undefined });
		const trigger = nodeTypes.getByName(TRIGGER_TYPE) as INodeType;
		const poll = await everyRun.wrap(
			this.credentials.apiKey,
			async (): Promise<Poll> => {
				try {
					const response = await trigger.poll?.call(context);
					return { items: response?.[0] ?? [], emitted: response !== null };
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

/**
 * Makes triggers on the reference service with the test key, polled back to back: no minimum
 * interval unless the options give one. A test's parameters and options go over `defaults`.
 */
export function triggersOn(service: () => ReferenceService, defaults: INodeParameters = {}) {
	return (parameters: INodeParameters = {}, typeVersion = 1) => {
		const options = {
			minPollInterval: 0,
			...(defaults.options as IDataObject),
			...(parameters.options as IDataObject),
		};
		return new TriggerUnderTest(
			{ platform: 'shortvideo', ...defaults, ...parameters, options },
			{ apiKey: API_KEY, baseUrl: service().url },
			typeVersion,
		);
	};
}

/**
 * The clock a trend test moves in days: the trigger's (Date.now, which the poll reads) and the
 * reference service's (its post counts grow with its days) move together. Each test starts at
 * the real time, day 0.
 */
export function useTrendClock(service: () => ReferenceService) {
	let offsetMs = 0;
	let days = 0;
	beforeEach(() => {
		[offsetMs, days] = [0, 0];
		const realNow = Date.now.bind(Date);
		jest.spyOn(Date, 'now').mockImplementation(() => realNow() + offsetMs);
	});
	afterEach(() => jest.restoreAllMocks());
	return {
		/** Moves both clocks on; `serviceToo: false` moves only the trigger's (no growth). */
		async advance(byDays: number, { serviceToo = true } = {}) {
			offsetMs += byDays * 86_400_000;
			days += byDays;
			if (serviceToo) await service().passTime({ days: byDays });
		},
		day: () => days,
	};
}

/** Scripts the first `scripts.length` sounds of a keyword (reference-service/trends.js). */
export async function scriptSounds(
	service: ReferenceService,
	query: string,
	scripts: Record<string, unknown>[],
): Promise<string[]> {
	for (const [index, script] of scripts.entries()) {
		await service.setTrend({ query, index, ...script });
	}
	const { items } = await fetchDirect(service, 'shortvideo', { q: query, limit: scripts.length });
	return items.map((sound) => String(sound.soundId));
}
