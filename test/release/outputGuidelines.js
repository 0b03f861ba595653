'use strict';
// Checks of n8n's UX guidelines on output (docs: "UX guidelines for community nodes", "Simplifying
// output fields"): a boolean `Simplify` with the guideline's description, and for AI tool use an
// `Output` parameter (Simplified, Raw, Selected Fields with a multi-option `fields`) shown only
// with '@tool': [true]. They read a node's description as n8n loads it, at its newest version.

const SIMPLIFY_DESCRIPTION =
	'Whether to return a simplified version of the response instead of the raw data';

/** Whether a parameter shows at a version, by its '@version' display option (if any). */
function shownAt(property, version) {
	const show = property.displayOptions?.show?.['@version'];
	const hide = property.displayOptions?.hide?.['@version'];
	return (!show || show.includes(version)) && !(hide && hide.includes(version));
}

/** The node's top-level parameters at its default (newest) version. */
function topLevel(description) {
	const version = description.defaultVersion ?? [description.version].flat().pop();
	return description.properties.filter((property) => shownAt(property, version));
}

/** @returns {string[]} what breaks the "Simplify" guideline */
function simplifyProblems(description) {
	const simplify = topLevel(description).filter((p) => p.name === 'simplify');
	if (simplify.length !== 1) return ['no top-level "simplify" parameter at the newest version'];
	const [field] = simplify;
	const problems = [];
	if (field.type !== 'boolean') problems.push(`simplify is a ${field.type}, not a boolean`);
	if (field.displayName !== 'Simplify')
		problems.push(`label "${field.displayName}", not "Simplify"`);
	if (field.description !== SIMPLIFY_DESCRIPTION)
		problems.push(`description "${field.description}", not the guideline's`);
	return problems;
}

/** @returns {string[]} what breaks the "AI tool nodes: 'Output' parameter" guideline */
function toolOutputProblems(description) {
	const params = topLevel(description);
	const output = params.find((p) => p.name === 'output');
	const fields = params.find((p) => p.name === 'fields');
	const simplify = params.find((p) => p.name === 'simplify');
	const onlyForTools = (p) => JSON.stringify(p?.displayOptions?.show?.['@tool']) === '[true]';
	const problems = [];
	if (!output || output.type !== 'options') return ['no "output" options parameter'];
	const modes = output.options.map((o) => `${o.name}=${o.value}`).sort();
	if (modes.join() !== 'Raw=raw,Selected Fields=selected,Simplified=simplified')
		problems.push(`output modes ${modes.join(', ')}`);
	if (!onlyForTools(output)) problems.push('output is not limited to tool use');
	if (!fields || fields.type !== 'multiOptions') problems.push('no "fields" multi-option');
	else {
		if (
			!onlyForTools(fields) ||
			JSON.stringify(fields.displayOptions.show.output) !== '["selected"]'
		)
			problems.push('fields is not shown for Selected Fields in tool use only');
		if (!/ID.*always/.test(fields.description))
			problems.push('fields does not say the ID is always sent');
	}
	if (simplify && JSON.stringify(simplify.displayOptions?.hide?.['@tool']) !== '[true]')
		problems.push('simplify still shows in tool use, beside output');
	return problems;
}

module.exports = { simplifyProblems, toolOutputProblems, SIMPLIFY_DESCRIPTION };
