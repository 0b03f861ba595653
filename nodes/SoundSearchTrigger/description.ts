import type { INodeProperties } from 'n8n-workflow';
import {
	limitField,
	maxCreditsOption,
	platformOptions,
	simplifyField,
	simplifyOutputOption,
} from '../shared/description';

const showForRising = { show: { event: ['risingSound'] } };
const showForBreakout = { show: { event: ['breakoutSound'] } };
// Version 2 has n8n's Simplify (10 fields for trend-watchers); version 1 keeps its "Simplify
// Output" option and its items for the workflows saved with it.
const onlyVersion = (version: number) => ({ show: { '@version': [version] } });

export const triggerFields: INodeProperties[] = [
	{
		displayName:
			'Every poll costs credits, whether or not anything new appears: one call per keyword (per 50 sounds of Limit), 1 credit each on the short-video platform, 2 on the photo-and-video platform. The subtitle under the node shows what one poll costs.',
		name: 'costNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Platform',
		name: 'platform',
		type: 'options',
		options: platformOptions,
		default: 'shortvideo',
		description: 'Which platform to watch. Each call of each poll is billed at the price shown.',
	},
	{
		displayName: 'Keywords',
		name: 'keywords',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. lofi, rainy jazz',
		description:
			'One or more keywords, separated by commas or new lines. Each keyword is one search per poll.',
	},
	{
		displayName: 'Event',
		name: 'event',
		type: 'options',
		options: [
			{
				name: 'New Sound',
				value: 'newSound',
				description: 'A sound this trigger has not seen before for these keywords',
			},
			{
				name: 'Rising Sound',
				value: 'risingSound',
				description:
					'A sound whose post count grew by the thresholds below within the growth window (Options; 24 hours by default), reported once per rise (short-video platform only: the photo-and-video platform reports no post counts)',
			},
			{
				name: 'Breakout Sound',
				value: 'breakoutSound',
				description:
					'A sound whose new posts per day sped up: in the latest growth window at least Min Acceleration times its pace in the window before, reported once per breakout (short-video platform only; needs two windows of history)',
			},
		],
		default: 'newSound',
	},
	{
		displayName: 'Min Growth (%)',
		name: 'minGrowthPercent',
		type: 'number',
		displayOptions: showForRising,
		typeOptions: { minValue: 0, maxValue: 100000 },
		default: 20,
		description:
			'A sound is rising when its post count grew by at least this many percent within the growth window',
	},
	{
		displayName: 'Min Growth (Posts)',
		name: 'minGrowthPosts',
		type: 'number',
		displayOptions: showForRising,
		typeOptions: { minValue: 0, maxValue: 100000000 },
		default: 1000,
		description:
			'And by at least this many posts, so small or rounded counts (1.2M) do not look like spikes',
	},
	{
		displayName: 'Min Acceleration',
		name: 'minAcceleration',
		type: 'number',
		displayOptions: showForBreakout,
		typeOptions: { minValue: 1, maxValue: 1000, numberPrecision: 2 },
		default: 2,
		hint: '2 means the pace of new posts at least doubled',
		description:
			'A sound breaks out when its new posts per day in the latest growth window are at least this many times its pace in the window before, rounded counts (1.2M) taken into account',
	},
	{
		displayName: 'Min Posts per Day',
		name: 'minPostsPerDay',
		type: 'number',
		displayOptions: showForBreakout,
		typeOptions: { minValue: 0, maxValue: 100000000 },
		default: 1000,
		description:
			'And at least this many new posts a day in the latest growth window, so a small sound going from 10 to 25 posts a day is no breakout',
	},
	limitField(1000),
	simplifyField(onlyVersion(2)),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Add Poll Summary',
				name: 'pollSummary',
				type: 'boolean',
				default: false,
				description:
					'Whether each poll also outputs one summary item (keywords and sounds checked, events by kind, credits spent, keywords that failed), even when no sound qualifies. Then every poll starts an execution, and a keyword that fails no longer fails the poll: the summary names it.',
			},
			{
				displayName: 'Emit Current Sounds on First Poll',
				name: 'emitOnFirstPoll',
				type: 'boolean',
				default: false,
				description:
					'Whether the first poll for a keyword emits the sounds it finds (as new) instead of only recording them as the baseline',
			},
			maxCreditsOption('poll'),
			{
				displayName: 'Growth Window (Hours)',
				name: 'growthWindowHours',
				type: 'number',
				typeOptions: { minValue: 0.05, maxValue: 720, numberPrecision: 2 },
				default: 24,
				description:
					'Rising Sound: growth is measured against what the trigger recorded this many hours ago (or its oldest record, when younger). Breakout Sound: the pace of this window against the one before. Keep it longer than the time between polls.',
			},
			{
				displayName: 'Max Pages per Keyword',
				name: 'maxPages',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 100 },
				default: 5,
				description:
					'Most calls one keyword may make per poll, in case the service returns fewer sounds per page than asked. Bounds what a poll can cost.',
			},
			{
				displayName: 'Min Minutes Between Polls',
				name: 'minPollInterval',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: 10080 },
				default: 60,
				description:
					'Poll Times in n8n default to every minute. A poll within this many minutes of the last one is skipped without any call, so that default cannot spend credits every minute. 0 polls at every Poll Time.',
			},
			{
				displayName: 'Remember Sounds',
				name: 'rememberSounds',
				type: 'number',
				typeOptions: { minValue: 100, maxValue: 20000 },
				default: 2000,
				description:
					'How many sounds the trigger remembers at least; it always remembers twice what one poll can find (keywords × Limit). When full, it forgets the sounds it saw longest ago; one of those that comes back counts as new again.',
			},
			simplifyOutputOption(onlyVersion(1)),
			{
				displayName: 'Top Risers per Poll',
				name: 'topRisers',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: 1000 },
				default: 0,
				description:
					'Rising and Breakout Sound: at most this many sounds per poll, the fastest risers (by growth in %) or the strongest breakouts first. 0 emits all. A sound left out comes out at a later poll if it still qualifies.',
			},
		],
	},
];
