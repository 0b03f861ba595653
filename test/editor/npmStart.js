'use strict';

// The editor layer's stack is `npm start` itself, typed as a user types it, with --temp (a new
// n8n state in a temp folder, on free ports: a developer's own `npm start` and its state are left
// alone). What the checks need is read from the banner a user reads: the editor URL and login,
// the reference service, the files folder, each workflow's URL and file, each MCP server's URL
// and token. It is stopped as the banner says (`kill <pid>`), and its last line must say that
// nothing is left running; past the deadline its process group is killed.

const fs = require('node:fs');
const path = require('node:path');
const { start, stopGroup, REPO_ROOT } = require('../harness/command');
const { controls } = require('../harness/referenceService');
const { readExampleWorkflows, DEMO_WORKFLOW, SERVICE_KEY } = require('../harness/stack');
const { logIn } = require('../harness/n8n');
const { until } = require('../harness/poll');
const { deadlineMs } = require('../harness/deadlines');

const COMMAND = 'npm start -- --temp';
const RULE = '-'.repeat(78);

/**
 * @typedef {{ id: string, name: string, file: string, nodes: Array<{ name: string, type: string }>,
 *   mcp?: { url?: string, token?: string } }} BannerWorkflow
 * @typedef {Awaited<ReturnType<typeof startNpmStart>>} NpmStart
 */

/** Runs `npm start -- --temp` until its banner is printed; resolves what the banner says. */
async function startNpmStart() {
	const child = start(COMMAND);
	/** @type {{ code: number | null } | undefined} */
	let exit;
	child.process.on('exit', (code) => (exit = { code }));
	const banner = await until(
		`"${COMMAND}" to print its banner`,
		() => bannerOf(child.output()),
		(text) => text !== undefined || exit !== undefined,
		deadlineMs('setUp'),
		500,
	).catch((error) => stopWith(child, error));
	if (!banner)
		stopWith(child, new Error(`npm start exited ${JSON.stringify(exit)} before its banner`));
	const read = (/** @type {string} */ label) =>
		String(new RegExp(`^  ${label}:\\s+(\\S+)`, 'm').exec(banner)?.[1]);
	const url = read('n8n editor').replace(/\/$/, '');
	const owner = { email: read('Log in as'), password: read('Password') };
	const workflows = workflowsOf(banner);
	return {
		n8n: { url },
		owner,
		service: controls(read('Reference service'), [SERVICE_KEY]),
		request: await logIn(url, owner),
		workflows,
		problems: [...banner.matchAll(/^ {4}! (.*)$/gm)].map((m) => m[1]),
		filesFolder: path.resolve(REPO_ROOT, read('Files folder')),
		workflowUrl: (/** @type {string} */ id) => `${url}/workflow/${id}`,
		mcpServer: (/** @type {string} */ id) => workflows.find((w) => w.id === id)?.mcp,
		output: child.output,
		/** Stops it as the banner says; rejects unless it exited 0 saying nothing is left running. */
		async stop() {
			const pid = Number(/kill (\d+)\)/.exec(banner)?.[1]);
			if (!exit) process.kill(pid, 'SIGTERM');
			const done = () => exit;
			await until('npm start to stop', done, Boolean, deadlineMs('tearDown')).catch((error) =>
				stopWith(child, error),
			);
			if (exit?.code !== 0 || !child.output().includes('Stopped. Nothing left running.'))
				stopWith(child, new Error(`npm start stopped with ${JSON.stringify(exit)}`));
		},
	};
}

/** The text between the banner's rules, once printed. @param {string} output */
function bannerOf(output) {
	const begin = output.indexOf(`${RULE}\n`);
	const end = output.indexOf(`\n${RULE}`, begin + RULE.length);
	return begin >= 0 && end > begin ? output.slice(begin + RULE.length + 1, end) : undefined;
}

/**
 * Each workflow line (`- name  url  (file)`) with the MCP lines under it; its nodes from its file.
 * @param {string} banner @returns {BannerWorkflow[]}
 */
function workflowsOf(banner) {
	const files = readExampleWorkflows().workflows.map((w) => w.workflow);
	/** @type {BannerWorkflow[]} */
	const workflows = [];
	for (const line of banner.split('\n')) {
		const listed = /^ {4}- (.+?) {2}\S+\/workflow\/(\S+)(?: {2}\((.+)\))?$/.exec(line);
		if (listed) {
			const [, name, id, file = '(built in)'] = listed;
			const { nodes } = files.find((w) => w.id === id) ?? DEMO_WORKFLOW;
			workflows.push({ id, name, file, nodes });
		}
		const mcp = /^ {6}MCP (server|token) [^:]*: (\S+)$/.exec(line);
		const last = workflows[workflows.length - 1];
		if (mcp && last) last.mcp = { ...last.mcp, [mcp[1] === 'server' ? 'url' : 'token']: mcp[2] };
	}
	return workflows;
}

/** The end of its output, for an error. @param {ReturnType<typeof start>} child */
const tail = (child) => child.output().slice(-6000);

/**
 * Stops the whole process group (on failure) and throws `error` with the output's end.
 * @param {ReturnType<typeof start>} child @param {Error} error @returns {never}
 */
function stopWith(child, error) {
	stopGroup(child.pid);
	throw Object.assign(error, { message: `${error.message}\n${tail(child)}` });
}

/**
 * Keeps what it printed beside the layer's screenshots.
 * @param {NpmStart | undefined} stack @param {string} dir
 */
function keepOutput(stack, dir) {
	if (!stack) return;
	fs.mkdirSync(dir, { recursive: true });
	fs.writeFileSync(path.join(dir, 'npm-start.log'), stack.output());
}

module.exports = { startNpmStart, keepOutput, COMMAND };
