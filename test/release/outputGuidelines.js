'use strict';
// Checks of n8n's UX guidelines on output (docs: "UX guidelines for community nodes", "Simplifying
// output fields"): a boolean `Simplify` with the guideline's description, and for AI tool use an
// `Output` parameter (Simplified, Raw, Selected Fields with a multi-option `fields`) shown only
// with '@tool': [true]. They read a node's description as n8n loads it, at its newest version.

const SIMPLIFY_DESCRIPTION =
	'Whether to return a simplified version of the response instead of the raw data';

/** The node's top-level parameters at its default (newest) version, by their '@version' display option. */
function topLevel(description) {
	const version = description.defaultVersion ?? [description.version].flat().pop();
	return description.properties.filter((property) => {
		const show = property.displayOptions?.show?.['@version'];
		const hide = property.displayOptions?.hide?.['@version'];
		return (!show || show.includes(version)) && !(hide && hide.includes(version));
	});
}

/** The "Simplify" guideline: one top-level boolean, named and worded as the guideline says. */
function expectSimplify(description) {
	const simplify = topLevel(description).filter((p) => p.name === 'simplify');
	const field = { type: 'boolean', displayName: 'Simplify', description: SIMPLIFY_DESCRIPTION };
	expect(simplify).toEqual([expect.objectContaining(field)]);
}

/** The "AI tool nodes: 'Output' parameter" guideline, in tool use only; Simplify hidden there. */
function expectToolOutput(description) {
	const params = topLevel(description);
	const named = (name) => params.find((p) => p.name === name);
	const output = named('output');
	expect(output).toMatchObject({ type: 'options', displayOptions: { show: { '@tool': [true] } } });
	const modes = output.options.map((o) => `${o.name}=${o.value}`).sort();
	expect(modes).toEqual(['Raw=raw', 'Selected Fields=selected', 'Simplified=simplified']);
	expect(named('fields')).toMatchObject({
		type: 'multiOptions',
		displayOptions: { show: { '@tool': [true], output: ['selected'] } },
		description: expect.stringMatching(/ID.*always/),
	});
	expect(named('simplify')?.displayOptions?.hide?.['@tool']).toEqual([true]);
}

module.exports = { expectSimplify, expectToolOutput };
