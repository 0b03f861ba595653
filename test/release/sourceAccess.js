'use strict';
// n8n's verification guidelines: node code "must not interact with environment variables or
// attempt to read/write files", and the package has no external dependencies. Lint's
// no-restricted-imports lets a node import any devDependency (n8n-core, undici... here), which
// n8n does not promise at run time; this check is stricter: code under nodes/ and credentials/
// may import only n8n-workflow and its own relative modules, and may not name the globals that
// reach the process, the environment or the file system. Parsed with TypeScript, so words inside
// strings and comments do not count.
const ts = require('typescript');

const ALLOWED_MODULES = new Set(['n8n-workflow']);
const RESTRICTED_GLOBALS = new Set(
	'process global globalThis require module __dirname __filename eval Function Deno Bun'.split(' '),
);

const isAllowedModule = (specifier) =>
	specifier.startsWith('./') || specifier.startsWith('../') || ALLOWED_MODULES.has(specifier);

/** `obj.process`, `{ process: 1 }`, `class { process() {} }`: a name, not the global. */
function isPropertyName(node) {
	const { parent } = node;
	return (
		(ts.isPropertyAccessExpression(parent) && parent.name === node) ||
		((ts.isPropertyAssignment(parent) ||
			ts.isMethodDeclaration(parent) ||
			ts.isPropertyDeclaration(parent)) &&
			parent.name === node)
	);
}

/**
 * @param {string} source TypeScript source text
 * @param {string} file its name, for the messages
 * @returns {string[]} one line per import or global that breaks the rule
 */
function accessProblems(source, file) {
	const problems = [];
	const sourceFile = ts.createSourceFile(
		file,
		source,
		ts.ScriptTarget.Latest,
		true,
		ts.ScriptKind.TS,
	);
	const where = (node) =>
		`${file}:${sourceFile.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
	const visit = (node) => {
		const specifier =
			(ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier
				? node.moduleSpecifier
				: ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword
					? node.arguments[0]
					: undefined;
		if (specifier && (!ts.isStringLiteral(specifier) || !isAllowedModule(specifier.text))) {
			problems.push(`${where(node)}: imports ${specifier.getText(sourceFile)}`);
		}
		if (ts.isIdentifier(node) && RESTRICTED_GLOBALS.has(node.text) && !isPropertyName(node)) {
			problems.push(`${where(node)}: uses ${node.text}`);
		}
		ts.forEachChild(node, visit);
	};
	visit(sourceFile);
	return problems;
}

module.exports = { accessProblems };
