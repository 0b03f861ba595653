'use strict';

// A real, pinned n8n (n8n-host/<line>/): install.js (the line, its install, environment,
// processes, user folders), cli.js (import, execute), server.js (`n8n start`), rest.js (REST).

module.exports = {
	...require('./install'),
	...require('./cli'),
	...require('./server'),
	...require('./rest'),
};
