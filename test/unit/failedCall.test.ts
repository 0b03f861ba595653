import { failedCall } from '../../nodes/shared/transport';
import { CASE_NAMES, loadFixture, pinnedVersions } from '../fixtures/n8n-errors/fixtures';

// What the node must read from each recorded shape. Headers (Retry-After, X-Credits-Charged) ride
// on the thrown error only where n8n keeps its `cause` (2.34 and later); 1.123.x drops it.
const HEADERS_KEPT: Record<string, boolean> = { '2.x': true, '1.x': false };
const NETWORK_CODES: Record<string, string> = {
	timeout: 'ECONNABORTED',
	reset: 'ECONNRESET',
	refused: 'ECONNREFUSED',
};

const versions = pinnedVersions();
const thrownCases = CASE_NAMES.filter(
	(name: string) => name !== 'status-429.ignore-http-status-errors',
);

describe.each(versions)('n8n $version (the $line line)', ({ line, version }) => {
	it('has a recording of every case, from this version', () => {
		for (const name of CASE_NAMES) {
			expect(loadFixture(version, name)?.recordedWith).toMatchObject({ n8n: version, line });
		}
	});

	it.each(thrownCases.filter((name: string) => name.startsWith('status-')))(
		'%s: the status, and the headers where n8n keeps them',
		(name: string) => {
			const fixture = loadFixture(version, name)!;
			expect(fixture.outcome).toBe('thrown');
			const call = failedCall(fixture.error);
			expect(call.status).toBe(fixture.fault.status);
			expect(call.code).toBeUndefined();
			if (!HEADERS_KEPT[line]) expect(call.headers).toBeUndefined();
			else expect(call.headers).toMatchObject({ 'x-credits-charged': '0' });
			if (name === 'status-429' && HEADERS_KEPT[line]) {
				expect(call.headers).toMatchObject({ 'retry-after': '7' });
			}
		},
	);

	it.each(thrownCases.filter((name: string) => !name.startsWith('status-')))(
		'%s: no status, the network code',
		(name: string) => {
			const fixture = loadFixture(version, name)!;
			expect(fixture.outcome).toBe('thrown');
			expect(failedCall(fixture.error)).toEqual({ code: NETWORK_CODES[name.split('.')[0]] });
		},
	);

	it('a 429 taken as a response (ignoreHttpStatusErrors) carries its status and headers', () => {
		const fixture = loadFixture(version, 'status-429.ignore-http-status-errors')!;
		expect(fixture.outcome).toBe('answered');
		expect(fixture.answer).toMatchObject({
			statusCode: 429,
			headers: { 'retry-after': '7', 'x-credits-charged': '0' },
		});
	});
});

describe('shapes that are not recorded', () => {
	it('reads an AxiosError itself', () => {
		const headers = { 'retry-after': '3' };
		expect(failedCall({ code: 'ERR_BAD_REQUEST', response: { status: 429, headers } })).toEqual({
			status: 429,
			headers,
		});
		expect(failedCall({ code: 'ETIMEDOUT' })).toEqual({ code: 'ETIMEDOUT' });
	});

	it.each([undefined, null, 'text', 42, {}, { httpCode: null }, { httpCode: 'oops' }])(
		'reads nothing from %p',
		(error) => {
			expect(failedCall(error)).toEqual({});
		},
	);
});
