import type { INodeProperties } from 'n8n-workflow';
import { SIMPLIFIED_FIELDS } from './soundItems';

type DisplayOptions = INodeProperties['displayOptions'];

/** What an AI tool sends its model by default: the smallest answer that still names each sound. */
export const TOOL_OUTPUT_DEFAULT = 'simplified';

/** n8n's "Simplify" parameter (UX guidelines, "Simplifying output fields"), for both nodes. */
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

/**
 * n8n's "Output" parameter for AI tool use (UX guidelines, "AI tool nodes"), shown only when the
 * node is an agent's tool, as n8n's own nodes do with '@tool'.
 */
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

/** The Max Credits option, for both nodes (per run of the action node, per poll of the trigger). */
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
