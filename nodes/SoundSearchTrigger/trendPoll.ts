import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { CallScheduler, RunStopped } from '../SoundSearch/shared/callScheduler';
import { CreditBudget, type CreditTally } from '../SoundSearch/shared/creditBudget';
import type { ErrorContext } from '../SoundSearch/shared/failure';
import { fetchPages, type PageRequest, type SearchCall } from '../SoundSearch/shared/fetchPage';
import { checkBaseUrl, type SearchInput } from '../SoundSearch/shared/searchInput';
import type { SearchPage } from '../SoundSearch/shared/searchPage';
import { sendSearch } from '../SoundSearch/shared/sendSearch';
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
	const errorsAt = (itemIndex: number): ErrorContext => ({
		getNode: () => this.getNode(),
		getItemIndex: () => itemIndex,
	});
	const input = readTriggerInput(
		{ ...errorsAt(0), getNodeParameter: (name, fallback) => this.getNodeParameter(name, fallback) },
		rateLimitWaitSeconds(this),
	);
	const manual = this.getMode() === 'manual';
	const stored = this.getWorkflowStaticData('node');
	const state = new TrendState(stored);
	const now = Math.floor(Date.now() / 1000);
	const interval = input.minPollIntervalSeconds;
	if (!manual && state.tooSoon(now, interval, earlyTolerance(interval))) return null;
	const credentials = await this.getCredentials('soundSearchApi');
	const baseUrl = checkBaseUrl(errorsAt(0), credentials.baseUrl);
	const rules = { ...input.rules, manual };
	const hadHistory = input.searches.some(({ platform, query }) =>
		state.isBaselined(platform, query),
	);
	// Rising compares with readings of earlier polls: without any, a test could only pay to show
	// nothing, so it does not search.
	const testRising = manual && rules.event === 'risingSound';
	if (testRising && !hadHistory) return [[manualNotice(false, rules.growthWindowHours, NO_COST)]];
	const { pages, cost } = await searchAll(this, input.searches, baseUrl, errorsAt);

	const items = trendItems(state, input.searches, pages, rules, now);
	if (testRising && items.length === 0) {
		return [[manualNotice(true, rules.growthWindowHours, cost)]];
	}
	if (!manual) state.save(stored, input.memoryBound, now, rules.growthWindowHours * 3600);
	if (items.length === 0) return null;
	return [input.simplify ? items.map(simplifyTrendItem) : items];
}

/**
 * Every keyword's pages and what they cost; the first keyword that fails stops the others' new
 * calls.
 */
async function searchAll(
	ctx: IPollFunctions,
	searches: SearchInput[],
	baseUrl: string,
	errorsAt: (index: number) => ErrorContext,
): Promise<{ pages: SearchPage[][]; cost: CreditTally }> {
	const { maxInFlight, rateLimitWait, maxCredits } = searches[0];
	const scheduler = new CallScheduler({ maxInFlight, rateLimitWaitMs: rateLimitWait * 1000 });
	const budget = new CreditBudget(maxCredits, scheduler, 'poll');
	let finished = 0;
	const send = async (request: PageRequest, errors: ErrorContext) =>
		await sendSearch(ctx, errors, request);
	const results = await Promise.allSettled(
		searches.map(async (input, index) => {
			const errors = errorsAt(index);
			const call: SearchCall = {
				errors,
				input,
				scheduler,
				budget,
				baseUrl,
				send: async (request) => await send(request, errors),
				onFailure: () => scheduler.stop(new RunStopped('Another keyword failed')),
				progress: () => ({ finished, total: searches.length }),
			};
			const pages = await fetchPages(call);
			finished += 1;
			return pages;
		}),
	);
	const failed = results.find(
		(result) => result.status === 'rejected' && !(result.reason instanceof RunStopped),
	);
	if (failed?.status === 'rejected') throw failed.reason;
	const pages = results.map((result) => (result.status === 'fulfilled' ? result.value : []));
	return { pages, cost: budget.tally };
}

/** n8n 2.39+ gives each poll a time budget; older versions do not (the guard). */
function rateLimitWaitSeconds(ctx: IPollFunctions): number {
	const budget = (ctx as { getPollBudgetMs?: () => number }).getPollBudgetMs?.();
	if (typeof budget !== 'number') return DEFAULT_RATE_LIMIT_WAIT_S;
	return Math.floor((budget * RATE_LIMIT_SHARE_OF_BUDGET) / 1000);
}
