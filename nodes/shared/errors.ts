import {
	ExecutionBaseError,
	NodeApiError,
	NodeOperationError,
	type INode,
	type INodeExecutionData,
	type JsonObject,
} from 'n8n-workflow';

// Every error the nodes raise, built from plain values, never from an HTTP helper's error: that
// carries the request, its Authorization header included.

/** Where an error happened: the node and the input item (for the trigger, the keyword's place). */
export interface ErrorContext {
	node: INode;
	itemIndex: number;
}

/** A call with no usable answer: its status and the headers the node reads, or a network code. */
export interface FailedCall {
	status?: number;
	headers?: Record<string, unknown>;
	code?: string;
}

/** Reads `X-Credits-Charged` of an answer; never invents a 0 the service did not send. */
export function readCreditsCharged(headers: Record<string, unknown> | undefined): number | null {
	const raw = headers?.['x-credits-charged'];
	const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
	return Number.isInteger(value) && value >= 0 ? value : null;
}

/** A call not started: another item's failure doomed the run, or it was cancelled. */
export class RunStopped extends Error {}

/** A search that could not start a call within Max Credits. Never retried. */
export class CreditBudgetReached extends NodeOperationError {}

/** Bad input, found before any call: names the field and the item. */
export function invalid({ node, itemIndex }: ErrorContext, message: string, description: string) {
	return new NodeOperationError(node, `${message} [item ${itemIndex}]`, {
		itemIndex,
		description: `${description} No request was sent and no credits were spent.`,
	});
}

export function invalidProxy(node: INode, value: string) {
	return new NodeOperationError(node, 'The proxy is not valid', {
		description: `Set Request Options → Proxy to an address like http://127.0.0.1:3128, not ${JSON.stringify(value.slice(0, 80))}. No request was sent.`,
	});
}

const charged = (credits: number | null) => (credits === null ? 'an unknown number of' : credits);

/** A 2xx answer that is not a page of sounds; `message` says what came back instead. */
export function answerError(
	{ node, itemIndex }: ErrorContext,
	message: string,
	status: number,
	creditsCharged: number | null,
) {
	return new NodeApiError(node, { status, creditsCharged } as JsonObject, {
		itemIndex,
		httpCode: String(status),
		message,
		description: `This call was charged ${charged(creditsCharged)} credit(s) (X-Credits-Charged). It is not retried: the same request would get the same answer.`,
	});
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
	// A wrong Base URL (a missing or extra path) reaches a server that has no search endpoint.
	404: [
		'The service has no such endpoint (404 Not Found)',
		"Check the Base URL of the Sound Search API credential: the node adds /v1/<platform>/sound/search to it, so it is the service address (with your provider's path if it gives one, e.g. https://api.vendor.example/sound-search), not the full search address.",
	],
	429: [
		'The service is rate limiting this API key (429 Too Many Requests)',
		'Rate-limited calls are not charged. Lower the Max Calls in Flight option or raise Max Wait on Rate Limits, then run again for the searches that did not finish.',
	],
};

const TIMEOUT_CODES = new Set(['ECONNABORTED', 'ETIMEDOUT']);
const NOT_CHARGED = 'A failure on the service side is not charged.';

function describeCall({ status, code }: FailedCall): [string, string] {
	if (status !== undefined && STATUS_MESSAGES[status]) return STATUS_MESSAGES[status];
	if (status !== undefined && status >= 500)
		return [`The service failed to answer (${status})`, `${NOT_CHARGED} Try again later.`];
	if (status !== undefined)
		return [`The service refused the request (${status})`, 'Check the node parameters.'];
	if (code && TIMEOUT_CODES.has(code))
		return [
			'The service did not answer in time',
			'Raise the Timeout option if the service is slow, or try again later. A service-side timeout is not charged.',
		];
	// The network code goes in the description: n8n rewrites messages that contain one.
	return [
		'Could not reach the Sound Search service',
		`The connection failed (${code ?? 'no response'}). Check the Base URL of the Sound Search API credential and that the service is up.`,
	];
}

/** A credential Base URL the key must not be sent to: [message, what to do]. */
export function baseUrlNotValid(text: string): [string, string] {
	return [
		`The "Base URL" of the Sound Search API credential is not an http(s) address without query, fragment or user info: ${JSON.stringify(text.slice(0, 80))}`,
		'Set it to the service address, like https://sound-search.example.com, http://127.0.0.1:4010 or https://api.vendor.example/sound-search (the node adds /v1/... to it), without a query, fragment or user info.',
	];
}

// The credential Test says what a node run would say; only the advice differs where a run's
// points at node options (a Test has none) or says "of this node".
const TEST_ADVICE: Record<number, string> = {
	401: 'Check the API key: paste it again from your Sound Search account.',
	402: 'The key is valid: add credits to its account before running a workflow.',
	403: 'The key may be revoked: use a valid key.',
	429: 'Rate-limited calls are not charged. Test again in a minute.',
};

