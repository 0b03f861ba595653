import type {
	IAllExecuteFunctions,
	IDataObject,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';
import { answerError, readCreditsCharged, type ErrorContext, type FailedCall } from './errors';
import type { Headers } from './limiter';

// The one HTTP call of the nodes and the reading of its answer: the only module of the request
// path that touches n8n (its request helper, which applies the credential).

export interface PageRequest {
	baseURL: string;
	url: string;
	qs: IDataObject;
	timeout: number;
	/** The run's: a call n8n has not sent yet when the run stops is not sent. */
	abortSignal?: AbortSignal;
}

/** A page of a search; `creditsCharged` null when X-Credits-Charged is missing or not a number. */
export interface SearchPage {
	sounds: IDataObject[];
	nextCursor: string | null;
	creditsCharged: number | null;
}

/** One call: a page (and its headers, for the limiter), or a call with no usable answer. */
export type SearchAnswer = { page: SearchPage; headers: Headers } | { failed: FailedCall };

/** Sends one page's call; throws answerError's error when a 2xx answer is not a page. */
export type SendPage = (request: PageRequest, at: ErrorContext) => Promise<SearchAnswer>;

/**
 * One call through n8n's request helper with the node's credential. Every status is an answer, so
 * its headers are read the same way on every n8n version (1.x drops those of what it throws).
 * `extra`: Request Options' proxy and certificates.
 */
export function searchSender(
	ctx: IAllExecuteFunctions,
	extra: Partial<IHttpRequestOptions>,
): SendPage {
	return async (request, at) => {
		let response: IN8nHttpFullResponse;
		try {
			response = await ctx.helpers.httpRequestWithAuthentication.call(
				runOf(ctx, request),
				'soundSearchApi',
				{
					method: 'GET',
					headers: { Accept: 'application/json' },
					...request,
					json: true,
					returnFullResponse: true,
					ignoreHttpStatusErrors: true,
					...extra,
				},
			);
		} catch (error) {
			return { failed: failedCall(error) };
		}
		return readAnswer(at, response);
	};
}

/**
 * The context n8n's helper reads the request's abort signal from: n8n 2.x sets the execution's
 * cancel signal on each authenticated request, over the run's (which that cancel joins).
 */
function runOf(ctx: IAllExecuteFunctions, { abortSignal }: PageRequest): IAllExecuteFunctions {
	if (!abortSignal) return ctx;
	return Object.create(ctx, { getExecutionCancelSignal: { value: () => abortSignal } });
}

/** One HTTP answer (any status) as a SearchAnswer; a 2xx that is not a page is a clear error. */
function readAnswer(at: ErrorContext, response: IN8nHttpFullResponse): SearchAnswer {
	const { statusCode: status } = response;
	const headers: Headers = response.headers ?? {};
	if (status < 200 || status > 299) return { failed: { status, headers } };
	const creditsCharged = readCreditsCharged(headers);
	const page = parseEnvelope(response.body, creditsCharged);
	if (typeof page === 'string') throw answerError(at, page, status, creditsCharged);
	return { page, headers };
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

const asObject = (value: unknown): IDataObject => (isObject(value) ? value : {});

function asStatus(value: unknown): number | undefined {
	const status = typeof value === 'string' && /^\d{3}$/.test(value) ? Number(value) : value;
	return typeof status === 'number' && status >= 100 && status <= 599 ? status : undefined;
}

function asCode(value: unknown): string | undefined {
	return typeof value === 'string' && /^E[A-Z0-9_]+$/.test(value) ? value : undefined;
}

/**
 * Status, headers and network code of what n8n's HTTP helper throws (mostly a call without an
 * answer), in the shapes of test/fixtures/n8n-errors/: a NodeApiError whose `cause` is the
 * AxiosError (before 1.99, from 2.34); the same without `cause`, `httpCode` holding the status or
 * network code (1.99 to 2.33); an AxiosError itself.
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
