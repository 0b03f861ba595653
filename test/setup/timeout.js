'use strict';

// Per-layer test timeout (jest reads testTimeout only from the root config, not from a project):
// each project names its own in globals.TEST_TIMEOUT_MS.
jest.setTimeout(globalThis.TEST_TIMEOUT_MS);
