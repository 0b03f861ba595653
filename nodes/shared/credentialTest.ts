import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IDataObject,
	INodeCredentialTestResult,
} from 'n8n-workflow';
import { baseUrlNotValid, credentialTestFailed, notTheService } from './errors';
import { parseBaseUrl } from './input';
import { failedCall } from './transport';

// The credential's test, run by n8n through `testedBy` in both nodes' credential entry (when the
// credential is saved or opened; n8n 2.x and 1.123 have no Test button): one
// search with an empty query, which the service refuses before any fetch and never charges, but
// only after it has checked the key. A function rather than the credential's declarative `test`:
// that one shows n8n's raw codes ("ECONNREFUSED", "Not Found") and fails a good key when the
// service refuses the empty query with 400 or 422. n8n runs a credential's own `test` instead of
// any `testedBy`, so the credential must not have one.

/** A Test should not leave the form waiting as long as a search may. */
const TEST_TIMEOUT_MS = 15_000;
/** What services refuse a bad query with besides 200 (the spec gives no status): the key was good. */
const REFUSAL_STATUSES = [400, 422];

interface TestAnswer {
	statusCode: number;
	body: unknown;
}

/** Tests a Sound Search API credential with one free call; errors say what to fix. */
export async function testSoundSearchApi(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const { apiKey, baseUrl } = (credential.data ?? {}) as IDataObject;
	const base = parseBaseUrl(baseUrl);
	if (base === undefined) return failed(baseUrlNotValid(String(baseUrl)).join('. '));
	const endpoint = `${base}/v1/shortvideo/sound/search`;
	// `request` is the only HTTP helper n8n gives a credential test (ICredentialTestFunctions has
	// no httpRequest). It sends once: httpRequestWithAuthentication would send a 401's call again.
	const { helpers } = this;
	let answer: TestAnswer;
	try {
		answer = (await helpers.request({
			method: 'GET',
			uri: endpoint,
			qs: { q: '' },
			headers: { Accept: 'application/json', Authorization: `Bearer ${String(apiKey)}` },
			json: true,
			// Every status is an answer to read, not a thrown error carrying the request (and key).
			simple: false,
			resolveWithFullResponse: true,
			timeout: TEST_TIMEOUT_MS,
		})) as TestAnswer;
	} catch (error) {
		return failed(credentialTestFailed(failedCall(error), endpoint));
	}
	return verdict(answer, endpoint);
}

/** Only 401 and 403 say the key is bad; a refusal of the empty query, whatever its status, is good. */
function verdict({ statusCode: status, body }: TestAnswer, endpoint: string) {
	const json = typeof body === 'object' && body !== null;
	if (status >= 200 && status <= 299 && !json) return failed(notTheService(endpoint, status));
	if ((status >= 200 && status <= 299) || REFUSAL_STATUSES.includes(status))
		return {
			status: 'OK',
			message: 'Connection successful: the service accepted the API key',
		} as const;
	return failed(credentialTestFailed({ status }, endpoint));
}

const failed = (message: string) => ({ status: 'Error', message }) as const;
