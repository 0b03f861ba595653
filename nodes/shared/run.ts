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
	type FailedCall,
	type Progress,
} from './errors';
import type { SearchInput } from './input';
import { limiterFor, type Limiter } from './limiter';
import { fetchPages, type Search } from './pages';
import type { PageRequest, SearchAnswer, SearchPage, SendPage } from './transport';

// One search run: its searches, its credit budget and when it stops.

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
 * One run of the action node, or one poll of the trigger: its searches share one credit budget,
 * the searches already made and one stop, and pace through their service's limiter. Made by the
 * node for that run, gone with it.
 */
export class SearchRun {
	readonly budget: CreditBudget;

	/** Searches that repeated an earlier one of the run (made once). */
	repeats = 0;

	private readonly limiter: Limiter;

	/** Aborted when the run stops: queued calls, waits and calls n8n has not sent yet end. */
	private readonly stop = new AbortController();

	/** Searches in flight or done, by what they ask for: identical ones are made once. */
	private readonly searches = new Map<string, Promise<SearchPage[]>>();

	private finished = 0;

	/** The search whose failure stopped the run: the run fails with its error. */
	private stoppedBy: number | undefined;

	/** When a call of the run last got a page: Max Wait on Rate Limits counts from there. */
	private lastProgressAt = Date.now();

	constructor(private readonly settings: RunSettings) {
		const { first, cancelSignal, serviceKey } = settings;
		this.limiter = limiterFor(serviceKey, first.maxInFlight);
		this.budget = new CreditBudget(first.maxCredits, settings.per, this.stop.signal);
		const cancel = () => this.halt(new RunStopped('The execution was cancelled'));
		if (cancelSignal?.aborted) cancel();
		else cancelSignal?.addEventListener('abort', cancel, { once: true });
	}

	/** One search: its pages, or what stopped it. Never throws. */
	async search(input: SearchInput, at: ErrorContext): Promise<SearchOutcome> {
		try {
			const key = searchKey(input);
			const made = this.searches.get(key);
			if (made) this.repeats += 1;
			const pending = made ?? fetchPages(this.searchOf(input, at));
			this.searches.set(key, pending);
			const pages = await pending.catch((error: ExecutionBaseError) => {
				throw made ? sharedSearchFailed(at, error) : error;
			});
			this.finished += 1;
			return { pages, reused: made !== undefined };
		} catch (error) {
			// Another search's failure (or a cancel) stopped the run: its error is the one shown.
			if (this.wasStopped(at, error)) return { stopped: true };
			this.fail(at);
			return { error: asNodeError(at, error) };
		}
	}

	private searchOf(input: SearchInput, at: ErrorContext): Search {
		const { rateLimitWait, maxInFlight } = this.settings.first;
		return {
			at,
			input,
			baseUrl: this.settings.baseUrl,
			call: async (request) =>
				await this.call(request, at, PLATFORMS[input.platform].creditsPerCall, maxInFlight),
			onFailure: () => this.fail(at),
			progress: () => this.progress(),
			mayWait: (ms) => Date.now() + ms - this.lastProgressAt <= rateLimitWait * 1000,
			wait: async (ms) => await this.wait(ms),
		};
	}

	/**
	 * One call: its price reserved first (a call the budget refuses never reaches the limiter),
	 * then a permit, then the request with the run's signal. `done` hands the permit back.
	 */
	private async call(request: PageRequest, at: ErrorContext, price: number, maxInFlight: number) {
		const refuse = () => budgetReached(at, this.budget.spent(), this.progress());
		await this.budget.reserve(price, refuse);
		const permit = await this.limiter
			.acquire(maxInFlight, this.stop.signal)
			.catch((error: unknown) => {
				this.budget.release(price);
				throw error;
			});
		const answer = await this.settings
			.send({ ...request, abortSignal: this.stop.signal }, at)
			.catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
		this.budget.settle(price, answer);
		if ('page' in answer) this.lastProgressAt = Date.now();
		return { answer, done: () => permit.done(callOf(answer)) };
	}

	/** Waits (a retry's backoff) unless the run stops first. */
	private async wait(ms: number) {
		const signal = this.stop.signal;
		if (signal.aborted) throw signal.reason;
		let onAbort = () => {};
		const stopped = new Promise<never>((_resolve, reject) => {
			onAbort = () => reject(signal.reason as Error);
			signal.addEventListener('abort', onAbort, { once: true });
		});
		// A race, not sleep's own signal: older n8n versions' sleep takes none.
		await Promise.race([sleep(ms), stopped]).finally(() =>
			signal.removeEventListener('abort', onAbort),
		);
	}

	progress(): Progress {
		return { finished: this.finished, total: this.settings.total };
	}

	/** A failed search stops new calls: no credit goes on sounds the failed run would throw away. */
	private fail(at: ErrorContext) {
		if (!this.settings.stopOnFailure || this.stoppedBy !== undefined) return;
		this.stoppedBy = at.itemIndex;
		this.halt(new RunStopped('Another search failed'));
	}

	private halt(reason: RunStopped) {
		if (!this.stop.signal.aborted) this.stop.abort(reason);
	}

	private wasStopped(at: ErrorContext, error: unknown): boolean {
		if (error instanceof RunStopped) return true;
		return this.stop.signal.aborted && this.stoppedBy !== at.itemIndex;
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

/** What the limiter reads of an answer: its status and headers, or a network code. */
function callOf(answer: SearchAnswer | Error): FailedCall {
	if (answer instanceof Error) return { status: 200 };
	return 'page' in answer ? { status: 200, headers: answer.headers } : answer.failed;
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
		readonly per: 'run' | 'poll',
		private readonly stopped: AbortSignal,
	) {}

	spent() {
		const { per, maxCredits } = this;
		return { per, maxCredits, ...this.tally };
	}

	/** Waits until `price` fits beside the calls in flight; throws `refuse()` once it never will. */
	async reserve(price: number, refuse: () => CreditBudgetReached) {
		for (;;) {
			// A run stopped by another item's failure, or cancelled, starts no new paid call.
			if (this.stopped.aborted) throw new RunStopped('The run was stopped');
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

	/** A reserved call that was never made. */
	release(price: number) {
		this.reserved -= price;
		this.wake();
	}

	/** A call made: what it cost by its answer (its price when the answer does not say). */
	settle(price: number, answer: SearchAnswer | Error) {
		const charged = chargeOf(answer) ?? price;
		this.reserved -= price;
		this.tally.calls += 1;
		this.tally.credits += charged;
		if (charged === 0) this.tally.freeCalls += 1;
		if (charged === 0 && 'page' in answer) this.tally.cachedPages += 1;
		this.wake();
	}

	private fits(price: number) {
		return this.tally.credits + this.reserved + price <= this.maxCredits;
	}

	private wake() {
		const waiting = [...this.waiting];
		this.waiting.clear();
		for (const wake of waiting) wake();
	}
}

/**
 * What an answer says it cost; null when it does not say (then the full price counts). An answer
 * read as an error (available: false, a wrong shape) carries its charge.
 */
function chargeOf(answer: SearchAnswer | Error): number | null {
	if (answer instanceof Error) {
		const charged = (answer as { errorResponse?: { creditsCharged?: unknown } }).errorResponse
			?.creditsCharged;
		return typeof charged === 'number' ? charged : null;
	}
	return 'page' in answer ? answer.page.creditsCharged : readCreditsCharged(answer.failed.headers);
}
