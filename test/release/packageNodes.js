'use strict';
// Loads what the package registers with n8n (package.json "n8n": nodes and credentials) from
// their TypeScript sources, so that the checks see the descriptions n8n will see, including
// the values that lint cannot see because they are computed (option names built from a table,
// spread arrays). Needs the ts-jest transform of the release project (jest.config.js).
const fs = require('node:fs');
const path = require('node:path');

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));

/** "dist/nodes/X/X.node.js" -> absolute path of "nodes/X/X.node.ts". */
function sourceOf(distPath) {
	return path.join(REPO_ROOT, distPath.replace(/^dist\//, '').replace(/\.js$/, '.ts'));
}

/** Instances of every class a registered file exports, with the file they come from. */
function load(distPaths) {
	return distPaths.flatMap((distPath) =>
		Object.entries(require(sourceOf(distPath))).map(([className, Class]) => ({
			distPath,
			className,
			instance: new Class(),
		})),
	);
}

const registeredNodes = () => load(pkg.n8n.nodes);
const registeredCredentials = () => load(pkg.n8n.credentials);

/** Every file under dir (relative to the repository), recursively. */
function filesUnder(dir) {
	return fs
		.readdirSync(path.join(REPO_ROOT, dir), { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile())
		.map((entry) => path.relative(REPO_ROOT, path.join(entry.parentPath, entry.name)));
}

module.exports = { REPO_ROOT, pkg, sourceOf, registeredNodes, registeredCredentials, filesUnder };
