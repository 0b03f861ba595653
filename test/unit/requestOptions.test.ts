import type { INode } from 'n8n-workflow';
import { readRequestOptions } from '../../nodes/SoundSearch/searchInput';

// n8n's Request Options as the Search operation reads them: test/engine/outputHint.test.ts proves
// a proxy and Batching through the engine; here, what a plain HTTP proxy on loopback cannot show
// (an https proxy's port, a proxy's user and password, the certificate setting), Batching's edges.

const NODE: INode = {
	id: 'n1',
	name: 'Sound Search',
	type: 'n8n-nodes-sound-search.soundSearch',
	typeVersion: 2,
	position: [0, 0],
	parameters: {},
};

describe("n8n's Request Options", () => {
	it("a proxy's user and password go with it, decoded; an empty Proxy is none", () => {
		expect(readRequestOptions(NODE, { proxy: '' })).toEqual({ http: {} });
		const { http } = readRequestOptions(NODE, { proxy: 'http://me:p%40ss@127.0.0.1:3128' });

		expect(http.proxy).toEqual({
			host: '127.0.0.1',
			port: 3128,
			protocol: 'http',
			auth: { username: 'me', password: 'p@ss' },
		});
	});

	it("a proxy without a port uses its scheme's: 80 for http, 443 for https; no auth without a user", () => {
		expect(readRequestOptions(NODE, { proxy: 'http://proxy.example' }).http.proxy).toEqual({
			host: 'proxy.example',
			port: 80,
			protocol: 'http',
		});
		expect(readRequestOptions(NODE, { proxy: 'https://proxy.example' }).http.proxy).toEqual({
			host: 'proxy.example',
			port: 443,
			protocol: 'https',
		});
	});

	it('Ignore SSL Issues skips certificate validation only when on', () => {
		expect(readRequestOptions(NODE, { allowUnauthorizedCerts: true }).http).toEqual({
			skipSslCertificateValidation: true,
		});
		expect(readRequestOptions(NODE, { allowUnauthorizedCerts: false }).http).toEqual({});
	});

	it.each([
		[
			'a batch size of 0 read as 1',
			{ batchSize: 0, batchInterval: 200 },
			{ size: 1, intervalMs: 200 },
		],
		['no interval: no batches', { batchSize: 3, batchInterval: 0 }, undefined],
	])('Batching: %s', (_case, batch, expected) => {
		expect(readRequestOptions(NODE, { batching: { batch } }).batch).toEqual(expected);
	});
});
