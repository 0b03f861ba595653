import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { API_KEY, fetchDirect, useReferenceService } from '../harness/engine/searchFixture';
import { scriptSounds, TriggerUnderTest, useTrendClock } from '../harness/engine/trigger';

// The trigger's memory in static data: bounded per sound (the readings a window needs) and per
// trigger (sized from the keywords and Limit, forgetting the sounds seen longest ago), and the
// memory the current version (1) wrote read without a flood of alerts or a lost baseline.

const { service, calls } = useReferenceService();
const clock = useTrendClock(service);

function watcher(parameters: INodeParameters) {
	return new TriggerUnderTest(
		{ platform: 'shortvideo', limit: 50, ...parameters },
		{ apiKey: API_KEY, baseUrl: service().url },
	);
}
const keysOf = async (q: string) =>
	(await fetchDirect(service(), 'shortvideo', { q, limit: 50 })).items.map(
		(sound) => `shortvideo:${String(sound.soundId)}`,
	);
const bytesPerSound = (watch: TriggerUnderTest) =>
	JSON.stringify(watch.staticData).length / Object.keys(watch.remembered()).length;

it('per sound, only the readings a window can still need: hourly polls for three days', async () => {
	const watch = watcher({ keywords: 'lofi', event: 'risingSound' });
	for (let hour = 0; hour <= 72; hour++) {
		if (hour > 0) await clock.advance(1 / 24);
		expect((await watch.poll()).error).toBeUndefined();
	}

	const records = Object.values(watch.remembered());
	expect(records).toHaveLength(50);
	// [flags, t0, c0] and (seconds, posts) deltas: one reading before the window, one every
	// 3 hours within it (8), the latest.
	for (const record of records) expect(record.length).toBeLessThanOrEqual(3 + 2 * 10);
	expect(bytesPerSound(watch)).toBeLessThan(200);
});

it('forgets the sounds seen longest ago, never one still in the answers', async () => {
	// Remember Sounds 100 and 1 keyword of 50: twice what a poll finds, 100.
	const watch = watcher({
		keywords: 'alpha',
		options: { rememberSounds: 100, minPollInterval: 0 },
	});
	await watch.poll();
	for (const keywords of ['beta', 'gamma']) {
		await clock.advance(1);
		const widened = watcher({ keywords, options: { rememberSounds: 100, minPollInterval: 0 } });
		widened.staticData = watch.staticData;
		await widened.poll();
		watch.staticData = widened.staticData;
	}

	const remembered = Object.keys(watch.remembered()).sort();
	expect(remembered).toEqual([...(await keysOf('beta')), ...(await keysOf('gamma'))].sort());
});

it('45 keywords of 50 sounds with the default options: no sound comes back as new', async () => {
	const keywords = Array.from({ length: 45 }, (_, index) => `topic ${index + 1}`);
	for (const query of keywords) await service().setCatalogue({ query, total: 50 });
	const watch = watcher({ keywords: keywords.join(', ') });

	expect((await watch.poll()).items).toEqual([]);
	for (let poll = 0; poll < 3; poll++) {
		await clock.advance(1 / 24); // the default minimum interval: an hour
		const { items, error } = await watch.poll();
		expect(error).toBeUndefined();
		expect(items).toEqual([]);
	}
	expect(Object.keys(watch.remembered())).toHaveLength(2250);
	expect(await calls()).toHaveLength(4 * 45);
});

it('the baseline is kept per platform: another platform starts with its own', async () => {
	const options = { minPollInterval: 0 };
	const watch = watcher({ keywords: 'lofi', limit: 10, options });
	await watch.poll();
	const other = watcher({ keywords: 'lofi', limit: 10, platform: 'photosocial', options });
	other.staticData = watch.staticData;

	expect((await other.poll()).items).toEqual([]);
	expect(Object.keys(other.remembered())).toHaveLength(20);
});

describe('memory written by the current version (1)', () => {
	/** Version 1's shape: [firstSeenAt, postCountThen, flags (1: reported as rising)]. */
	async function versionOne(query: string, firstSeenDaysAgo: number, risingEmitted: number[]) {
		const nowS = Math.floor(Date.now() / 1000);
		const firstSeenAt = nowS - Math.round(firstSeenDaysAgo * 86400);
		const { items } = await fetchDirect(service(), 'shortvideo', { q: query, limit: 50 });
		const sounds: IDataObject = {};
		items.forEach((sound, index) => {
			const flags = risingEmitted.includes(index) ? 1 : 0;
			// Counts then: half of today's, so every sound grew 100 % "since first seen".
			sounds[`shortvideo:${String(sound.soundId)}`] = [
				firstSeenAt,
				Math.round(Number(sound.postCount) / 2),
				flags,
			];
		});
		const trends = { baselined: [`shortvideo:${query}`], lastPollAt: firstSeenAt, sounds };
		return { 'node:Sound Search Trigger': { trends } };
	}

	it('no flood of alerts and no lost baseline: growth since weeks ago is no rise now', async () => {
		const rising = watcher({
			keywords: 'legacy',
			event: 'risingSound',
			options: { minPollInterval: 0 },
		});
		rising.staticData = await versionOne('legacy', 20, []);
		expect((await rising.poll()).items).toEqual([]);
		const news = watcher({ keywords: 'legacy', options: { minPollInterval: 0 } });
		news.staticData = await versionOne('legacy', 20, []);
		expect((await news.poll()).items).toEqual([]);
		expect(Object.keys(news.remembered())).toHaveLength(50);
	});

	it('a recent first reading still measures a window; a sound reported as rising stays quiet', async () => {
		const [reported, fresh] = await scriptSounds(service(), 'legacy two', [{}, {}]);
		const watch = watcher({
			keywords: 'legacy two',
			limit: 2,
			event: 'risingSound',
			options: { minPollInterval: 0 },
		});
		watch.staticData = await versionOne('legacy two', 0.5, [0]);

		expect((await watch.poll()).items.map(({ json }) => json.soundId)).toEqual([fresh]);
		expect(reported).not.toEqual(fresh);
	});
});
