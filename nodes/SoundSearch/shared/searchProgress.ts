import { NodeOperationError } from 'n8n-workflow';
import type { ErrorContext } from './failure';
import type { SearchPage } from './searchPage';

/** What one search has fetched and spent so far; it decides whether following a cursor is safe. */
export class SearchProgress {
	pages = 0;

	sounds = 0;

	/** Sum of X-Credits-Charged; null once a page did not report it. */
	credits: number | null = 0;

	private readonly seenCursors = new Set<string>();

	constructor(private readonly maxPages: number) {}

	record(page: SearchPage) {
		this.pages += 1;
		this.sounds += page.sounds.length;
		this.credits =
			this.credits === null || page.creditsCharged === null
				? null
				: this.credits + page.creditsCharged;
	}

	/** Throws a clear error instead of following a cursor that would loop or overspend. */
	checkNext(ctx: ErrorContext, page: SearchPage & { nextCursor: string }) {
		const reason = this.stopReason(page);
		if (reason === undefined) {
			this.seenCursors.add(page.nextCursor);
			return;
		}
		const credits = this.credits === null ? 'an unknown number of' : String(this.credits);
		throw new NodeOperationError(ctx.getNode(), `Search stopped: ${reason}`, {
			itemIndex: ctx.getItemIndex(),
			description:
				`${this.sounds} sounds were fetched in ${this.pages} calls (${credits} credits) before the node stopped, ` +
				`to protect your credits. To go on from here, run again with the Start Cursor option set to ${page.nextCursor} ` +
				'(pages fetched moments ago are answered from the service cache for free).',
		});
	}

	private stopReason(page: SearchPage & { nextCursor: string }): string | undefined {
		if (this.seenCursors.has(page.nextCursor))
			return 'the service returned a cursor it had already returned';
		if (page.sounds.length === 0)
			return 'the service returned an empty page that still points to a next page';
		if (this.pages >= this.maxPages)
			return `reached Max Pages (${this.maxPages}) before the last page`;
		return undefined;
	}
}
