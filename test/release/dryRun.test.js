'use strict';
// A dry run of the release flow: the tarball `npm pack` makes (what the registry would get), and
// the prepublishOnly guard (`n8n-node prerelease`) both ways: a plain `npm publish`, as from a
// laptop, is refused; the publish that `n8n-node release` makes in GitHub Actions goes through.
// Nothing can be published: every publish is a --dry-run, offline, against an unreachable
// registry address, with every release and token variable removed from its environment.
const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { packageTarball, REPO_ROOT } = require('../harness/packageTarball.js');

const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
const GUARD_REFUSAL = 'Run `npm run release` to publish the package';

// Release and token variables, npm settings a caller may have set (loglevel too: `npm run --silent
// test:release` would silence the output asserted on), and NODE_ENV: jest sets it to test, which
// switches eslint-plugin-n8n-nodes-base's file-name rules to their own test fixtures' names
// (ast/utils/filename.js), and lint would then fail on real files.
const SCRUBBED =
	/^(RELEASE_MODE|GITHUB_ACTIONS|NPM_TOKEN|NODE_AUTH_TOKEN|ACTIONS_ID_TOKEN_.*|NPM_ID_TOKEN|NODE_ENV|npm_config_(registry|dry_run|provenance|tag|loglevel|_auth.*|.*:_auth.*))$/i;

/** Runs npm in the repository, unable to reach any registry and unable to publish. */
function npm(args, extraEnv = {}) {
	const env = Object.fromEntries(
		Object.entries(process.env).filter(([name]) => !SCRUBBED.test(name)),
	);
	Object.assign(env, {
		...{ npm_config_registry: 'http://127.0.0.1:9/', npm_config_offline: 'true' },
		...{ npm_config_fetch_retries: '0', npm_config_dry_run: 'true' },
		...extraEnv,
	});
	const result = spawnSync('npm', args, { cwd: REPO_ROOT, env, encoding: 'utf8' });
	return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}

describe('the packed tarball', () => {
	let unpacked;
	let entries;
	beforeAll(() => {
		const tarball = packageTarball();
		entries = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' })
			.split('\n')
			.filter((entry) => entry && !entry.endsWith('/'))
			.map((entry) => entry.replace(/^package\//, ''));
		unpacked = fs.mkdtempSync(path.join(os.tmpdir(), 'sound-search-release-'));
		execFileSync('tar', ['xzf', tarball, '-C', unpacked, '--strip-components=1']);
	}, 120_000);
	afterAll(() => unpacked && fs.rmSync(unpacked, { recursive: true, force: true }));

	test('holds only dist/, package.json, README.md and LICENSE', () => {
		const outside = entries.filter(
			(entry) =>
				!/^dist\//.test(entry) && !['package.json', 'README.md', 'LICENSE'].includes(entry),
		);
		expect(outside).toEqual([]);
		expect(entries).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE']));
	});

	test('holds every node and credential package.json registers, with their icons', () => {
		expect(entries).toEqual(expect.arrayContaining([...pkg.n8n.nodes, ...pkg.n8n.credentials]));
		expect(entries.filter((entry) => entry.endsWith('.svg')).length).toBeGreaterThanOrEqual(2);
	});

	test('holds no tests, sources, caches, examples or build state', () => {
		const unwanted = entries.filter(
			(entry) =>
				/(^|\/)(test|tests|__tests__|reference-service|bench|examples|n8n-host|node_modules|\.cache|\.github)\//.test(
					entry,
				) ||
				/\.test\.|\.spec\./.test(entry) ||
				(/\.ts$/.test(entry) && !/\.d\.ts$/.test(entry)) ||
				/\.tsbuildinfo$|\.tgz$/.test(entry),
		);
		expect(unwanted).toEqual([]);
	});

	test("its JavaScript loads only n8n-workflow and the package's own files, and never touches process", () => {
		const problems = entries
			.filter((entry) => entry.endsWith('.js'))
			.flatMap((entry) => {
				const code = fs.readFileSync(path.join(unpacked, entry), 'utf8');
				const modules = [...code.matchAll(/require\("([^"]+)"\)/g)].map((match) => match[1]);
				return [
					...modules
						.filter((name) => name !== 'n8n-workflow' && !name.startsWith('.'))
						.map((name) => `${entry}: requires ${name}`),
					...(/\bprocess\s*\.|\bglobalThis\b/.test(code)
						? [`${entry}: touches process or globalThis`]
						: []),
				];
			});
		expect(problems).toEqual([]);
	});
});

describe('the prepublishOnly guard (n8n-node prerelease)', () => {
	test('refuses a plain npm publish, as from a laptop', () => {
		const { status, output } = npm(['publish', '--dry-run']);
		expect(output).toContain(GUARD_REFUSAL);
		expect(output).not.toContain(`+ ${pkg.name}@${pkg.version}`);
		expect(status).not.toBe(0);
	});

	test('lets the publish of the release flow through (RELEASE_MODE, set by n8n-node release)', () => {
		const { status, output } = npm(['publish', '--dry-run'], { RELEASE_MODE: 'true' });
		expect(output).not.toContain(GUARD_REFUSAL);
		expect(output).toContain('(dry-run)');
		expect(output).toContain(`+ ${pkg.name}@${pkg.version}`);
		expect(status).toBe(0);
	});

	// The publish workflow's own command. In GitHub Actions n8n-node release lints, builds and
	// runs npm publish with RELEASE_MODE and NPM_CONFIG_PROVENANCE: here that publish is a dry run.
	test("passes the publish workflow's `npm run release`, in GitHub Actions mode", () => {
		const { status, output } = npm(['run', 'release'], { GITHUB_ACTIONS: 'true' });
		expect(output).toContain('> n8n-node lint');
		expect(output).toContain('> n8n-node build');
		expect(output).toContain('> n8n-node prerelease');
		expect(output).not.toContain(GUARD_REFUSAL);
		expect(output).toContain(`+ ${pkg.name}@${pkg.version}`);
		expect(status).toBe(0);
	}, 120_000);
});
