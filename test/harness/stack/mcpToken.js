'use strict';

// The token an MCP client must send to the MCP example's trigger (Bearer Auth) under `npm start`:
// random, made once per n8n state and kept beside it, so that a restart does not lock out a
// client set up earlier; a temp state (--smoke, the editor check) gets a fresh one. Renewing it
// (`npm start -- --new-mcp-token`) is the rotation: the stack imports the credential again.

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const FILE = 'sound-search-mcp-token';

/** A token a client cannot guess: 32 random bytes, base64url (43 characters). */
const newToken = () => crypto.randomBytes(32).toString('base64url');

/**
 * The kept token of an n8n state (its user folder), made when there is none or `renew` is set.
 * @param {string} userFolder @param {{ renew?: boolean }} [options]
 */
function mcpToken(userFolder, { renew = false } = {}) {
	const file = path.join(userFolder, FILE);
	const kept = !renew && fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : '';
	if (kept) return kept;
	const token = newToken();
	// Readable by this user only: it opens a paid search to whoever holds it.
	fs.writeFileSync(file, `${token}\n`, { mode: 0o600 });
	return token;
}

module.exports = { mcpToken, newToken };
