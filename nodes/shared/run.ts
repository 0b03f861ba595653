import { sleep, type ExecutionBaseError, type INode } from 'n8n-workflow';
import { PLATFORMS } from './description';
import {
	RunStopped,
	asNodeError,
	budgetReached,
	readCreditsCharged,
	sharedSearchFailed,
	type CreditBudgetReached,
	type ErrorContext,
	type Progress,
} from './errors';
import type { SearchInput } from './input';
import { fetchPages } from './pages';
import { CallScheduler, type Learned } from './scheduler';
import type { SearchAnswer, SearchPage, SendPage } from './transport';

// One run's searches, and what runs learned of each service.

/**
 * What runs learned of each service's limits (serviceKeyOf: credential id, never its key, and Base
 * URL) in this n8n process, so a scheduled list pays first contact once. Gone with the process;
 * each queue-mode worker learns for itself; a changed plan shows in the next run's refusals or
 * tries. At most SERVICES_REMEMBERED, the least recently searched forgotten first.
 */
export const learnedByService = new Map<string, Learned>();
const SERVICES_REMEMBERED = 100;

/** Run-wide settings; `first` is the first search's (its Max Calls in Flight, Max Credits…). */
export interface RunSettings {
	first: Pick<SearchInput, 'maxInFlight' | 'rateLimitWait' | 'maxCredits'>;
	per: 'run' | 'poll';
	/** Off with Continue On Fail: the first failure stops the run's new calls. */
	stopOnFailure: boolean;
	/** How many searches the run has (input items, keywords), for progress in errors. */
	total: number;
	baseUrl: string;
	serviceKey: string;
	send: SendPage;
	cancelSignal?: AbortSignal;
}

/** How one search ended: its pages, its error, or stood down because the run stopped. */
export type SearchOutcome =
	| { pages: SearchPage[]; reused: boolean }
	| { error: ExecutionBaseError }
	| { stopped: true };

/**
 * One run of the action node, or one poll of the trigger: its searches share one scheduler, one
 * credit budget and the searches already made. Made by the node for that run, gone with it.
 */
export class SearchRun {
	readonly budget: CreditBudget;

	/** Searches that repeated an earlier one of the run (made once). */
	repeats = 0;

	private readonly scheduler: CallScheduler;

	/** Searches in flight or done, by what they ask for: identical ones are made once. */
	private readonly searches = new Map<string, Promise<SearchPage[]>>();

	private finished = 0;

	/** The search whose failure stopped the run: the run fails with its error. */
	private stoppedBy: number | undefined;

	constructor(private readonly settings: RunSettings) {
		const { first, cancelSignal } = settings;
		this.scheduler = new CallScheduler({
			maxInFlight: first.maxInFlight,
			rateLimitWaitMs: first.rateLimitWait * 1000,
			cancelSignal,
			learned: learnedByService.get(settings.serviceKey),
		});
		this.budget = new CreditBudget(first.maxCredits, this.scheduler, settings.per);
	}

	/** One search: its pages, or what stopped it. Never throws. */
	async search(input: SearchInput, at: ErrorContext): Promise<SearchOutcome> {
		try {
			const key = searchKey(input);
			const made = this.searches.get(key);
			if (made) this.repeats += 1;
			const pending = made ?? fetchPages(this.searchOf(input, at));
			this.searches.set(key, pending);
			const pages = await pending
				.catch((error: ExecutionBaseError) => {
					throw made ? sharedSearchFailed(at, error) : error;
				})
				.finally(() => this.remember());
			this.finished += 1;
			return { pages, reused: made !== undefined };
		} catch (error) {
			// Another search's failure (or a cancel) stopped the run: its error is the one shown.
			if (this.wasStopped(at, error)) return { stopped: true };
			this.fail(at);
			return { error: asNodeError(at, error) };
		}
	}

