'use strict';

// What the reference service's test files share: one service per file, reset before each test.

const { startReferenceService } = require('../harness/referenceService');

const [KEY, OTHER_KEY, REVOKED_KEY] = ['key-alpha', 'key-beta', 'key-revoked-9f2c'];
// The page fields beside items and nextCursor of a fresh reading (spec 2.2).
const FRESH = { cached: false, fetchedAt: null, cacheAgeSeconds: null, sourceTimestamp: null };

/**
 * The file's service, with two keys and a revoked one; filled in before the first test.
 * @returns {import('../harness/referenceService').ReferenceService}
 */
function serviceForFile() {
	const service = /** @type {any} */ ({});
	beforeAll(async () => {
		const keys = { keys: [KEY, OTHER_KEY], revokedKeys: [REVOKED_KEY] };
		Object.assign(service, await startReferenceService(keys));
	});
	afterAll(() => service.stop?.());
	beforeEach(() => service.reset());
	return service;
}

module.exports = { KEY, OTHER_KEY, REVOKED_KEY, FRESH, serviceForFile };
