'use strict';

// The shape the README's Output section promises for the Sound Search node's Simplify (version 2,
// the default): these 10 flat fields, in this order, creditsCharged third. Written out here, not
// read from the node, so that a test fails when the node's output drifts from what users are told.

const SIMPLIFIED_FIELDS = Object.freeze([
	...['soundId', 'title', 'creditsCharged', 'authorName', 'postCount'],
	...['query', 'platform', 'audioUrl', 'durationSeconds', 'fetchedAt'],
]);

module.exports = { SIMPLIFIED_FIELDS };
