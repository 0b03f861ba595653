'use strict';

// Where the reference service decides a price (spec 8, "Billing rules"). Every answer to a search
// gets its credits here and nowhere else: a lookup is charged by its platform whatever it found
// (sounds, an empty result, a private or deleted one); a cache hit, a refusal, an auth failure and
// a call beyond capacity are free; an injected fault charges what the test scripted (0 unless set).

/** Credits of a charged call, by platform (spec 1 and 8). */
const PRICES = { shortvideo: 1, photosocial: 2 };

/** The outcomes that are answered lookups, so charged. */
const CHARGED = new Set(['ok', 'empty', 'unavailable']);

/**
 * @param {string} platform
 * @param {string} outcome the ledger outcome of the answer
 * @param {number | null} [scripted] an injected fault's creditsCharged (null: header left out)
 * @returns {number} the credits of the answer, as X-Credits-Charged and the ledger report them
 */
function priceOf(platform, outcome, scripted = null) {
	if (outcome === 'fault') return scripted ?? 0;
	return CHARGED.has(outcome) ? PRICES[platform] : 0;
}

module.exports = { PRICES, priceOf };
