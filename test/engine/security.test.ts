import { startReferenceService } from '../harness/referenceService';
import {
	servicePage,
	useReferenceService,
	type ReferenceService,
} from '../harness/engine/searchFixture';

const { service, search, calls } = useReferenceService();

// The Base URL itself is checked before any request: inputChecks.test.ts.
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
