import type { INodeParameters } from 'n8n-workflow';
import { API_KEY, NOTHING_SPENT, useReferenceService } from '../harness/engine/searchFixture';
import { TriggerUnderTest, useTrendClock } from '../harness/engine/trigger';

// The Sound Search Trigger's input checks to the letter, as inputChecks.test.ts does for the
// Sound Search node: each case fails on a one-line change of
// nodes/SoundSearchTrigger/triggerInput.ts (docs/testing.md, mutation testing).

const { service, calls, refused } = useReferenceService();

describe('Sound Search Trigger: input', () => {
	const clock = useTrendClock(service);
	const trigger = (parameters: INodeParameters) => {
		const options = { minPollInterval: 0, ...(parameters.options as INodeParameters) };
		return new TriggerUnderTest(
			{ platform: 'shortvideo', keywords: 'lofi', limit: 10, ...parameters, options },
			{ apiKey: API_KEY, baseUrl: service().url },
		);
	};
	const asked = async () => (await calls()).map(({ q, limit }) => `${q} ${limit}`);

	it('splits keywords on commas and new lines, keeps their order, searches each once', async () => {
		await trigger({ keywords: 'lofi\nrainy  jazz, Workout,\n\nRainy Jazz, LOFI' }).poll();

		expect(await asked()).toEqual(['lofi 10', 'rainy  jazz 10', 'Workout 10']);
	});

	// Turkish kır (countryside) and kir (dirt) are the same in capitals (KIR): folding to upper
	// case would drop one. "lo fi" and "lofi" differ by more than spacing.
	it('keywords that differ in more than letter case or spacing are each searched', async () => {
		await trigger({ keywords: 'kır, kir, lo fi, lofi' }).poll();

		expect(await asked()).toEqual(['kır 10', 'kir 10', 'lo fi 10', 'lofi 10']);
	});

	it('keywords that are not text are refused, naming Keywords', async () => {
		const { message } = await refused(trigger({ keywords: '={{ 7 }}' }).poll());
		expect(message).toBe(
			'The "Keywords" parameter must be text, but its expression gave number 7 [item 0]',
		);
	});

	it.each<[string, INodeParameters, string]>([
		[
			'commas only',
			{ keywords: ', ,\n' },
			'Enter one or more keywords, separated by commas or new lines.',
		],
		[
			'Rising Sound on the photo-and-video platform',
			{ event: 'risingSound', platform: 'photosocial' },
			'Use the New Sound event on that platform, or watch the short-video platform for rising sounds.',
		],
	])('%s: refused with advice', async (_case, parameters, advice) => {
		const { description } = await refused(trigger(parameters).poll());
		expect(description).toBe(`${advice}${NOTHING_SPENT}`);
	});

	it.each<[string, INodeParameters, RegExp]>([
		['a limit above 1000', { limit: 1001 }, /"Limit" .* from 1 to 1000, but it is number 1001/],
		[
			'max pages above 100',
			{ options: { maxPages: 101 } },
			/"Max Pages per Keyword" .* from 1 to 100, but it is number 101/,
		],
		['remembering under 100 sounds', { options: { rememberSounds: 99 } }, /from 100 to 20000/],
		['a negative poll interval', { options: { minPollInterval: -1 } }, /from 0 to 10080/],
		['max credits of 0', { options: { maxCredits: 0 } }, /"Max Credits" .* from 1 to 10000000/],
		['negative top risers', { options: { topRisers: -1 } }, /"Top Risers per Poll" .* from 0 to/],
		['a growth window over 30 days', { options: { growthWindowHours: 720.5 } }, /but it is 720.5/],
		[
			'negative post growth',
			{ event: 'risingSound', minGrowthPosts: -1 },
			/"Min Growth \(Posts\)" .* from 0 to 100000000, but it is number -1/,
		],
	])('%s is refused', async (_case, parameters, message) => {
		expect((await refused(trigger(parameters).poll())).message).toMatch(message);
	});

	it('a growth window under 3 minutes is refused with advice', async () => {
		expect(await refused(trigger({ options: { growthWindowHours: 0.04 } }).poll())).toEqual({
			message:
				'The "Growth Window (Hours)" parameter must be a number from 0.05 to 720, but it is 0.04 [item 0]',
			description: `Set "Growth Window (Hours)" to a number of hours in that range, e.g. 24.${NOTHING_SPENT}`,
		});
	});

	it.each([0.05, 720])(
		'takes a growth window of %s hours (the ends of its range)',
		async (hours) => {
			const poll = await trigger({ options: { growthWindowHours: hours } }).poll();

			expect(poll.error).toBeUndefined();
			expect(await calls()).toHaveLength(1);
		},
	);

	it('the event is New Sound unless Rising Sound is chosen', async () => {
		const watch = trigger({ event: 'somethingElse' });
		await watch.poll();
		await service().passTime({ newSounds: { lofi: 1 } });

		expect((await watch.poll()).items).toHaveLength(1);
	});

	it('Min Minutes Between Polls counts minutes: 1 skips a poll 40 s on, not one 70 s on', async () => {
		const watch = trigger({ options: { minPollInterval: 1 } });
		await watch.poll();
		await clock.advance(40 / 86400, { serviceToo: false });
		await watch.poll();
		expect(await calls()).toHaveLength(1);
		await clock.advance(30 / 86400, { serviceToo: false });
		await watch.poll();
		expect(await calls()).toHaveLength(2);
	});
});
