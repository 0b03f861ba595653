import { request } from 'undici';
import { runSoundSearch, type SearchRun, type SearchRunOptions } from './engine';
import { startReferenceService } from './referenceService';

// Test keys of the local reference service; 'dummy' tells the secret linter they are not real.
export const API_KEY = 'dummy-test-key-7f3a9c';
export const REVOKED_KEY = 'dummy-revoked-key-2b8e41';

export type ReferenceService = Awaited<ReturnType<typeof startReferenceService>>;

export interface LedgerRequest {
	path: string;
	platform: string;
	q: string | null;
	limit: string | null;
	cursor: string | null;
	authorization: string | null;
	status: number | null;
	creditsCharged: number;
	outcome: string;
	itemCount: number;
}

/**
 * One reference service per test file (a real process on 127.0.0.1, stopped by pid after the
 * file), reset before every test so each test sees an empty ledger and cache.
 */
export function useReferenceService(): { service: () => ReferenceService } {
	let service: ReferenceService | undefined;
	beforeAll(async () => {
		service = await startReferenceService({ keys: [API_KEY], revokedKeys: [REVOKED_KEY] });
	});
	afterAll(async () => {
		await service?.stop();
	});
	beforeEach(async () => {
		await service?.reset();
	});
	return { service: () => service as ReferenceService };
}

/** Runs the node through the engine against this service, with a valid key unless told. */
export async function search(
	service: ReferenceService,
	options: Omit<SearchRunOptions, 'credentials'> & { apiKey?: string },
): Promise<SearchRun> {
	return await runSoundSearch({
		...options,
		credentials: { apiKey: options.apiKey ?? API_KEY, baseUrl: service.url },
	});
}

export async function requestsSeen(service: ReferenceService): Promise<LedgerRequest[]> {
	return (await service.ledger()).requests as LedgerRequest[];
}

/** Calls the service directly (outside n8n), for expected values; shares its cache and ledger. */
export async function fetchDirect(
	service: ReferenceService,
	platform: string,
	query: Record<string, string | number>,
): Promise<{
	body: { data: { items: Record<string, unknown>[]; nextCursor: string | null } };
	creditsCharged: string;
}> {
	const qs = new URLSearchParams(
		Object.entries(query).map(([key, value]): [string, string] => [key, String(value)]),
	);
	const answer = await request(`${service.url}/v1/${platform}/sound/search?${qs}`, {
		headers: { authorization: `Bearer ${API_KEY}` },
	});
	return {
		body: (await answer.body.json()) as never,
		creditsCharged: String(answer.headers['x-credits-charged']),
	};
}

/** The json of each output item, without the fields the node adds. */
export function serviceFields(run: SearchRun): Record<string, unknown>[] {
	return run.items.map(({ json }) => {
		const fields = { ...json };
		delete fields.creditsCharged;
		delete fields.page;
		return fields;
	});
}
