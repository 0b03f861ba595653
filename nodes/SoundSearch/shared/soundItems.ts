import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import type { SearchInput } from './searchInput';
import type { SearchPage } from './searchPage';

/** Media fields the service nests as objects; simplified output turns each into one URL string. */
const MEDIA_FIELDS: Record<string, string> = { url: 'audioUrl', coverUrl: 'coverImageUrl' };

/**
 * One workflow item per sound: the service's fields unchanged, plus what the call that returned
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
	return page.sounds.map((sound) => ({
		json: {
			...(input.simplify ? simplifySound(sound, input) : sound),
			creditsCharged: reused ? 0 : page.creditsCharged,
			page: pageNumber,
		},
		pairedItem: { item: itemIndex },
	}));
}

/** Flat, spreadsheet-ready fields: nested values become strings so nothing is dropped. */
function simplifySound(sound: IDataObject, input: SearchInput): IDataObject {
	const flat: IDataObject = {};
	for (const [key, value] of Object.entries(sound)) {
		if (key in MEDIA_FIELDS) flat[MEDIA_FIELDS[key]] = firstLocation(value);
		else flat[key] = typeof value === 'object' && value !== null ? JSON.stringify(value) : value;
	}
	return { ...flat, platform: input.platform, query: input.query };
}

function firstLocation(media: unknown): string | null {
	if (typeof media !== 'object' || media === null) return null;
	const { url_list: urlList, uri } = media as IDataObject;
	if (Array.isArray(urlList) && typeof urlList[0] === 'string') return urlList[0];
	return typeof uri === 'string' ? uri : null;
}
