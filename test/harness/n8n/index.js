'use strict';

// A real, pinned n8n (n8n-host/<line>/) driven from tests and scripts: install.js (the line, its
// install, environment, processes and user folders), cli.js (import, execute), server.js
// (`n8n start`), rest.js (the owner's REST session).

module.exports = {
	...require('./install'),
	...require('./cli'),
	...require('./server'),
	...require('./rest'),
};
