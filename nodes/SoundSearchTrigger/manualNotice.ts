import type { INodeExecutionData } from 'n8n-workflow';
import type { CreditTally } from '../shared/run';
import { count } from '../shared/output';
import type { TrendRules } from './trendItems';

/** What a Fetch Test Event spent: nothing when it did not search. */
export type TestCost = Pick<CreditTally, 'calls' | 'credits'>;

export const NO_COST: TestCost = { calls: 0, credits: 0 };

/**
 * "Fetch Test Event" for Rising or Breakout Sound when nothing qualifies: a `notice` item (no
 * `soundId`) saying why and what it cost. A poll cannot tell the n8n line: it names "Publish" and
 * "Activate".
 */
export function manualNotice(
	{ event, growthWindowHours }: Pick<TrendRules, 'event' | 'growthWindowHours'>,
	hasHistory: boolean,
	cost: TestCost,
): INodeExecutionData {
	const breakout = event === 'breakoutSound';
	const nothing = breakout
		? `Nothing is breaking out now: no sound's pace of new posts in the last ${growthWindowHours} hours reached the thresholds against the ${growthWindowHours} hours before (a sound needs two windows of this trigger's history).`
		: `Nothing is rising now: no sound grew by the thresholds within the last ${growthWindowHours} hours of this trigger's history.`;
	const needs = breakout
		? 'breakouts need post counts from earlier polls, over two growth windows'
		: 'rising needs post counts from earlier polls';
	const notice = hasHistory
		? `${nothing} This test cost ${count(cost.credits, 'credit')} (${count(cost.calls, 'call')}).`
		: `No history yet, so this test made no paid call (0 credits): ${needs}. Publish the workflow (Activate in n8n 1.x): its first poll records the counts, and later polls report the sounds that ${breakout ? 'break out' : 'grow'}.`;
	return {
		json: {
			notice,
			hasHistory,
			creditsCharged: cost.credits,
			calls: cost.calls,
			growthWindowHours,
		},
	};
}
