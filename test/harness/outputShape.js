'use strict';

// The README's Output shape of the Sound Search node's Simplify (version 2, the default): these 10
// fields in this order, written out here so that a test fails when the node drifts from it.

const SIMPLIFIED_FIELDS = Object.freeze([
	...['soundId', 'title', 'creditsCharged', 'authorName', 'postCount'],
	...['query', 'platform', 'audioUrl', 'durationSeconds', 'fetchedAt'],
]);

module.exports = { SIMPLIFIED_FIELDS };
