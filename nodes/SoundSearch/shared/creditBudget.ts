import { NodeOperationError, sleep } from 'n8n-workflow';
import { RunStopped, type CallScheduler } from './callScheduler';
import type { ErrorContext } from './failure';
import { PLATFORMS, type Platform } from './platforms';
import type { SearchAnswer } from './searchPage';

/** A search that could not start a call within the budget. Never retried. */
export class CreditBudgetReached extends NodeOperationError {}

/** What the budget needs of a search (fetchPage's SearchCall). */
interface BudgetedSearch {
	input: { platform: Platform };
	errors: ErrorContext;
	progress: () => { finished: number; total: number };
}

const runBudgets = new WeakMap<object, CreditBudget>();
/** The latest run's budget by the run's execute data, for the cost hint after the run. */
const budgetsByRun = new WeakMap<object, CreditBudget>();

/** The budget of one node run: one per run's scheduler, set by the first item that asks. */
export function runBudget(
	ctx: { getExecuteData(): object },
	scheduler: CallScheduler,
	maxCredits: number,
): CreditBudget {
	let budget = runBudgets.get(scheduler);
	if (!budget) {
		budget = new CreditBudget(maxCredits, scheduler, 'run');
		runBudgets.set(scheduler, budget);
		budgetsByRun.set(ctx.getExecuteData(), budget);
	}
	return budget;
}

/** What the run with this execute data spent, if it made any call. */
export const budgetOfRun = (executeData: object) => budgetsByRun.get(executeData);

/** What a run (or a poll) has spent and done so far. */
export interface CreditTally {
	/** Calls that got an answer or failed, whatever they cost. */
	calls: number;
	/** Credits charged (X-Credits-Charged); a call without that header counts at its price. */
	credits: number;
	/** Calls the service answered for 0 credits (a repeat it had cached, a refusal). */
	freeCalls: number;
	/** Pages the service answered from its cache (0 credits). */
	cachedPages: number;
}

/**
 * Max Credits of one run of the action node, or of one poll of the trigger. A call starts only if
 * the credits spent, plus the price of every call still in flight, plus its own price fit in the
 * budget; a call in flight counts at its platform's price until its X-Credits-Charged says what
 * it cost (0 for a cached answer frees the rest). A call that does not fit waits while calls are
 * in flight (they may turn out free) and gives up once none is.
 */
export class CreditBudget {
	readonly tally: CreditTally = { calls: 0, credits: 0, freeCalls: 0, cachedPages: 0 };

	private reserved = 0;

	private readonly waiting = new Set<() => void>();

	constructor(
		readonly maxCredits: number,
		private readonly scheduler: Pick<CallScheduler, 'isStopped'>,
		/** What one budget covers, for its error: a run of the action node, a poll of the trigger. */
		readonly per: 'run' | 'poll',
	) {}

	/** Wraps one call of `search`: it starts once its price fits; its answer's charge is counted. */
	async send(search: BudgetedSearch, call: () => Promise<SearchAnswer>): Promise<SearchAnswer> {
		const price = PLATFORMS[search.input.platform].creditsPerCall;
		await this.reserve(price, () => budgetReached(search.errors, this, search.progress()));
		const answer = call();
		// Settled before the caller goes on; a failed call keeps its error for the caller.
		void answer.then(
			(page) => {
				if ('page' in page && page.page.creditsCharged === 0) this.tally.cachedPages += 1;
				this.settle(price, chargeOf(page) ?? price);
			},
			(error: unknown) => this.settle(price, chargeOfError(error) ?? price),
		);
		return await answer;
	}

	private async reserve(price: number, refuse: () => CreditBudgetReached) {
		for (;;) {
			// A run stopped by another item's failure, or cancelled, starts no new paid call.
			if (this.scheduler.isStopped) throw new RunStopped('The run was stopped');
			if (this.fits(price)) {
				this.reserved += price;
				return;
			}
			if (this.reserved > 0) {
				await new Promise<void>((wake) => this.waiting.add(wake));
				continue;
			}
			// Lets the searches whose last call just settled count as finished in the error.
			await sleep(0);
			if (this.reserved === 0 && !this.fits(price)) throw refuse();
		}
	}

	private fits(price: number) {
		return this.tally.credits + this.reserved + price <= this.maxCredits;
	}

	private settle(price: number, charged: number) {
		this.reserved -= price;
		this.tally.calls += 1;
		this.tally.credits += charged;
		if (charged === 0) this.tally.freeCalls += 1;
		const waiting = [...this.waiting];
		this.waiting.clear();
		for (const wake of waiting) wake();
	}
}

/** What an answer says it cost; null when it does not say (then the full price counts). */
function chargeOf(answer: SearchAnswer): number | null {
	if ('page' in answer) return answer.page.creditsCharged;
	const header = answer.failed.headers?.['x-credits-charged'];
	const value = typeof header === 'string' ? Number(header) : NaN;
	return Number.isInteger(value) && value >= 0 ? value : null;
}

/** An answer that was not a page (available: false, a wrong shape) carries its charge. */
function chargeOfError(error: unknown): number | null {
	const charged = (error as { errorResponse?: { creditsCharged?: unknown } }).errorResponse
		?.creditsCharged;
	return typeof charged === 'number' ? charged : null;
}

/**
 * The error of a search that reached the budget: what finished, what was spent, how to go on.
 */
function budgetReached(
	ctx: ErrorContext,
	budget: CreditBudget,
	progress: { finished: number; total: number },
): CreditBudgetReached {
	// Only raised once no call is in flight: the tally is what the run spent.
	const { per, tally } = budget;
	const free = tally.freeCalls > 0 ? `, ${tally.freeCalls} of them free (cached or refused)` : '';
	const itemIndex = ctx.getItemIndex();
	return new CreditBudgetReached(
		ctx.getNode(),
		`This ${per} reached its Max Credits (${budget.maxCredits}) with ${progress.finished} of ${progress.total} searches finished and ${tally.credits} credits spent [item ${itemIndex}]`,
		{
			itemIndex,
			description: `The ${per} made ${tally.calls} calls${free}, and started none that could take it past ${budget.maxCredits} credits. Raise Max Credits, or run the searches that did not finish again: with Continue On Fail they come out as error items with their query, and the finished ones keep their sounds.`,
		},
	);
}
