import type { INodeExecutionData } from 'n8n-workflow';

/**
 * What "Fetch Test Event" shows for Rising Sound when nothing is rising by the trigger's memory:
 * one plain item saying why, instead of sounds that would look as if they were rising.
 */
export function manualNotice(hadHistory: boolean, growthWindowHours: number): INodeExecutionData {
	const notice = hadHistory
		? `Nothing is rising now: no sound grew by the thresholds within the last ${growthWindowHours} hours of this trigger's history.`
		: 'No history yet: this trigger has not polled these keywords while active. Activate the workflow: its first poll records the post counts, and later polls report the sounds that grow.';
	return { json: { notice, growthWindowHours, hasHistory: hadHistory } };
}
