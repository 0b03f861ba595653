import type { INodeExecutionData } from 'n8n-workflow';
import type { CreditTally } from '../shared/run';
import { count } from '../shared/output';

/** What a Fetch Test Event spent: nothing when it did not search. */
export type TestCost = Pick<CreditTally, 'calls' | 'credits'>;

export const NO_COST: TestCost = { calls: 0, credits: 0 };

/**
 * "Fetch Test Event" for Rising Sound when nothing rises: a `notice` item (no `soundId`) saying
 * why and what it cost. A poll cannot tell the n8n line: it names "Publish" and "Activate".
 */
export function manualNotice(
	hasHistory: boolean,
	growthWindowHours: number,
	cost: TestCost,
): INodeExecutionData {
	const notice = hasHistory
		? `Nothing is rising now: no sound grew by the thresholds within the last ${growthWindowHours} hours of this trigger's history. This test cost ${count(cost.credits, 'credit')} (${count(cost.calls, 'call')}).`
		: 'No history yet, so this test made no paid call (0 credits): rising needs post counts from earlier polls. Publish the workflow (Activate in n8n 1.x): its first poll records the counts, and later polls report the sounds that grow.';
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
