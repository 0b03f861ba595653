import type {
	IAllExecuteFunctions,
	IDataObject,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';
import { answerError, readCreditsCharged, type ErrorContext, type FailedCall } from './errors';
import { announcedIn, RATE_LIMIT_HEADERS, type Announced } from './quota';

// The one HTTP call of the nodes, and the reading of its answer. The only module of the request
// path that touches n8n: its request helper, which applies the credential.

/** What one page's call asks for. */
export interface PageRequest {
	baseURL: string;
	url: string;
	qs: IDataObject;
	timeout: number;
}

/** One answered call of a search endpoint, reduced to what the paginator needs. */
export interface SearchPage {
	sounds: IDataObject[];
	nextCursor: string | null;
	/** X-Credits-Charged of this call; null when the header is missing or not a number. */
	creditsCharged: number | null;
	/** What its rate-limit headers announce, when it has any: paced to before any refusal. */
	announced?: Announced;
}

/** One call: a page, or a call that got no usable answer (an HTTP status, a network error). */
export type SearchAnswer = { page: SearchPage } | { failed: FailedCall };

/** Sends one page's call; throws answerError's error when a 2xx answer is not a page. */
export type SendPage = (request: PageRequest, at: ErrorContext) => Promise<SearchAnswer>;

/**
 * One call of a search endpoint through n8n's request helper with the node's credential, taking
 * every HTTP status as an answer, so status, Retry-After and X-Credits-Charged are read the same
 * way on every n8n version (1.x drops the headers of what it throws). `extra`: what n8n's Request
 * Options add (proxy, certificates) and the execution's cancel signal.
 */
export function searchSender(
	ctx: IAllExecuteFunctions,
	extra: Partial<IHttpRequestOptions>,
): SendPage {
	return async (request, at) => {
		let response: IN8nHttpFullResponse;
		try {
			response = await ctx.helpers.httpRequestWithAuthentication.call(ctx, 'soundSearchApi', {
				method: 'GET',
				headers: { Accept: 'application/json' },
				...request,
				json: true,
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				...extra,
			});
		} catch (error) {
			return { failed: failedCall(error) };
		}
		return readAnswer(at, response);
	};
}

/** One HTTP answer (any status) as a SearchAnswer; a 2xx that is not a page is a clear error. */
function readAnswer(at: ErrorContext, response: IN8nHttpFullResponse): SearchAnswer {
	const { statusCode: status, headers } = response;
	if (status < 200 || status > 299) {
		// Only the headers the node reads: the rest is of no use and stays out of the run.
		const kept: IDataObject = {};
		for (const name of ['retry-after', 'x-credits-charged', ...RATE_LIMIT_HEADERS])
			if (headers?.[name] !== undefined) kept[name] = headers[name];
		return { failed: { status, headers: kept } };
	}
	const creditsCharged = readCreditsCharged(headers);
	const page = parseEnvelope(response.body, creditsCharged);
	if (typeof page === 'string') throw answerError(at, page, status, creditsCharged);
	const announced = announcedIn(headers);
	return { page: Object.keys(announced).length > 0 ? { ...page, announced } : page };
}

/** Returns the page, or a sentence saying what came back instead. */
function parseEnvelope(body: unknown, creditsCharged: number | null): SearchPage | string {
	if (!isObject(body)) return `The service answered with a body that is not JSON: ${preview(body)}`;
	if (body.success !== true) return `The service answered success: false (${errorText(body)})`;
	if (body.available === false) {
		return `The service answered available: false with status "${String(body.availabilityStatus ?? 'unknown')}"`;
	}
	const data = body.data;
	if (!isObject(data) || !Array.isArray(data.items) || !data.items.every(isObject)) {
		return `The service answered JSON without a list of sounds at data.items: ${preview(body)}`;
	}
	const nextCursor = data.nextCursor;
	if (
		nextCursor !== null &&
		nextCursor !== undefined &&
		(typeof nextCursor !== 'string' || nextCursor === '')
	) {
		return `The service answered a nextCursor that is not a string: ${preview(nextCursor)}`;
	}
	return { sounds: data.items as IDataObject[], nextCursor: nextCursor ?? null, creditsCharged };
}

function errorText(body: IDataObject): string {
	const error = body.error;
	if (isObject(error))
		return [error.code, error.message].filter((part) => typeof part === 'string').join(': ');
	return typeof error === 'string' ? error : 'no error details';
}

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function preview(value: unknown): string {
	const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
	return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

type Loose = Record<string, unknown>;

function asObject(value: unknown): Loose {
	return value !== null && typeof value === 'object' ? (value as Loose) : {};
}

function asStatus(value: unknown): number | undefined {
	const status = typeof value === 'string' && /^\d{3}$/.test(value) ? Number(value) : value;
	return typeof status === 'number' && status >= 100 && status <= 599 ? status : undefined;
}

function asCode(value: unknown): string | undefined {
	return typeof value === 'string' && /^E[A-Z0-9_]+$/.test(value) ? value : undefined;
}

/**
 * Reads status, headers and network code from what n8n's HTTP helper throws, in every shape the
 * supported n8n versions produce (recorded in test/fixtures/n8n-errors/):
 * - n8n before 1.99 and from 2.34 (2.41.1): a NodeApiError whose `cause` is the AxiosError, with
 *   `cause.response` (status, headers) for an answer and `cause.code` for a call without one;
 * - n8n 1.99 to 2.33 (1.123.x included): the same NodeApiError without `cause` (a class field wipes
 *   it), so without headers; `httpCode` holds the status ("429") or the network code
 *   ("ECONNABORTED");
 * - an AxiosError itself, with `response` and `code` of its own.
 * With every status taken as an answer, what is thrown is mostly a call without one (a timeout, a
 * refused connection).
 */
export function failedCall(error: unknown): FailedCall {
	const thrown = asObject(error);
	const cause = asObject(thrown.cause);
	const response = asObject(cause.response ?? thrown.response);
	const status =
		asStatus(response.status) ??
		asStatus(cause.status) ??
		asStatus(thrown.status) ??
		asStatus(thrown.httpCode);
	const headers = Object.keys(asObject(response.headers)).length
		? (response.headers as IDataObject)
		: undefined;
	if (status !== undefined) return { status, headers };
	const code = asCode(thrown.code) ?? asCode(cause.code) ?? asCode(thrown.httpCode);
	return { headers, code };
}
