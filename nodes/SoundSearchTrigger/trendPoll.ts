import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { checkBaseUrl, type SearchInput } from '../shared/input';
import { SearchRun, serviceKeyOf, type CreditTally } from '../shared/run';
import { searchSender, type SearchPage } from '../shared/transport';
import { readTriggerInput } from './triggerInput';
import { simplifyTrendItem, trendItems } from './trendItems';
import { TrendState } from './trendState';
import { earlyTolerance } from './trendWindow';
import { manualNotice, NO_COST } from './manualNotice';

/** Waiting on rate limits may take this share of n8n's poll budget at most (the rest is work). */
const RATE_LIMIT_SHARE_OF_BUDGET = 0.5;
const DEFAULT_RATE_LIMIT_WAIT_S = 120;

/**
 * One poll: one search per keyword through the same request path as the action node, then the
 * new or rising sounds. All or nothing: when a keyword's search fails the poll fails and the
 * trigger's memory is left as it was, so no sound is marked seen that was not emitted.
 */
export async function pollTrends(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const at = { node: this.getNode(), itemIndex: 0 };
	const input = readTriggerInput(
		(name, fallback) => this.getNodeParameter(name, fallback),
		at,
		rateLimitWaitSeconds(this),
	);
	const manual = this.getMode() === 'manual';
	const stored = this.getWorkflowStaticData('node');
	const state = new TrendState(stored);
	const now = Math.floor(Date.now() / 1000);
	const interval = input.minPollIntervalSeconds;
	if (!manual && state.tooSoon(now, interval, earlyTolerance(interval))) return null;
	const credentials = await this.getCredentials('soundSearchApi');
	const baseUrl = checkBaseUrl(at, credentials.baseUrl);
	const rules = { ...input.rules, manual };
	const hadHistory = input.searches.some(({ platform, query }) =>
		state.isBaselined(platform, query),
	);
	// Rising compares with readings of earlier polls: without any, a test could only pay to show
	// nothing, so it does not search.
	const testRising = manual && rules.event === 'risingSound';
	if (testRising && !hadHistory) return [[manualNotice(false, rules.growthWindowHours, NO_COST)]];
	const service = { baseUrl, serviceKey: serviceKeyOf(this.getNode(), baseUrl) };
	const { pages, cost } = await searchAll(this, input.searches, service);

	const items = trendItems(state, input.searches, pages, rules, now);
	if (testRising && items.length === 0) {
		return [[manualNotice(true, rules.growthWindowHours, cost)]];
	}
	if (!manual) state.save(stored, input.memoryBound, now, rules.growthWindowHours * 3600);
	if (items.length === 0) return null;
	return [input.simplify ? items.map(simplifyTrendItem) : items];
}

/** Every keyword's pages and cost, in one run: the first that fails stops the others, and the poll. */
async function searchAll(
	ctx: IPollFunctions,
	searches: SearchInput[],
	service: { baseUrl: string; serviceKey: string },
): Promise<{ pages: SearchPage[][]; cost: CreditTally }> {
	const run = new SearchRun({
		...{ first: searches[0], per: 'poll', stopOnFailure: true },
		...{ total: searches.length, ...service, send: searchSender(ctx, {}) },
	});
	const node = ctx.getNode();
	const outcomes = await Promise.all(
		searches.map(async (input, itemIndex) => await run.search(input, { node, itemIndex })),
	);
	const failed = outcomes.find((outcome) => 'error' in outcome);
	if (failed && 'error' in failed) throw failed.error;
	const pages = outcomes.map((outcome) => ('pages' in outcome ? outcome.pages : []));
	return { pages, cost: run.budget.tally };
}

/** n8n 2.39+ gives each poll a time budget; older versions do not (the guard). */
function rateLimitWaitSeconds(ctx: IPollFunctions): number {
	const budget = (ctx as { getPollBudgetMs?: () => number }).getPollBudgetMs?.();
	if (typeof budget !== 'number') return DEFAULT_RATE_LIMIT_WAIT_S;
	return Math.floor((budget * RATE_LIMIT_SHARE_OF_BUDGET) / 1000);
}
