import type { IDataObject } from 'n8n-workflow';

/** What is known of a call that got no usable answer. */
export interface FailedCall {
	status?: number;
	headers?: IDataObject;
	/** Network error code, such as ECONNREFUSED or ECONNABORTED (timeout); only without a status. */
	code?: string;
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
 * Reads status, headers and network code from what an n8n HTTP helper (this.makeRoutingRequest,
 * httpRequestWithAuthentication) throws, in every shape the supported n8n versions produce
 * (recorded in test/fixtures/n8n-errors/):
 * - n8n before 1.99 and from 2.34 (2.41.1): a NodeApiError whose `cause` is the AxiosError, with `cause.response`
 *   (status, headers) for an answer and `cause.code` for a call without one;
 * - n8n 1.99 to 2.33 (1.123.x included): the same NodeApiError without `cause` (a class field wipes
 *   it), so without headers; `httpCode` holds the status ("429") or the network code
 *   ("ECONNABORTED");
 * - an AxiosError itself, with `response` and `code` of its own.
 * Headers (Retry-After, X-Credits-Charged) therefore arrive only where the cause survives; the node
 * takes non-2xx answers as responses so that it reads them from the answer on every version.
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
