import type { INodeExecutionData } from 'n8n-workflow';
import type { CreditTally } from '../shared/run';
import type { TrendEvent } from './trendItems';

/** A keyword whose search failed in this poll, and why (its sounds were left as they were). */
export interface FailedKeyword {
	keyword: string;
	error: string;
}

/**
 * Add Poll Summary: one item per poll, after the sounds, even when none qualified (a digest can
 * say "nothing rose today"). No `soundId`, so a workflow tells it from a sound as it does the
 * notice. `events` counts this poll's items by kind: the trigger's event, every kind listed.
 */
export function pollSummary(
	event: TrendEvent,
	emitted: number,
	checked: { keywords: number; sounds: number },
	cost: Pick<CreditTally, 'calls' | 'credits'>,
	keywordsFailed: FailedKeyword[],
	now: number,
): INodeExecutionData {
	const events = { newSound: 0, risingSound: 0, breakoutSound: 0 };
	events[event] = emitted;
	return {
		json: {
			pollSummary: true,
			polledAt: new Date(now * 1000).toISOString(),
			keywordsChecked: checked.keywords,
			soundsChecked: checked.sounds,
			events,
			creditsCharged: cost.credits,
			calls: cost.calls,
			keywordsFailed,
		},
	};
}
