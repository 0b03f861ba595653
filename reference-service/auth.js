'use strict';

// Spec 5: every call carries `Authorization: Bearer <API_KEY>`. A missing, malformed or unknown key
// is a 401, a revoked one a 403; both free, and the answer never echoes the key.

const { errorBody } = require('./answers');

/** @param {string | null} header @returns {string | null} null: no Bearer key in it */
function bearerKey(header) {
	return /^Bearer +(\S+) *$/i.exec(header ?? '')?.[1] ?? null;
}

/** @returns {import('./search').Answer | null} null when the key may search */
function checkAuth(header, { keys, revokedKeys }) {
	const key = bearerKey(header);
	// Revocation wins over validity: a key can be listed in both while it is being retired.
	if (key !== null && revokedKeys.includes(key)) return denied(403, 'forbidden', 'API key revoked');
	if (key !== null && keys.includes(key)) return null;
	const answer = denied(401, 'unauthorized', 'Missing or invalid API key');
	return { ...answer, headers: { 'WWW-Authenticate': 'Bearer' } };
}

function denied(status, code, message) {
	return { status, body: errorBody(code, message), outcome: code, itemCount: 0 };
}

module.exports = { bearerKey, checkAuth };
