'use strict';

// What the benchmark reads from the machine: its description, the memory of a process
// (/proc/<pid>/status), resetting a process's peak (clear_refs), and how much CPU other
// processes used while the benchmark ran (/proc/stat minus this process tree).

const fs = require('node:fs');
const os = require('node:os');

const CLK_TCK = 100; // USER_HZ on Linux; /proc/<pid>/stat and /proc/stat count in it

function readText(file) {
	try {
		return fs.readFileSync(file, 'utf8');
	} catch {
		return null;
	}
}

/** Machine description for the report. */
function machine() {
	const cpus = os.cpus();
	const memKb = Number(/MemTotal:\s+(\d+)/.exec(readText('/proc/meminfo') ?? '')?.[1] ?? 0);
	return {
		cores: cpus.length,
		cpuModel: cpus[0]?.model?.trim() ?? 'unknown',
		cpuMHz: cpus[0]?.speed ?? null,
		memoryGiB: memKb ? memKb / 1024 / 1024 : os.totalmem() / 1024 ** 3,
		kernel: `${os.type()} ${os.release()} ${os.arch()}`,
		virtualization: /hypervisor/.test(readText('/proc/cpuinfo') ?? '')
			? 'virtual machine (hypervisor flag set)'
			: 'not detected',
	};
}

/**
 * Memory figures of a process in KiB: VmRSS (now), VmHWM (peak since start or the last
 * resetPeak). null when the process is gone.
 * @param {number} pid
 */
function memory(pid) {
	const status = readText(`/proc/${pid}/status`);
	if (status === null) return null;
	const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
	return { rssKb: kb('VmRSS'), hwmKb: kb('VmHWM') };
}

/**
 * Resets the process's peak RSS (VmHWM) to its current RSS (writing 5 to clear_refs, Linux >= 4.0).
 * @returns {boolean} whether it worked
 */
function resetPeak(pid) {
	try {
		fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
		return true;
	} catch {
		return false;
	}
}

/** pid -> ppid of every process now. */
function processTable() {
	/** @type {Map<number, number>} */
	const table = new Map();
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		const stat = readText(`/proc/${entry}/stat`);
		if (!stat) continue;
		const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		table.set(Number(entry), Number(rest[1]));
	}
	return table;
}

/** Pids of the descendants of pid (children, grandchildren...). */
function descendants(pid) {
	const table = processTable();
	const out = [];
	const queue = [pid];
	while (queue.length > 0 && out.length < 10_000) {
		const parent = queue.shift();
		for (const [child, ppid] of table) {
			if (ppid === parent) {
				out.push(child);
				queue.push(child);
			}
		}
	}
	return out;
}

/** user+system CPU seconds a process has used (its own threads, not its children's). */
function processCpuSeconds(pid) {
	const stat = readText(`/proc/${pid}/stat`);
	if (!stat) return 0;
	const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	// Fields 14 (utime) and 15 (stime) of stat(5); rest[0] is field 3.
	return (Number(rest[11]) + Number(rest[12])) / CLK_TCK;
}

/** Busy CPU seconds of the whole machine (all cores) from /proc/stat. */
function machineBusySeconds() {
	const line = (readText('/proc/stat') ?? '').split('\n')[0];
	const f = line.trim().split(/\s+/).slice(1).map(Number);
	// user nice system idle iowait irq softirq steal
	const busy = f[0] + f[1] + f[2] + f[5] + f[6] + (f[7] || 0);
	return busy / CLK_TCK;
}

/**
 * Measures the CPU used by processes outside this process tree between start() and stop().
 * Our tree: this process and its descendants (n8n, its task runner, the reference services).
 * Processes of ours that exit in between are not counted as ours (none do during a phase).
 */
function foreignCpuMeter() {
	const ours = () => [process.pid, ...descendants(process.pid)];
	const snapshot = () => {
		const pids = ours();
		const perPid = new Map(pids.map((p) => [p, processCpuSeconds(p)]));
		return { t: performance.now(), busy: machineBusySeconds(), perPid };
	};
	const start = snapshot();
	return {
		/** @returns {{ seconds: number, foreignCores: number, oursCores: number, busyCores: number }} */
		stop() {
			const end = snapshot();
			let oursDelta = 0;
			for (const [pid, cpu] of end.perPid) oursDelta += cpu - (start.perPid.get(pid) ?? 0);
			const seconds = (end.t - start.t) / 1000;
			const busyDelta = end.busy - start.busy;
			return {
				seconds,
				busyCores: busyDelta / seconds,
				oursCores: oursDelta / seconds,
				foreignCores: Math.max(0, busyDelta - oursDelta) / seconds,
			};
		},
	};
}

function loadavg() {
	return os.loadavg().map((v) => Math.round(v * 100) / 100);
}

/**
 * Waits (bounded) until the 1-minute load average is below maxLoad.
 * @returns {Promise<{ quiet: boolean, waitedSeconds: number, load: number[] }>}
 */
async function waitForQuiet(maxLoad, maxWaitSeconds, log) {
	const start = Date.now();
	for (let i = 0; i < 1000; i++) {
		const load = loadavg();
		const waited = (Date.now() - start) / 1000;
		if (load[0] < maxLoad) return { quiet: true, waitedSeconds: waited, load };
		if (waited >= maxWaitSeconds) return { quiet: false, waitedSeconds: waited, load };
		log(
			`load average ${load.join(' ')} >= ${maxLoad}: waiting (${Math.round(waited)} of ${maxWaitSeconds} s)`,
		);
		await new Promise((resolve) =>
			setTimeout(resolve, Math.min(15_000, Math.max(1000, (maxWaitSeconds - waited) * 1000))),
		);
	}
	return { quiet: false, waitedSeconds: (Date.now() - start) / 1000, load: loadavg() };
}

/**
 * Waits (bounded) until other processes use less than maxForeignCores over a window of
 * windowSeconds (CPU of this process tree excluded, so an idle n8n of ours does not count).
 * @returns {Promise<{ quiet: boolean, waitedSeconds: number, foreignCores: number }>}
 */
async function waitForQuietCpu(maxForeignCores, maxWaitSeconds, log, windowSeconds = 10) {
	const start = Date.now();
	let foreignCores = NaN;
	for (let i = 0; i < 1000; i++) {
		const meter = foreignCpuMeter();
		await new Promise((resolve) => setTimeout(resolve, windowSeconds * 1000));
		foreignCores = meter.stop().foreignCores;
		const waited = (Date.now() - start) / 1000;
		if (foreignCores < maxForeignCores) return { quiet: true, waitedSeconds: waited, foreignCores };
		if (waited >= maxWaitSeconds) return { quiet: false, waitedSeconds: waited, foreignCores };
		log(
			`other processes use ${foreignCores.toFixed(2)} cores (>= ${maxForeignCores}): waiting (${Math.round(waited)} of ${maxWaitSeconds} s)`,
		);
	}
	return { quiet: false, waitedSeconds: (Date.now() - start) / 1000, foreignCores };
}

module.exports = {
	waitForQuietCpu,
	machine,
	memory,
	resetPeak,
	descendants,
	foreignCpuMeter,
	loadavg,
	waitForQuiet,
	processCpuSeconds,
};
