import { BY_KEYWORD, keywordItems, useReferenceService } from '../harness/engine/searchFixture';

const { search, calls } = useReferenceService();

describe('answers that carry no sounds', () => {
	it('an empty result gives no items, and its call is still charged', async () => {
		const run = await search({ platform: 'photosocial', query: 'no such sound', returnAll: true });

		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(0);
		expect(await calls()).toEqual([
			expect.objectContaining({ q: 'no such sound', outcome: 'empty', creditsCharged: 2 }),
		]);
	});

	it.each(['private', 'deleted', 'unsupported'])(
		'available: false (%s) fails with the typed status and the credits charged, never an empty success',
		async (status) => {
			const run = await search({ query: `${status} sound`, limit: 10 });

			expect(run.items).toHaveLength(0);
			expect(run.error?.message).toBe(
				`The service answered available: false with status "${status}"`,
			);
			expect(run.error?.description).toMatch(/charged 1 credit/);
			expect(run.error?.context?.itemIndex).toBe(0);
			expect(await calls()).toHaveLength(1);
		},
	);

	it('available: false with "Continue (regular output)" gives an error item for that input only', async () => {
		const run = await search(
			{ ...BY_KEYWORD, platform: 'photosocial', limit: 2 },
			{
				input: keywordItems('private sound', 'lofi'),
				nodeSettings: { onError: 'continueRegularOutput' },
			},
		);

		expect(run.error).toBeUndefined();
		const errors = run.items.filter(({ json }) => json.error);
		expect(errors).toHaveLength(1);
		expect(errors[0].json.error).toMatch(/status "private"/);
		expect(run.items.filter(({ json }) => json.soundId)).toHaveLength(2);
	});
});

describe('authentication', () => {
	it('a rejected key fails with an authentication error that does not contain the key', async () => {
		const run = await search({ query: 'lofi' }, { apiKey: 'wrong-key-91d0' });

		expect(run.error?.message).toBe('The service rejected the API key (401 Unauthorized)');
		expect(run.error?.description).toMatch(/Sound Search API credential/);
		expect(JSON.stringify(run.error)).not.toContain('wrong-key-91d0');
		expect((await calls()).every((call) => call.status === 401 && call.creditsCharged === 0)).toBe(
			true,
		);
	});
});
