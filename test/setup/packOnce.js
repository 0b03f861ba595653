'use strict';

// globalSetup of the jest projects that install the package in a real n8n: builds and packs the package once for every n8n line's
// project (test/harness/packageTarball.js hands the same tarball to all of them through
// SOUND_SEARCH_TARBALL), unless the caller (scripts/test.sh) packed it already.
const { packageTarball } = require('../harness/packageTarball');

module.exports = () => {
	process.env.SOUND_SEARCH_TARBALL = packageTarball();
};
