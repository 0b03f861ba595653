'use strict';

// Drives a real, pinned n8n application (n8n-host/<line>/) from tests and scripts, one module per
// part of it: install.js (which line, installed once, its environment), userFolder.js (the
// package installed as n8n installs it), process.js (every n8n process under the supervisor),
// cli.js (import, execute), server.js (`n8n start`), rest.js (the owner's REST session).
// Plain CommonJS on purpose: the project's strict linter applies node-code rules to every .ts file.

module.exports = {
	...require('./install'),
	...require('./process'),
	...require('./userFolder'),
	...require('./cli'),
	...require('./server'),
	...require('./rest'),
};
