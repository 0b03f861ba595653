'use strict';

// The Sound Search node's own cases in a real n8n of each line, on an n8n of their own beside
// sharedN8n.e2e.test.js (the examples, the trigger and MCP): the credential, the node as an AI
// Agent's tool (the fake OpenAI model) and 200 keywords against a quota across two executions. Two
// files per line run side by side (two jest workers; their n8n starts take turns,
// test/harness/n8n/startLock.js): the layer's time is then the longer file's, not the sum.

const { useN8n } = require('./scenario');
const { credentials } = require('./cases/credentials');
const { aiAgent } = require('./cases/aiAgent');
const { rateLimits } = require('./cases/rateLimits');

const scenario = useN8n({ model: true });

describe('the Sound Search credential', () => credentials(scenario));
describe('the Sound Search tool (version 2) in an AI Agent', () => aiAgent(scenario));
describe('rate limits', () => rateLimits(scenario));
