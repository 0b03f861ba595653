import { NodeApiError, type IDataObject, type IExecuteSingleFunctions, type JsonObject } from 'n8n-workflow';
import { readCreditsCharged } from './searchPage';

interface FailedCall {
	status?: number;
	headers?: IDataObject;
	code?: string;
}

const STATUS_MESSAGES: Record<number, [string, string]> = {
	401: [
		'The service rejected the API key (401 Unauthorized)',
		'Check the API key in the Sound Search API credential of this node.',
	],
	403: [
		'The API key is not allowed to search (403 Forbidden)',
		'The key may be revoked: put a valid key in the Sound Search API credential of this node.',
	],
	402: [
		'The API key has no credits left (402 Payment Required)',
		'Add credits to the account of this API key, then run the workflow again.',
	],
	429: [
		'The service is rate limiting this API key (429 Too Many Requests)',
		'Run fewer searches at once or space them out, then try again.',
	],
};

/** Reads status, headers and network code from an error thrown by an n8n HTTP helper. */
function failedCall(error: unknown): FailedCall {
	const cause = (error as { cause?: unknown })?.cause ?? error;
	const { response, code } = (cause ?? {}) as { response?: IDataObject; code?: string };
	const status = typeof response?.status === 'number' ? response.status : undefined;
	return { status, headers: response?.headers as IDataObject | undefined, code };
}

function describeCall({ status, code }: FailedCall): [string, string] {
	if (status !== undefined && STATUS_MESSAGES[status]) return STATUS_MESSAGES[status];
	if (status !== undefined && status >= 500) {
		return [
			`The service failed to answer (${status})`,
			'A failure on the service side is not charged. Try again later; Retry On Fail in the node settings can do it for you.',
		];
	}
	if (status !== undefined) return [`The service refused the request (${status})`, 'Check the node parameters.'];
	return [
		`Could not reach the Sound Search service (${code ?? 'no response'})`,
		'Check the Base URL of the Sound Search API credential and that the service is up.',
	];
}

/**
 * A clear error for a call that got no usable HTTP answer. It is built from the status and the
 * charged credits only: the original error carries the request, Authorization header included.
 */
export function serviceError(ctx: IExecuteSingleFunctions, error: unknown): NodeApiError {
	const call = failedCall(error);
	const creditsCharged = readCreditsCharged(call.headers);
	const [message, advice] = describeCall(call);
	const charged = creditsCharged === null ? '' : ` The call was charged ${creditsCharged} credit(s).`;
	return new NodeApiError(ctx.getNode(), { status: call.status ?? null, creditsCharged } as JsonObject, {
		itemIndex: ctx.getItemIndex(),
		httpCode: call.status === undefined ? undefined : String(call.status),
		message,
		description: `${advice}${charged}`,
	});
}
