'use strict';
// The publish workflow's first check: the tag is exactly "v" + package.json's version, CHANGELOG.md
// has that version's entry, and package.json's repository is the GitHub repository running the
// workflow (else the registry rejects the provenance). Prints `dist-tag=latest` (`next` for a
// pre-release) for $GITHUB_OUTPUT.
// Usage: node scripts/check-release-tag.js <tag> [<owner>/<repo>]. Exits 1 with the reasons.
const fs = require('node:fs');
const path = require('node:path');

const REPO_ROOT = path.resolve(__dirname, '..');
// Semantic Versioning 2.0.0: MAJOR.MINOR.PATCH, an optional pre-release and build metadata.
const SEMVER =
	/^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** "git+https://github.com/Owner/Repo.git" -> "owner/repo"; null for anything not on GitHub. */
function githubRepository(url) {
	const match = /^(?:git\+)?https:\/\/github\.com\/([^/]+\/[^/]+?)(?:\.git)?\/?$/.exec(url || '');
	return match ? match[1].toLowerCase() : null;
}

/**
 * @param {{ tag: string, repository?: string, pkg: any, changelog: string }} release
 * @returns {{ errors: string[], distTag: string }}
 */
function checkReleaseTag({ tag, repository, pkg, changelog }) {
	const errors = [];
	const version = String(pkg.version);
	const semver = SEMVER.exec(version);
	if (!semver) errors.push(`package.json version "${version}" is not a semantic version`);
	if (tag !== `v${version}`) {
		errors.push(
			`tag "${tag}" does not match package.json version ${version} (expected v${version})`,
		);
	}
	// Keep a Changelog: "## [1.2.3] - 2026-11-30".
	const entry = new RegExp(`^## \\[${escapeRegExp(version)}\\] - \\d{4}-\\d{2}-\\d{2}\\s*$`, 'm');
	if (!entry.test(changelog)) {
		errors.push(`CHANGELOG.md has no "## [${version}] - YYYY-MM-DD" entry`);
	}
	if (repository) {
		const declared = githubRepository(pkg.repository && pkg.repository.url);
		if (declared !== repository.toLowerCase()) {
			errors.push(
				`package.json repository.url names ${declared || 'no GitHub repository'}, ` +
					`but this workflow runs in ${repository}: provenance would be rejected`,
			);
		}
	}
	return { errors, distTag: semver && semver[4] ? 'next' : 'latest' };
}

if (require.main === module) {
	const [tag, repository] = process.argv.slice(2);
	const read = (file) => fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
	const { errors, distTag } = checkReleaseTag({
		tag: tag || '',
		repository,
		pkg: JSON.parse(read('package.json')),
		changelog: fs.existsSync(path.join(REPO_ROOT, 'CHANGELOG.md')) ? read('CHANGELOG.md') : '',
	});
	for (const error of errors) console.error(`release check: ${error}`);
	if (errors.length) process.exitCode = 1;
	else console.log(`dist-tag=${distTag}`);
}

module.exports = { checkReleaseTag, githubRepository };
