'use strict';

// Runs before each test file of a jest project of jest.e2e.config.js: tells the harness
// (test/harness/n8n.js, loaded after this) which n8n line the project is for. Jest gives every
// test file its own copy of process.env, so the projects do not see each other's setting.
process.env.N8N_LINE = globalThis.N8N_LINE;
