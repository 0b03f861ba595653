import {
	type IDataObject,
	type IExecuteSingleFunctions,
	type IN8nHttpFullResponse,
	type INodeExecutionData,
	type JsonObject,
} from 'n8n-workflow';
import { ServiceAnswerError } from './answerError';
import type { ErrorContext } from './failure';
import { RATE_LIMIT_HEADERS } from './rateQuota';
import type { FailedCall } from './serviceError';

/** One answered call of a search endpoint, reduced to what the paginator needs. */
export interface SearchPage {
	sounds: IDataObject[];
	nextCursor: string | null;
	/** X-Credits-Charged of this call; null when the header is missing or not a number. */
	creditsCharged: number | null;
}

/**
 * One answered call: a page, or an HTTP status that is not a success. The node asks n8n to hand
 * over every status as an answer (not an error), so status, Retry-After and X-Credits-Charged
 * are read here the same way on every n8n version.
 */
export type SearchAnswer = { page: SearchPage } | { failed: FailedCall };

/** Reads `X-Credits-Charged`; never invents a 0 the service did not send. */
export function readCreditsCharged(headers: IDataObject | undefined): number | null {
	const raw = headers?.['x-credits-charged'];
	const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
	return Number.isInteger(value) && value >= 0 ? value : null;
}

/** Routing postReceive: turns one HTTP answer into a SearchAnswer, or a clear error. */
export async function readSearchPage(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const answer = readAnswer(this, response);
	return [{ json: answer as unknown as IDataObject }];
}

/** One HTTP answer (any status) as a SearchAnswer; a 2xx that is not a page is a clear error. */
export function readAnswer(ctx: ErrorContext, response: IN8nHttpFullResponse): SearchAnswer {
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
	if (typeof page === 'string') throw pageError(ctx, page, response, creditsCharged);
	return { page };
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

function pageError(
	ctx: ErrorContext,
	message: string,
	response: IN8nHttpFullResponse,
	creditsCharged: number | null,
) {
	const credits = creditsCharged === null ? 'an unknown number of' : String(creditsCharged);
	return new ServiceAnswerError(
		ctx.getNode(),
		{ status: response.statusCode, creditsCharged } as JsonObject,
		{
			itemIndex: ctx.getItemIndex(),
			httpCode: String(response.statusCode),
			message,
			description: `This call was charged ${credits} credit(s) (X-Credits-Charged). It is not retried: the same request would get the same answer.`,
		},
	);
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
