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

describe('rules, on made-up releases', () => {
	/** @param {{ tag?: string, repository?: string, version?: string, host?: string, entry?: string }} [o] */
	const release = (o = {}) => {
		const { tag = 'v1.2.0', repository = 'Owner/Repo', version = '1.2.0', host = 'github.com' } = o;
		const { entry = `## [${version}] - 2026-12-01` } = o;
		const pkg = { version, repository: { url: `git+https://${host}/owner/repo.git` } };
		return { tag, repository, pkg, changelog: `# Changelog\n\n## [Unreleased]\n\n${entry}\n` };
	};

	test('a matching release passes as latest; a pre-release goes out as next', () => {
		expect(checkReleaseTag(release())).toEqual({ errors: [], distTag: 'latest' });
		const rc = release({ tag: 'v2.0.0-rc.1', version: '2.0.0-rc.1' });
		expect(checkReleaseTag(rc)).toEqual({ errors: [], distTag: 'next' });
	});

	test.each([
		['a tag without the "v"', { tag: '1.2.0' }],
		['a tag of another version', { tag: 'v1.2.1' }],
		['another repository than package.json names', { repository: 'owner/other' }],
		['a repository not on GitHub', { host: 'example.com' }],
		['only "Unreleased" in the changelog', { entry: '## [1.1.0] - 2026-11-01' }],
		['a changelog entry without its date', { entry: '## [1.2.0]' }],
		['a version that is not semantic', { tag: 'v1.2', version: '1.2' }],
	])('refuses %s, saying why', (_, o) => {
		expect(checkReleaseTag(release(o)).errors).toHaveLength(1);
	});
});
