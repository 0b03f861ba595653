import type { INodeParameters } from 'n8n-workflow';
import { request } from 'undici';
import { checkEveryRunForKeyLeaks } from './keyLeak';
import { runAsTool, runSoundSearch, type SearchRun, type SearchRunOptions } from './engine';
import { forgetLimiters } from '../../../nodes/shared/limiter';
import { startReferenceService } from '../referenceService';

// Every engine test uses this fixture: each run it makes is checked for the API key.
checkEveryRunForKeyLeaks();

// Test keys of the local reference service; 'dummy' tells the secret linter they are not real.
export const API_KEY = 'dummy-test-key-7f3a9c';
export const REVOKED_KEY = 'dummy-revoked-key-2b8e41';

export type ReferenceService = Awaited<ReturnType<typeof startReferenceService>>;

/** One call as the service's ledger has it (the fields the tests read). */
export type LedgerRequest = Record<'at' | 'path' | 'platform' | 'outcome', string> &
	Record<'q' | 'limit' | 'cursor' | 'authorization', string | null> & {
		status: number | null;
		creditsCharged: number;
	};

/** What a search adds to its parameters: input items, node settings, another key, a cancel. */
export type SearchExtras = Omit<SearchRunOptions, 'credentials' | 'parameters'> & {
	apiKey?: string;
};

/**
 * One reference service per test file (a real process on 127.0.0.1, stopped by pid after the
 * file), reset before every test so each test sees an empty ledger and cache. `search` runs the
 * node through the engine against it (the short-video platform and a valid key unless told);
 * `calls` is what the service saw; `refused` a run's error, checked to come before any call.
 */
export function useReferenceService() {
	let started: ReferenceService | undefined;
	beforeAll(async () => {
		started = await startReferenceService({ keys: [API_KEY], revokedKeys: [REVOKED_KEY] });
	});
	afterAll(async () => {
		await started?.stop();
	});
	beforeEach(async () => {
		await started?.reset();
		// Each test searches as a fresh n8n would: nothing learned of the service yet.
		forgetLimiters();
	});
	const service = () => started as ReferenceService;
	const calls = async () => (await service().ledger()).requests as LedgerRequest[];
	return {
		service,
		search: async (parameters: INodeParameters, extras: SearchExtras = {}) =>
			await searchOn(service().url, parameters, extras),
		/** The node as an AI tool called directly (MCP, AI Agent up to 2.2), once per `calls` entry. */
		callTool: async (parameters: INodeParameters, calls: Array<Record<string, string>>) =>
			await runAsTool({
				parameters: { platform: 'shortvideo', ...parameters },
				calls,
				credentials: { apiKey: API_KEY, baseUrl: service().url },
			}),
		/** A search per keyword kw0, kw1… (Limit 2), the keyword from each input item. */
		searchKeywords: async (
			count: number,
			options: INodeParameters = {},
			extras: SearchExtras = {},
		) =>
			await searchOn(
				service().url,
				{ ...BY_KEYWORD, limit: 2, options },
				{ ...extras, input: keywordItems(...numberedKeywords(count)) },
			),
		calls,
		/** A refusal: the run's error, which must come before any call. */
		refused: async (run: Promise<{ error?: { message: string; description?: string | null } }>) => {
			const { error } = await run;
			expect(await calls()).toEqual([]);
			return { message: error?.message, description: error?.description };
		},
	};
}

/** How every input refusal ends: before any request. */
export const NOTHING_SPENT = ' No request was sent and no credits were spent.';

/** Runs the node through the engine against the service at `baseUrl`. */
export async function searchOn(
	baseUrl: string,
	parameters: INodeParameters,
	{ apiKey = API_KEY, ...extras }: SearchExtras = {},
): Promise<SearchRun> {
	return await runSoundSearch({
		...extras,
		parameters: { platform: 'shortvideo', ...parameters },
		credentials: { apiKey, baseUrl },
	});
}

/** A successful page as the service sends it, for faults that answer in its place. */
export function servicePage(items: object[], nextCursor: string | null = null) {
	return { success: true, available: true, data: { items, nextCursor } };
}

/** Sounds with soundIds `${prefix}0`, `${prefix}1`… */
export const sounds = (count: number, prefix = 's') =>
	Array.from({ length: count }, (_, index) => ({ soundId: `${prefix}${index}` }));

export const soundIds = (run: { items: SearchRun['items'] }) =>
	run.items.map(({ json }) => json.soundId);

/** A search whose keyword is each input item's `keyword`, and such input items. */
export const BY_KEYWORD = { query: '={{ $json.keyword }}' };
export const keywordItems = (...words: string[]) => words.map((keyword) => ({ keyword }));
/** kw0, kw1… */
export const numberedKeywords = (count: number) =>
	Array.from({ length: count }, (_, index) => `kw${index}`);

/** An item's fields in order with Simplify off: the service's sound, then the node's two. */
export const RAW_FIELDS = [
	...['soundId', 'title', 'authorName', 'postCount', 'durationSeconds', 'url', 'coverUrl'],
	...['fetchedAt', 'cached', 'cacheAgeSeconds', 'creditsCharged', 'page'],
];

/** The input item an output item is paired with. */
export const itemOf = ({ pairedItem }: { pairedItem?: unknown }) =>
	(pairedItem as { item: number }).item;

/** Calls the service directly (outside n8n), for expected values; shares its cache and ledger. */
export async function fetchDirect(
	service: ReferenceService,
	platform: string,
	query: Record<string, string | number>,
): Promise<{ items: Record<string, unknown>[]; nextCursor: string | null }> {
	const qs = new URLSearchParams(query as Record<string, string>);
	const answer = await request(`${service.url}/v1/${platform}/sound/search?${qs}`, {
		headers: { authorization: `Bearer ${API_KEY}` },
	});
	return ((await answer.body.json()) as { data: never }).data;
}
