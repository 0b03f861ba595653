'use strict';
// n8n's UX guidelines for the text a node shows (docs: integrations/creating-nodes/build/
// reference/ux-guidelines.md, "Copy"): Title Case for labels and dropdown titles, Sentence case
// for descriptions, boolean descriptions starting with "Whether", example placeholders starting
// with "e.g.", and (verification guidelines) English only. Checked on the runtime description, so computed strings are covered too.
const path = require('node:path');

// The same titleCase function (and version) that lint's `node-param-display-name-miscased` rule
// uses, resolved from eslint-plugin-n8n-nodes-base, so this check and lint cannot disagree.
const lintPlugin = path.dirname(require.resolve('eslint-plugin-n8n-nodes-base/package.json'));
const { titleCase } = require(require.resolve('title-case', { paths: [lintPlugin] }));

// Latin letters without accents, digits, ASCII punctuation and the typographic marks English
// text uses (dashes, curly quotes, ellipsis, arrows, comparison signs, multiplication sign).
// Anything else (another script, accented letters) is taken as text that is not English.
const ENGLISH_TEXT =
	/^[\x20-\x7E\u2013\u2014\u2018\u2019\u201C\u201D\u2026\u2192\u2264\u2265\u00D7]*$/;

/** Walks n8n node properties, including collection options and fixedCollection values. */
function* texts(properties, where = '') {
	for (const property of properties || []) {
		const at = `${where}${property.displayName || property.name}`;
		// A notice's "display name" is the notice itself: body text in sentences, not a label.
		yield { kind: property.type === 'notice' ? 'text' : 'label', at, text: property.displayName };
		if (property.description !== undefined) {
			yield {
				kind: property.type === 'boolean' ? 'boolean description' : 'description',
				at,
				text: property.description,
			};
		}
		if (property.placeholder !== undefined) {
			// A collection's placeholder is the label of its "add" button, not an example value.
			const button = property.type === 'collection' || property.type === 'fixedCollection';
			yield { kind: button ? 'label' : 'placeholder', at, text: property.placeholder };
		}
		if (property.hint !== undefined) yield { kind: 'text', at, text: property.hint };
		for (const option of property.options || []) {
			if (option.type !== undefined) yield* texts([option], `${at} > `);
			else if (option.values !== undefined) {
				// A fixedCollection section: its own label, then its fields.
				yield { kind: 'label', at: `${at} > ${option.displayName}`, text: option.displayName };
				yield* texts(option.values, `${at} > ${option.displayName} > `);
			} else {
				yield { kind: 'dropdown title', at: `${at} > ${option.name}`, text: option.name };
				if (option.description !== undefined)
					yield { kind: 'description', at: `${at} > ${option.name}`, text: option.description };
				if (option.action !== undefined)
					yield { kind: 'action', at: `${at} > ${option.name}`, text: option.action };
			}
		}
	}
}

/**
 * @param {{ displayName: string, description?: string, properties: any[] }} description a node
 *   description or a credential instance (both have displayName and properties)
 * @returns {string[]} one line per rule broken; empty when the text follows the guidelines
 */
function uiTextProblems(description) {
	const problems = [];
	const all = [
		{ kind: 'label', at: 'display name', text: description.displayName },
		...(description.description !== undefined
			? [{ kind: 'description', at: 'node description', text: description.description }]
			: []),
		...texts(description.properties),
	];
	for (const { kind, at, text } of all) {
		if (typeof text !== 'string' || text.trim() === '') {
			if (kind === 'label' || kind === 'dropdown title') problems.push(`${at}: ${kind} is empty`);
			continue;
		}
		if (!ENGLISH_TEXT.test(text))
			problems.push(`${at}: ${kind} has characters outside English text: "${text}"`);
		if ((kind === 'label' || kind === 'dropdown title') && titleCase(text) !== text) {
			problems.push(`${at}: ${kind} "${text}" is not Title Case ("${titleCase(text)}")`);
		}
		if (kind === 'boolean description' && !text.startsWith('Whether')) {
			problems.push(`${at}: boolean description does not start with "Whether": "${text}"`);
		}
		if (kind === 'placeholder' && !text.startsWith('e.g. ')) {
			problems.push(`${at}: placeholder does not start with "e.g.": "${text}"`);
		}
		if (
			['description', 'boolean description', 'action'].includes(kind) &&
			!/^[A-Z0-9]/.test(text)
		) {
			problems.push(`${at}: ${kind} does not start with a capital (Sentence case): "${text}"`);
		}
	}
	return problems;
}

module.exports = { uiTextProblems };
