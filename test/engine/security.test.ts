import { startReferenceService } from '../harness/referenceService';
import {
	searchOn,
	servicePage,
	useReferenceService,
	type ReferenceService,
} from '../harness/engine/searchFixture';

const { service, search, calls } = useReferenceService();

describe('the credential Base URL is checked before any request', () => {
	const host = () => new URL(service().url).host;
	it.each([
		['not a URL', () => 'sound search'],
		['a query', () => `${service().url}/?region=eu`],
		['a fragment', () => `${service().url}/#top`],
		['user info', () => `http://user:pw@${host()}`],
		['another protocol', () => `ftp://${host()}`],
	])('refuses %s, naming the Base URL', async (_case, baseUrl) => {
		const run = await searchOn(baseUrl(), { query: 'lofi' });

		expect(run.error?.message).toMatch(
			/^The "Base URL" of the Sound Search API credential is not an http\(s\) address without query, fragment or user info/,
		);
		expect(await calls()).toHaveLength(0);
	});
});

describe('the key only ever goes to the Base URL host', () => {
	let decoy: ReferenceService;
	beforeAll(async () => {
		decoy = await startReferenceService({ keys: ['dummy-decoy-key'] });
	});
	afterAll(async () => {
		await decoy.stop();
	});
	const lofi = (options: object) => ({ query: 'lofi', options: { maxRetries: 0, ...options } });

	it('a cursor holding another address is sent as a query value to the same host', async () => {
		const trap = encodeURI(`${decoy.url}/v1/shortvideo/sound/search?q=lofi`);
		const run = await search(lofi({ startCursor: trap }));

		expect(run.error?.message).toMatch(/success: false \(invalid_cursor/);
		expect((await calls()).map((call) => call.cursor)).toEqual([trap]);
		expect((await decoy.ledger()).requests).toHaveLength(0);
	});

	it('a nextCursor the service returns is followed on the same host only', async () => {
		const trap = `${decoy.url}/v1/shortvideo/sound/search`;
		await service().injectFaults([
			{
				match: { cursor: 'none' },
				response: { status: 200, creditsCharged: 1, body: servicePage([{ soundId: '1' }], trap) },
			},
		]);
		await search({ ...lofi({}), returnAll: true });

		expect((await calls()).map((call) => call.cursor)).toEqual([null, trap]);
		expect((await decoy.ledger()).requests).toHaveLength(0);
	});
});
