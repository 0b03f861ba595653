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
import type { TrendEvent, TrendRules } from './trendItems';

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
	/** One summary item per poll; a keyword's failure is then in it, not the poll's. */
	pollSummary: boolean;
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
	const event = readEvent(parameter('event'));
	if (event !== 'newSound' && platform === 'photosocial') {
		const name = event === 'risingSound' ? 'Rising Sound' : 'Breakout Sound';
		throw invalid(
			at,
			`${name} needs post counts, which the photo-and-video platform does not report`,
			`Use the New Sound event on that platform, or watch the short-video platform for ${event === 'risingSound' ? 'rising sounds' : 'breakouts'}.`,
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
			minAcceleration: readRange(at, field('minAcceleration'), parameter('minAcceleration', 2)),
			minPostsPerDay: number('minPostsPerDay', parameter('minPostsPerDay', 1000)),
			emitOnFirstPoll: options.emitOnFirstPoll === true,
			growthWindowHours: readRange(
				at,
				field('growthWindowHours'),
				options.growthWindowHours,
				'a number of hours',
			),
			topRisers: number('topRisers', options.topRisers),
		},
		memoryBound: Math.max(
			number('rememberSounds', options.rememberSounds),
			SOUNDS_PER_POLL_KEPT * keywords.length * limit,
		),
		minPollIntervalSeconds: number('minPollInterval', options.minPollInterval) * 60,
		simplify,
		pollSummary: options.pollSummary === true,
	};
}

const EVENTS = ['newSound', 'risingSound', 'breakoutSound'] as const;

/** The event; anything else (an old or hand-written workflow) is New Sound, its default. */
function readEvent(raw: unknown): TrendEvent {
	return EVENTS.find((event) => event === raw) ?? 'newSound';
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

/**
 * A number in the field's range, fractions allowed (Growth Window: a window of minutes for a test
 * on the real clock; Min Acceleration: 1.5 times).
 */
function readRange(
	at: ErrorContext,
	field: INodeProperties,
	raw: unknown,
	what = 'a number',
): number {
	const value = raw ?? field.default;
	const { minValue: min, maxValue: max } = rangeOf(field);
	// NaN and Infinity fail the range check too.
	if (typeof value === 'number' && value >= min && value <= max) return value;
	throw invalid(
		at,
		`The "${field.displayName}" parameter must be a number from ${min} to ${max}, but it is ${String(value)}`,
		`Set "${field.displayName}" to ${what} in that range, e.g. ${String(field.default)}.`,
	);
}

const field = (name: string) => fieldNamed(triggerFields, name);
