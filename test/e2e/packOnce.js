'use strict';

// globalSetup of jest.e2e.config.js: builds and packs the package once for every n8n line's
// project (test/harness/packageTarball.js hands the same tarball to all of them through
// SOUND_SEARCH_TARBALL), unless the caller (scripts/test.sh) packed it already.
const { packageTarball } = require('../harness/packageTarball');

module.exports = () => {
	process.env.SOUND_SEARCH_TARBALL = packageTarball();
};
