'use strict';

// Spec 5: every call carries `Authorization: Bearer <API_KEY>`. A missing, malformed or unknown key
// is a 401, a revoked one a 403; both free, and the answer never echoes the key.

const { errorBody } = require('./answers');

/**
 * @param {string | null} header the raw Authorization header
 * @returns {string | null} the key, or null when there is no Bearer header
 */
function bearerKey(header) {
	const match = /^Bearer +(\S+) *$/i.exec(header ?? '');
	return match ? match[1] : null;
}

/**
 * @param {string | null} header
 * @param {{keys: string[], revokedKeys: string[]}} config
 * @returns {import('./search').Answer | null} null when the key may search
 */
function checkAuth(header, config) {
	const key = bearerKey(header);
	// Revocation wins over validity: a key can be listed in both while it is being retired.
	if (key !== null && config.revokedKeys.includes(key)) {
		return denied(403, 'forbidden', 'API key revoked');
	}
	if (key !== null && config.keys.includes(key)) return null;
	return { ...denied(401, 'unauthorized', 'Missing or invalid API key'), headers: BEARER };
}

const BEARER = { 'WWW-Authenticate': 'Bearer' };

function denied(status, code, message) {
	return { status, body: errorBody(code, message), outcome: code, itemCount: 0 };
}

module.exports = { bearerKey, checkAuth };
