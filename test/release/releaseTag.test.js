'use strict';
// scripts/check-release-tag.js, the publish workflow's first check: as a command on this
// repository, and rule by rule on made-up releases.
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const { checkReleaseTag, githubRepository } = require('../../scripts/check-release-tag.js');

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const pkg = require('../../package.json');
const repository = githubRepository(pkg.repository.url);
const run = (...args) =>
	spawnSync(process.execPath, ['scripts/check-release-tag.js', ...args], {
		cwd: REPO_ROOT,
		encoding: 'utf8',
	});

test("accepts this repository's own version tag and prints the dist-tag for the workflow", () => {
	const result = run(`v${pkg.version}`, repository);
	expect(result.stderr).toBe('');
	expect(result.stdout).toBe('dist-tag=latest\n');
	expect(result.status).toBe(0);
});

test('refuses another tag, and a run in another repository, with the reason', () => {
	const result = run('v99.0.0', 'someone/a-fork');
	expect(result.status).toBe(1);
	expect(result.stderr).toContain(
		`tag "v99.0.0" does not match package.json version ${pkg.version}`,
	);
	expect(result.stderr).toContain('this workflow runs in someone/a-fork');
	expect(result.stdout).toBe('');
});

describe('rules', () => {
	const changelog = '# Changelog\n\n## [Unreleased]\n\n## [1.2.0] - 2026-12-01\n\n- Added things\n';
	const release = (overrides) => ({
		tag: 'v1.2.0',
		repository: 'Owner/Repo',
		pkg: { version: '1.2.0', repository: { url: 'git+https://github.com/owner/repo.git' } },
		changelog,
		...overrides,
	});

	test('a matching release passes as latest', () => {
		expect(checkReleaseTag(release())).toEqual({ errors: [], distTag: 'latest' });
	});

	test('the tag must be "v" plus the version', () => {
		expect(checkReleaseTag(release({ tag: '1.2.0' })).errors).toHaveLength(1);
		expect(checkReleaseTag(release({ tag: 'v1.2.1' })).errors).toHaveLength(1);
	});

	test('the version needs its own dated CHANGELOG entry, "Unreleased" is not enough', () => {
		const errors = checkReleaseTag(
			release({ changelog: '## [Unreleased]\n\n## [1.1.0] - 2026-11-01\n' }),
		).errors;
		expect(errors).toEqual(['CHANGELOG.md has no "## [1.2.0] - YYYY-MM-DD" entry']);
		expect(checkReleaseTag(release({ changelog: '## [1.2.0]\n' })).errors).toHaveLength(1);
	});

	test('package.json must name the GitHub repository the workflow runs in', () => {
		expect(checkReleaseTag(release({ repository: 'owner/other' })).errors).toHaveLength(1);
		const elsewhere = {
			version: '1.2.0',
			repository: { url: 'https://example.com/owner/repo.git' },
		};
		expect(checkReleaseTag(release({ pkg: elsewhere })).errors).toHaveLength(1);
	});

	test('a pre-release goes out under the "next" dist-tag', () => {
		const rc = release({
			tag: 'v2.0.0-rc.1',
			pkg: { version: '2.0.0-rc.1', repository: { url: 'https://github.com/owner/repo' } },
		});
		expect(checkReleaseTag({ ...rc, changelog: '## [2.0.0-rc.1] - 2026-12-02\n' })).toEqual({
			errors: [],
			distTag: 'next',
		});
	});

	test('a version that is not semantic is refused', () => {
		const odd = release({
			tag: 'v1.2',
			pkg: { version: '1.2', repository: { url: 'https://github.com/owner/repo' } },
		});
		expect(checkReleaseTag({ ...odd, changelog: '## [1.2] - 2026-12-02\n' }).errors).toEqual([
			'package.json version "1.2" is not a semantic version',
		]);
	});
});