/** The credential Test's message for a call that shows the credential will not work as set. */
export function credentialTestFailed(call: FailedCall, endpoint: string): string {
	const [message, runAdvice] = describeCall(call);
	const { status, code } = call;
	let advice = runAdvice;
	if (status !== undefined && TEST_ADVICE[status]) advice = TEST_ADVICE[status];
	else if (status !== undefined && !STATUS_MESSAGES[status] && status < 500)
		advice = 'Check the Base URL: it should be the address of the Sound Search service.';
	else if (code && TIMEOUT_CODES.has(code))
		advice = 'Check the Base URL and that the service is up, then test again.';
	// Without an answer the address is what to check; with one, the status says enough.
	return `${message}${status === undefined ? ` at ${endpoint}` : ''}. ${advice}`;
}

/** The credential Test's message for a 2xx answer that is not JSON (a web page, say). */
export function notTheService(endpoint: string, status: number): string {
	return `The address answered ${status} with something that is not JSON at ${endpoint}: it is not the Sound Search service. Check the Base URL.`;
}

/** A call that got no usable HTTP answer, after `attempts` tries. */
export function serviceError(
	{ node, itemIndex }: ErrorContext,
	call: FailedCall,
	attempts: number,
	note = '',
): NodeApiError {
	const [message, advice] = describeCall(call);
	const tried = attempts > 1 ? ` The call was tried ${attempts} times.` : '';
	const credits = readCreditsCharged(call.headers);
	const last = credits === null ? '' : ` The last try was charged ${credits} credit(s).`;
	return new NodeApiError(
		node,
		{ status: call.status ?? null, networkError: call.code ?? null } as JsonObject,
		{
			itemIndex,
			httpCode: call.status === undefined ? undefined : String(call.status),
			message,
			description: `${advice}${tried}${last}${note}`,
		},
	);
}

/** How many of the run's searches had all their pages when it stopped. */
export type Progress = Record<'finished' | 'total', number>;

/** Refused by rate limits for longer than Max Wait on Rate Limits without any call going through. */
export function rateLimitError(
	at: ErrorContext,
	call: FailedCall,
	attempts: number,
	{ waitSeconds, progress }: { waitSeconds: number; progress: Progress },
) {
	const note =
		` No call of this run went through for its Max Wait on Rate Limits ` +
		`(${waitSeconds} s); ${progress.finished} of ${progress.total} searches finished.`;
	return serviceError(at, call, attempts, note);
}

export interface Spent {
	per: 'run' | 'poll';
	maxCredits: number;
	credits: number;
	calls: number;
	freeCalls: number;
}

/** A search that reached Max Credits: what finished, what was spent, how to go on. */
export function budgetReached(
	{ node, itemIndex }: ErrorContext,
	{ per, maxCredits, credits, calls, freeCalls }: Spent,
	{ finished, total }: Progress,
): CreditBudgetReached {
	const free = freeCalls > 0 ? `, ${freeCalls} of them free (cached or refused)` : '';
	return new CreditBudgetReached(
		node,
		`This ${per} reached its Max Credits (${maxCredits}) with ${finished} of ${total} searches finished and ${credits} credits spent [item ${itemIndex}]`,
		{
			itemIndex,
			description: `The ${per} made ${calls} calls${free}, and started none that could take it past ${maxCredits} credits. Raise Max Credits, or run the searches that did not finish again: with Continue On Fail they come out as error items with their query, and the finished ones keep their sounds.`,
		},
	);
}

export interface Fetched {
	pages: number;
	sounds: number;
	credits: number | null;
	nextCursor: string;
}

/** A cursor that would loop or overspend was not followed. */
export function searchStopped({ node, itemIndex }: ErrorContext, reason: string, done: Fetched) {
	return new NodeOperationError(node, `Search stopped: ${reason}`, {
		itemIndex,
		description:
			`${done.sounds} sounds were fetched in ${done.pages} calls (${charged(done.credits)} credits) before the node stopped, ` +
			`to protect your credits. To go on from here, run again with the Start Cursor option set to ${done.nextCursor} ` +
			'(pages fetched moments ago are answered from the service cache for free).',
	});
}

/** n8n's own errors pass as they are; anything else (a bug) becomes a NodeOperationError. */
export function asNodeError({ node, itemIndex }: ErrorContext, error: unknown): ExecutionBaseError {
	if (error instanceof ExecutionBaseError) return error;
	return new NodeOperationError(node, error as Error, { itemIndex });
}

/** An identical search of the same run failed: its error, reported on this item as its own. */
export function sharedSearchFailed({ node, itemIndex }: ErrorContext, error: ExecutionBaseError) {
	return new NodeOperationError(node, error.message, {
		itemIndex,
		description: error.description ?? undefined,
	});
}

/**
 * A failed search's item with Continue On Fail, paired with its input item. Only `error` and
 * `details`: the shape n8n sends to the error output, keeping the description.
 */
export function errorItem(itemIndex: number, error: ExecutionBaseError): INodeExecutionData {
	return {
		json: { error: error.message, ...(error.description ? { details: error.description } : {}) },
		pairedItem: { item: itemIndex },
	};
}
