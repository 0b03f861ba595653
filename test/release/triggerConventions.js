'use strict';
// Trigger-node conventions, as lint's @n8n/community-nodes rules check them on the source
// (trigger-node-conventions: name ends with "Trigger", display name contains "Trigger",
// inputs: []; node-usable-as-tool: a trigger must not set usableAsTool). Those rules only
// recognise a trigger by its class name; this check applies them to the runtime description of
// every node the package registers, recognising a trigger by what n8n runs it as.

/** A node n8n starts a workflow with: polling, a trigger() or webhook method, or the trigger group. */
function isTrigger(className, description, instance = {}) {
	return (
		/Trigger$/.test(className) ||
		/Trigger$/.test(description.name) ||
		description.polling === true ||
		(description.group || []).includes('trigger') ||
		['poll', 'trigger', 'webhook'].some((method) => typeof instance[method] === 'function')
	);
}

/** @returns {string[]} the conventions a trigger node breaks; empty for a conforming one */
function triggerProblems(description) {
	const problems = [];
	if (!/Trigger$/.test(description.name))
		problems.push(`name "${description.name}" does not end with "Trigger"`);
	if (!String(description.displayName).includes('Trigger')) {
		problems.push(`display name "${description.displayName}" does not contain "Trigger"`);
	}
	if (!Array.isArray(description.inputs) || description.inputs.length !== 0)
		problems.push('inputs is not []');
	if (description.usableAsTool) problems.push('usableAsTool is set (triggers cannot be AI tools)');
	return problems;
}

module.exports = { isTrigger, triggerProblems };
