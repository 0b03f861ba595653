import type { INodeProperties } from 'n8n-workflow';

// The parameters both nodes show, and the service's platforms and prices. Descriptions only: this
// module imports nothing of the nodes' logic (the logic reads ranges and lists from here).

type DisplayOptions = INodeProperties['displayOptions'];

/** The service's platforms, named as in its paths, with the credits one call costs (spec section 8). */
export const PLATFORMS = {
	shortvideo: { displayName: 'Short-Video Platform', creditsPerCall: 1 },
	photosocial: { displayName: 'Photo-and-Video Platform', creditsPerCall: 2 },
} as const;

export type Platform = keyof typeof PLATFORMS;

const credits = (n: number) => `${n} credit${n > 1 ? 's' : ''}`;

/** The Platform parameter's options, with each platform's price, for both nodes. */
export const platformOptions = Object.entries(PLATFORMS).map(([value, platform]) => ({
	name: `${platform.displayName} (${credits(platform.creditsPerCall).replace('c', 'C')} per Call)`,
	value,
	description: `Sounds used on the ${platform.displayName.toLowerCase()}; every page costs ${credits(platform.creditsPerCall)}`,
}));

/** Each platform's value and price, for a model filling the tool ("shortvideo 1 credit per call, …"). */
export const PLATFORM_PRICES = Object.entries(PLATFORMS)
	.map(([value, platform]) => `${value} ${credits(platform.creditsPerCall)} per call`)
	.join(', ');

/** n8n's Limit field (default 50) with each node's own ceiling. */
export function limitField(maxValue: number, displayOptions?: DisplayOptions): INodeProperties {
	return {
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		...(displayOptions && { displayOptions }),
		typeOptions: { minValue: 1, maxValue },
		default: 50,
		description: 'Max number of results to return',
	};
}

/** n8n's "Simplify" parameter (UX guidelines, "Simplifying output fields"). */
export function simplifyField(displayOptions?: DisplayOptions): INodeProperties {
	return {
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		...(displayOptions && { displayOptions }),
		default: true,
		description: 'Whether to return a simplified version of the response instead of the raw data',
	};
}

/**
 * What Simplify keeps, 10 fields, most used first: the sound, its cost (third, so the output
 * table shows it as it opens), author and popularity, which search found it (one sheet collects
 * many), where to listen, length, when read. Left out: the cover (a signed, expiring URL), cache
 * flags (a cached answer shows creditsCharged 0), the page number.
 */
export const SIMPLIFIED_FIELDS = [
	'soundId',
	'title',
	'creditsCharged',
	'authorName',
	'postCount',
	'query',
	'platform',
	'audioUrl',
	'durationSeconds',
	'fetchedAt',
];

/** What an AI tool sends its model by default: the smallest answer that still names each sound. */
export const TOOL_OUTPUT_DEFAULT = 'simplified';

/** Every field a flat sound item has, for the tool's Selected Fields (soundId is always sent). */
const SOUND_FIELDS: Array<[string, string]> = [
	['Audio URL', 'audioUrl'],
	['Author Name', 'authorName'],
	['Cache Age Seconds', 'cacheAgeSeconds'],
	['Cached', 'cached'],
	['Cover Image URL', 'coverImageUrl'],
	['Credits Charged', 'creditsCharged'],
	['Duration Seconds', 'durationSeconds'],
	['Fetched At', 'fetchedAt'],
	['Page', 'page'],
	['Platform', 'platform'],
	['Post Count', 'postCount'],
	['Query', 'query'],
	['Title', 'title'],
];

export const SELECTABLE_FIELDS = SOUND_FIELDS.map(([, value]) => value);

/** n8n's "Output" parameter of an AI tool (UX guidelines), shown only to an agent's tool ('@tool'). */
export function toolOutputFields(show: NonNullable<DisplayOptions>['show']): INodeProperties[] {
	const forTool = { ...show, '@tool': [true] };
	return [
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
			displayOptions: { show: forTool },
			options: [
				{ name: 'Raw', value: 'raw', description: 'Send every field the service returns' },
				{
					name: 'Selected Fields',
					value: 'selected',
					description: 'Send the sound ID and only the fields you select',
				},
				{
					name: 'Simplified',
					value: 'simplified',
					description: `Send ${SIMPLIFIED_FIELDS.length} fields per sound: ${SIMPLIFIED_FIELDS.join(', ')}`,
				},
			],
			default: TOOL_OUTPUT_DEFAULT,
			description: 'Which fields of each sound the agent receives',
		},
		{
			displayName: 'Fields',
			name: 'fields',
			type: 'multiOptions',
			displayOptions: { show: { ...forTool, output: ['selected'] } },
			options: SOUND_FIELDS.map(([name, value]) => ({ name, value })),
			default: [],
			description: 'The fields to send to the agent. The sound ID (soundId) is always sent.',
		},
	];
}

/** Max Credits: per run of the action node, per poll of the trigger. */
export function maxCreditsOption(per: 'run' | 'poll'): INodeProperties {
	const scope = per === 'run' ? 'one run of this node, across all input items' : 'one poll';
	const taken = per === 'run' ? ' Taken from the first input item.' : '';
	return {
		displayName: 'Max Credits',
		name: 'maxCredits',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 10000000 },
		default: 100,
		description: `Most credits ${scope} may spend. No call starts that could take the spend past it (a call counts at its platform's price until its answer says what it cost; cached answers are free); once reached, the ${per} stops with an error saying what finished and what was spent. Leave out for no cap.${taken}`,
	};
}

/** Version 1's "Simplify Output" option, kept for the workflows saved with it. */
export function simplifyOutputOption(displayOptions: DisplayOptions, adds = ''): INodeProperties {
	return {
		displayName: 'Simplify Output',
		name: 'simplify',
		type: 'boolean',
		displayOptions,
		default: false,
		description: `Whether to return flat items for spreadsheets: the audio and cover locations as single URL strings (audioUrl, coverImageUrl) instead of media objects${adds}`,
	};
}
