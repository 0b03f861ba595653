import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { invalid, type ErrorContext } from '../shared/errors';
import {
	checkQuery,
	fieldNamed,
	rangeOf,
	readPlatform,
	readWholeNumber,
	type Parameters,
	type SearchInput,
	type SoundOutput,
} from '../shared/input';
import { triggerFields } from './description';
import type { TrendRules } from './trendItems';

/** A poll's calls: a few keywords, so a small bound; the poll's time budget bounds waits. */
const MAX_IN_FLIGHT = 8;
const PAGE_SIZE = 50;
const RETRIES_PER_PAGE = 2;
const TIMEOUT_MS = 30_000;
/** The memory keeps twice the sounds one poll can find: room for sounds that drop out a while. */
const SOUNDS_PER_POLL_KEPT = 2;

/** A poll's searches (one per keyword), rules, memory bound (sounds), interval and Simplify. */
export interface TriggerInput {
	searches: SearchInput[];
	rules: Omit<TrendRules, 'manual'>;
	memoryBound: number;
	minPollIntervalSeconds: number;
	simplify: boolean;
}

/** Reads and checks every parameter before the poll makes any (paid) call. */
export function readTriggerInput(
	parameter: Parameters,
	at: ErrorContext,
	rateLimitWait: number,
): TriggerInput {
	const options = parameter('options', {}) as IDataObject;
	const number = (name: string, raw: unknown) => readWholeNumber(at, field(name), raw);
	const platform = readPlatform(at, parameter('platform'));
	const event = parameter('event') === 'risingSound' ? 'risingSound' : 'newSound';
	if (event === 'risingSound' && platform === 'photosocial') {
		throw invalid(
			at,
			'Rising Sound needs post counts, which the photo-and-video platform does not report',
			'Use the New Sound event on that platform, or watch the short-video platform for rising sounds.',
		);
	}
	const limit = number('limit', parameter('limit', null));
	const keywords = readKeywords(parameter, at);
	const { output, simplify } = readOutput(parameter, at, options);
	const search = {
		platform,
		limit,
		pageSize: PAGE_SIZE,
		output,
		maxCredits:
			options.maxCredits === undefined ? Infinity : number('maxCredits', options.maxCredits),
		maxPages: number('maxPages', options.maxPages),
		maxRetries: RETRIES_PER_PAGE,
		timeoutMs: TIMEOUT_MS,
		maxInFlight: MAX_IN_FLIGHT,
		rateLimitWait,
	};
	return {
		searches: keywords.map((query) => ({ ...search, query })),
		rules: {
			event,
			minGrowthPercent: number('minGrowthPercent', parameter('minGrowthPercent', null)),
			minGrowthPosts: number('minGrowthPosts', parameter('minGrowthPosts', null)),
			emitOnFirstPoll: options.emitOnFirstPoll === true,
			growthWindowHours: readHours(at, field('growthWindowHours'), options.growthWindowHours),
			topRisers: number('topRisers', options.topRisers),
		},
		memoryBound: Math.max(
			number('rememberSounds', options.rememberSounds),
			SOUNDS_PER_POLL_KEPT * keywords.length * limit,
		),
		minPollIntervalSeconds: number('minPollInterval', options.minPollInterval) * 60,
		simplify,
	};
}

/** Version 1: Simplify Output (flat) or raw. Version 2's Simplify reads flat, then picks 10 fields. */
function readOutput(
	parameter: Parameters,
	at: ErrorContext,
	options: IDataObject,
): { output: SoundOutput; simplify: boolean } {
	if (at.node.typeVersion < 2) {
		return { output: { mode: options.simplify === true ? 'flat' : 'raw' }, simplify: false };
	}
	const simplify = parameter('simplify') !== false;
	return { output: { mode: simplify ? 'flat' : 'raw' }, simplify };
}

/** Keywords separated by commas or new lines; the same keyword twice is searched once. */
function readKeywords(parameter: Parameters, at: ErrorContext): string[] {
	const raw = checkQuery(at, parameter('keywords'), 'Keywords');
	const keywords = raw
		.split(/[,\n]/)
		.map((keyword) => keyword.trim())
		.filter((keyword) => keyword !== '');
	if (keywords.length === 0) {
		throw invalid(
			at,
			'The "Keywords" parameter has no keyword',
			'Enter one or more keywords, separated by commas or new lines.',
		);
	}
	const seen = new Set<string>();
	return keywords.filter((keyword) => {
		const key = keyword.toLowerCase().replace(/\s+/g, ' ');
		if (seen.has(key)) return false;
		seen.add(key);
		return true;
	});
}

/** A number of hours, fractions allowed (a window of minutes for a test on the real clock). */
function readHours(at: ErrorContext, hours: INodeProperties, raw: unknown): number {
	const value = raw ?? hours.default;
	const { minValue: min, maxValue: max } = rangeOf(hours);
	// NaN and Infinity fail the range check too.
	if (typeof value === 'number' && value >= min && value <= max) return value;
	throw invalid(
		at,
		`The "${hours.displayName}" parameter must be a number from ${min} to ${max}, but it is ${String(value)}`,
		`Set "${hours.displayName}" to a number of hours in that range, e.g. 24.`,
	);
}

const field = (name: string) => fieldNamed(triggerFields, name);
