import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { SIMPLIFIED_FIELDS } from './description';
import type { SearchInput } from './input';
import type { SearchPage } from './transport';

// Sounds as workflow items, and the wording of counts in notices.

/** Media fields the service nests as objects; flat output turns each into one URL string. */
const MEDIA_FIELDS: Record<string, string> = { url: 'audioUrl', coverUrl: 'coverImageUrl' };

/**
 * One workflow item per sound, shaped as `input.output` says, with what the call that returned
 * it cost (creditsCharged) and which call of this search it was (page, 1-based). A search reused
 * from an identical one of the same run cost nothing more: its sounds carry creditsCharged 0.
 */
export function toSoundItems(
	page: SearchPage,
	pageNumber: number,
	input: SearchInput,
	itemIndex: number,
	reused: boolean,
): INodeExecutionData[] {
	const added = { creditsCharged: reused ? 0 : page.creditsCharged, page: pageNumber };
	return page.sounds.map((sound) => ({
		json: shapeSound(sound, input, added),
		pairedItem: { item: itemIndex },
	}));
}

function shapeSound(sound: IDataObject, input: SearchInput, added: IDataObject): IDataObject {
	const { output } = input;
	if (output.mode === 'raw') return { ...sound, ...added };
	const flat = { ...flatSound(sound, input), ...added };
	if (output.mode === 'flat') return flat;
	if (output.mode === 'simplified') return pick(flat, SIMPLIFIED_FIELDS);
	return pick(flat, ['soundId', ...output.fields.filter((field) => field !== 'soundId')]);
}

/** Flat, spreadsheet-ready fields: nested values become strings so nothing is dropped. */
function flatSound(sound: IDataObject, input: SearchInput): IDataObject {
	const flat: IDataObject = {};
	for (const [key, value] of Object.entries(sound)) {
		if (key in MEDIA_FIELDS) flat[MEDIA_FIELDS[key]] = firstLocation(value);
		else flat[key] = typeof value === 'object' && value !== null ? JSON.stringify(value) : value;
	}
	return { ...flat, platform: input.platform, query: input.query };
}

/** The named fields in that order; one the item lacks is null, so every row has it. */
export function pick(flat: IDataObject, fields: string[]): IDataObject {
	return Object.fromEntries(fields.map((field) => [field, flat[field] ?? null]));
}

function firstLocation(media: unknown): string | null {
	if (typeof media !== 'object' || media === null) return null;
	const { url_list: urlList, uri } = media as IDataObject;
	if (Array.isArray(urlList) && typeof urlList[0] === 'string') return urlList[0];
	return typeof uri === 'string' ? uri : null;
}

/** A number with its noun ("1 credit", "2 credits"), for notices and hints. */
export const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
