import { runSoundSearch } from '../harness/engine';
import { startReferenceService } from '../harness/referenceService';
import {
	API_KEY,
	requestsSeen,
	search,
	useReferenceService,
	type ReferenceService,
} from '../harness/searchFixture';

const { service } = useReferenceService();

describe('the credential Base URL is checked before any request', () => {
	it.each([
		['not a URL', 'sound search'],
		['a path', '/v1/shortvideo'],
		['a query', '/?region=eu'],
		['a fragment', '/#top'],
		['user info', 'USERINFO'],
		['another protocol', 'FTP'],
	])('refuses %s, naming the Base URL', async (_case, variant) => {
		const url = new URL(service().url);
		const baseUrl =
			variant === 'sound search'
				? variant
				: variant === 'USERINFO'
					? `http://user:pw@${url.host}`
					: variant === 'FTP'
						? `ftp://${url.host}`
						: `${service().url}${variant}`;
		const run = await runSoundSearch({
			parameters: { platform: 'shortvideo', query: 'lofi' },
			credentials: { apiKey: API_KEY, baseUrl },
		});

		expect(run.error?.message).toMatch(
			/^The "Base URL" of the Sound Search API credential is not a bare http\(s\) address/,
		);
		expect(await requestsSeen(service())).toHaveLength(0);
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

	it('a cursor holding another address is sent as a query value to the same host', async () => {
		const trap = `${decoy.url}/v1/shortvideo/sound/search?q=lofi`;
		const run = await search(service(), {
			parameters: {
				platform: 'shortvideo',
				query: 'lofi',
				options: { startCursor: encodeURI(trap), maxRetries: 0 },
			},
		});

		expect(run.error?.message).toMatch(/success: false \(invalid_cursor/);
		expect((await requestsSeen(service())).map((call) => call.cursor)).toEqual([encodeURI(trap)]);
		expect((await decoy.ledger()).requests).toHaveLength(0);
	});

	it('a nextCursor the service returns is followed on the same host only', async () => {
		const trap = `${decoy.url}/v1/shortvideo/sound/search`;
		await service().injectFaults([
			{
				match: { cursor: 'none' },
				response: {
					status: 200,
					creditsCharged: 1,
					body: {
						success: true,
						available: true,
						data: { items: [{ soundId: '1' }], nextCursor: trap },
					},
				},
			},
		]);
		await search(service(), {
			parameters: {
				platform: 'shortvideo',
				query: 'lofi',
				returnAll: true,
				options: { maxRetries: 0 },
			},
		});

		expect((await requestsSeen(service())).map((call) => call.cursor)).toEqual([null, trap]);
		expect((await decoy.ledger()).requests).toHaveLength(0);
	});
});
