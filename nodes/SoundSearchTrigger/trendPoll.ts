import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { checkBaseUrl, type SearchInput } from '../shared/input';
import { SearchRun, serviceKeyOf, type CreditTally, type SearchOutcome } from '../shared/run';
import { searchSender, type SearchPage } from '../shared/transport';
import { readTriggerInput } from './triggerInput';
import { simplifyTrendItem, trendItems } from './trendItems';
import { TrendState } from './trendState';
import { earlyTolerance } from './trendWindow';
import { manualNotice, NO_COST } from './manualNotice';
import { pollSummary, type FailedKeyword } from './pollSummary';

/** Waiting on rate limits may take this share of n8n's poll budget at most (the rest is work). */
const RATE_LIMIT_SHARE_OF_BUDGET = 0.5;
const DEFAULT_RATE_LIMIT_WAIT_S = 120;

/**
 * One poll: one search per keyword through the same request path as the action node, then the
 * new, rising or breakout sounds. All or nothing: when a keyword's search fails the poll fails and
 * the trigger's memory is left as it was, so no sound is marked seen that was not emitted. With
 * Add Poll Summary, a failed keyword is named in the summary instead and left as it was (the
 * poll fails only when every keyword failed).
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
	const testTrend = manual && rules.event !== 'newSound';
	if (testTrend && !hadHistory) return [[manualNotice(rules, false, NO_COST)]];
	const service = { baseUrl, serviceKey: serviceKeyOf(this.getNode(), baseUrl) };
	const { pages, cost, failed } = await searchAll(this, input, service);

	const { items, soundsChecked } = trendItems(state, input.searches, pages, rules, now);
	const shown = input.simplify ? items.map(simplifyTrendItem) : items;
	if (testTrend && items.length === 0) shown.push(manualNotice(rules, true, cost));
	if (!manual) state.save(stored, input.memoryBound, now, rules.growthWindowHours * 3600);
	if (input.pollSummary) {
		const checked = { keywords: input.searches.length, sounds: soundsChecked };
		shown.push(pollSummary(rules.event, items.length, checked, cost, failed, now));
	}
	if (shown.length === 0) return null;
	return [shown];
}

/**
 * Every keyword's pages (undefined: it failed) and the cost, in one run. Without a summary the
 * first that fails stops the others, and the poll; with one, only a poll where all failed fails.
 */
async function searchAll(
	ctx: IPollFunctions,
	{ searches, pollSummary: summary }: { searches: SearchInput[]; pollSummary: boolean },
	service: { baseUrl: string; serviceKey: string },
): Promise<{ pages: Array<SearchPage[] | undefined>; cost: CreditTally; failed: FailedKeyword[] }> {
	const run = new SearchRun({
		...{ first: searches[0], per: 'poll', stopOnFailure: !summary },
		...{ total: searches.length, ...service, send: searchSender(ctx, {}) },
	});
	const node = ctx.getNode();
	const outcomes = await Promise.all(
		searches.map(async (input, itemIndex) => await run.search(input, { node, itemIndex })),
	);
	const firstError = outcomes.find((outcome) => 'error' in outcome);
	const answered = outcomes.some((outcome) => 'pages' in outcome);
	if (firstError && 'error' in firstError && (!summary || !answered)) throw firstError.error;
	const pages = outcomes.map((outcome) => ('pages' in outcome ? outcome.pages : undefined));
	const failed = outcomes.flatMap((outcome, index) => failure(searches[index].query, outcome));
	return { pages, cost: run.budget.tally, failed };
}

function failure(keyword: string, outcome: SearchOutcome): FailedKeyword[] {
	if ('error' in outcome) return [{ keyword, error: outcome.error.message }];
	if ('stopped' in outcome) return [{ keyword, error: 'Not searched: the poll stopped' }];
	return [];
}

/** n8n 2.39+ gives each poll a time budget; older versions do not (the guard). */
function rateLimitWaitSeconds(ctx: IPollFunctions): number {
	const budget = (ctx as { getPollBudgetMs?: () => number }).getPollBudgetMs?.();
	if (typeof budget !== 'number') return DEFAULT_RATE_LIMIT_WAIT_S;
	return Math.floor((budget * RATE_LIMIT_SHARE_OF_BUDGET) / 1000);
}
