import { NodeApiError, type JsonObject } from 'n8n-workflow';
import type { FailedCall } from './failedCall';
import type { ErrorContext } from './failure';
import { readCreditsCharged } from './searchPage';

// Callers that still import the reading of a failed call from here keep working.
export { failedCall, type FailedCall } from './failedCall';

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
		'Rate-limited calls are not charged. Lower the Max Calls in Flight option or raise Max Wait on Rate Limits, then run again for the searches that did not finish.',
	],
};

const TIMEOUT_CODES = new Set(['ECONNABORTED', 'ETIMEDOUT']);

function describeCall({ status, code }: FailedCall): [string, string] {
	if (status !== undefined && STATUS_MESSAGES[status]) return STATUS_MESSAGES[status];
	if (status !== undefined && status >= 500) {
		return [
			`The service failed to answer (${status})`,
			'A failure on the service side is not charged. Try again later.',
		];
	}
	if (status !== undefined)
		return [`The service refused the request (${status})`, 'Check the node parameters.'];
	if (code && TIMEOUT_CODES.has(code)) {
		return [
			'The service did not answer in time',
			'Raise the Timeout option if the service is slow, or try again later. A service-side timeout is not charged.',
		];
	}
	// The network code goes in the description: n8n rewrites messages that contain one.
	return [
		'Could not reach the Sound Search service',
		`The connection failed (${code ?? 'no response'}). Check the Base URL of the Sound Search API credential and that the service is up.`,
	];
}

/**
 * A clear error for a call that got no usable HTTP answer. It is built from the status, the
 * network code and the charged credits only: the original error carries the request, its
 * Authorization header included.
 */
export function serviceError(
	ctx: ErrorContext,
	call: FailedCall,
	attempts: number,
	note = '',
): NodeApiError {
	const creditsCharged = readCreditsCharged(call.headers);
	const [message, advice] = describeCall(call);
	const tried = attempts > 1 ? ` The call was tried ${attempts} times.` : '';
	const charged =
		creditsCharged === null ? '' : ` The last try was charged ${creditsCharged} credit(s).`;
	return new NodeApiError(
		ctx.getNode(),
		{ status: call.status ?? null, networkError: call.code ?? null } as JsonObject,
		{
			itemIndex: ctx.getItemIndex(),
			httpCode: call.status === undefined ? undefined : String(call.status),
			message,
			description: `${advice}${tried}${charged}${note}`,
		},
	);
}
