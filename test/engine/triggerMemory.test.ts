import type { IDataObject } from 'n8n-workflow';
import { fetchDirect, useReferenceService } from '../harness/engine/searchFixture';
import { scriptSounds, triggersOn, useTrendClock } from '../harness/engine/trigger';

// The trigger's memory in static data: bounded per sound (the readings a window needs) and per
// trigger (sized from the keywords and Limit, forgetting the sounds seen longest ago), and the
// memory version 1 wrote read without a flood of alerts or a lost baseline.

const { service, calls } = useReferenceService();
const clock = useTrendClock(service);
const watcher = triggersOn(service, { limit: 50 });

const keysOf = async (q: string) =>
	(await fetchDirect(service(), 'shortvideo', { q, limit: 50 })).items.map(
		(sound) => `shortvideo:${String(sound.soundId)}`,
	);

it('per sound, only the readings a window can still need: hourly polls for three days', async () => {
	const watch = watcher({ keywords: 'lofi', event: 'risingSound' });
	for (let hour = 0; hour <= 72; hour++) {
		if (hour > 0) await clock.advance(1 / 24);
		expect((await watch.poll()).error).toBeUndefined();
	}

	const records = Object.values(watch.remembered());
	expect(records).toHaveLength(50);
	// [flags, t0 - firstSeenAt, t0, c0] and (seconds, posts) deltas: two readings within the window
	// before the latest, one every 3 hours within the window (8), the latest.
	for (const record of records) expect(record.length).toBeLessThanOrEqual(4 + 2 * 10);
	expect(JSON.stringify(watch.staticData).length / records.length).toBeLessThan(200);
});

it('forgets the sounds seen longest ago, never one still in the answers', async () => {
	// Remember Sounds 100 and 1 keyword of 50: twice what a poll finds, 100.
	const options = { rememberSounds: 100 };
	const watch = watcher({ keywords: 'alpha', options });
	await watch.poll();
	for (const keywords of ['beta', 'gamma']) {
		await clock.advance(1);
		const widened = watcher({ keywords, options });
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
	const watch = watcher({ keywords: keywords.join(', '), options: { minPollInterval: undefined } });

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

describe('memory version 1 wrote: [firstSeenAt, postCountThen, flags], counts then half of today', () => {
	const versionOne = async (query: string, daysAgo: number, reported: number[] = []) => {
		const firstSeenAt = Math.floor(Date.now() / 1000) - Math.round(daysAgo * 86400);
		const { items } = await fetchDirect(service(), 'shortvideo', { q: query, limit: 50 });
		const sounds: IDataObject = {};
		items.forEach(({ soundId, postCount }, index) => {
			const then = Math.round(Number(postCount) / 2);
			sounds[`shortvideo:${String(soundId)}`] = [firstSeenAt, then, +reported.includes(index)];
		});
		const trends = { baselined: [`shortvideo:${query}`], lastPollAt: firstSeenAt, sounds };
		return { 'node:Sound Search Trigger': { trends } };
	};

	it('no flood of alerts and no lost baseline: growth since weeks ago is no rise now', async () => {
		const rising = watcher({ keywords: 'legacy', event: 'risingSound' });
		rising.staticData = await versionOne('legacy', 20);
		expect((await rising.poll()).items).toEqual([]);
		const news = watcher({ keywords: 'legacy' });
		news.staticData = await versionOne('legacy', 20);
		expect((await news.poll()).items).toEqual([]);
		expect(Object.keys(news.remembered())).toHaveLength(50);
	});

	it('a first reading of hours ago is its history: a window measures from it; a sound reported as rising stays quiet', async () => {
		const [, fresh] = await scriptSounds(service(), 'legacy two', [{}, {}]);
		const watch = watcher({ keywords: 'legacy two', limit: 2, event: 'risingSound' });
		watch.staticData = await versionOne('legacy two', 0.5, [0]);

		expect((await watch.poll()).items.map(({ json }) => json.soundId)).toEqual([fresh]);
	});
});