	private searchOf(input: SearchInput, at: ErrorContext) {
		const { baseUrl, send } = this.settings;
		const price = PLATFORMS[input.platform].creditsPerCall;
		const progress = () => this.progress();
		return {
			at,
			input,
			scheduler: this.scheduler,
			baseUrl,
			send: async (request: Parameters<SendPage>[0]) =>
				await this.budget.send(
					price,
					async () => await send(request, at),
					() => budgetReached(at, this.budget.spent(), progress()),
				),
			onFailure: () => this.fail(at),
			progress,
		};
	}

	/** What the run has learned so far, for the next run against the same service. */
	private remember() {
		const { serviceKey } = this.settings;
		learnedByService.delete(serviceKey);
		learnedByService.set(serviceKey, this.scheduler.learned());
		for (const oldest of learnedByService.keys()) {
			if (learnedByService.size <= SERVICES_REMEMBERED) break;
			learnedByService.delete(oldest);
		}
	}

	progress(): Progress {
		return { finished: this.finished, total: this.settings.total };
	}

	/** A failed search stops new calls: no credit goes on sounds the failed run would throw away. */
	private fail(at: ErrorContext) {
		if (!this.settings.stopOnFailure || this.stoppedBy !== undefined) return;
		this.stoppedBy = at.itemIndex;
		this.scheduler.stop(new RunStopped('Another search failed'));
	}

	private wasStopped(at: ErrorContext, error: unknown): boolean {
		if (error instanceof RunStopped) return true;
		return this.scheduler.isStopped && this.stoppedBy !== at.itemIndex;
	}
}

/** The service a node's credential searches: the credential (by id, never its key) and Base URL. */
export function serviceKeyOf(node: INode, baseUrl: string): string {
	const credential = node.credentials?.soundSearchApi;
	return JSON.stringify([credential?.id ?? credential?.name ?? null, baseUrl]);
}

/** Everything that decides which calls a search makes; output shape and run-wide settings don't. */
function searchKey(input: SearchInput) {
	const runWide = { maxInFlight: null, rateLimitWait: null, maxCredits: null };
	return JSON.stringify({ ...input, output: null, ...runWide });
}

/**
 * What a run (or a poll) has spent: calls answered or failed; credits by X-Credits-Charged (a call
 * without it at its price); calls charged 0 (cached, refused); pages answered from cache.
 */
export interface CreditTally {
	calls: number;
	credits: number;
	freeCalls: number;
	cachedPages: number;
}

/**
 * Max Credits of a run or a poll. A call starts only if credits spent, the price of every call in
 * flight (until its X-Credits-Charged says what it cost) and its own price fit; one that does not
 * waits while calls are in flight (they may turn out free) and gives up once none is.
 */
export class CreditBudget {
	readonly tally: CreditTally = { calls: 0, credits: 0, freeCalls: 0, cachedPages: 0 };
	private reserved = 0;
	private readonly waiting = new Set<() => void>();

	constructor(
		readonly maxCredits: number,
		private readonly scheduler: Pick<CallScheduler, 'isStopped'>,
		readonly per: 'run' | 'poll',
	) {}

	/** Wraps one call: it starts once its price fits; its answer's charge is counted. */
	async send(
		price: number,
		call: () => Promise<SearchAnswer>,
		refuse: () => CreditBudgetReached,
	): Promise<SearchAnswer> {
		await this.reserve(price, refuse);
		const answer = call();
		void answer.then(
			(page) => {
				if ('page' in page && page.page.creditsCharged === 0) this.tally.cachedPages += 1;
				this.settle(price, chargeOf(page) ?? price);
			},
			(error: unknown) => this.settle(price, chargeOfError(error) ?? price),
		);
		return await answer;
	}

	spent() {
		const { per, maxCredits } = this;
		return { per, maxCredits, ...this.tally };
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
			// Only raised once no call is in flight: the tally is what the run spent.
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
	return 'page' in answer ? answer.page.creditsCharged : readCreditsCharged(answer.failed.headers);
}

/** An answer that was not a page (available: false, a wrong shape) carries its charge. */
function chargeOfError(error: unknown): number | null {
	const charged = (error as { errorResponse?: { creditsCharged?: unknown } }).errorResponse
		?.creditsCharged;
	return typeof charged === 'number' ? charged : null;
}
