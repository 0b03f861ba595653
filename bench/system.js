'use strict';

// What the benchmark reads from the machine (Linux /proc): its description, a process's memory
// and CPU, resetting its peak, and the CPU other processes used while the benchmark ran.

const fs = require('node:fs');
const os = require('node:os');
const { poll } = require('../test/harness/poll');

const CLK_TCK = 100; // USER_HZ on Linux: the unit of /proc/<pid>/stat and /proc/stat
const read = (/** @type {string} */ file) => {
	try {
		return fs.readFileSync(file, 'utf8');
	} catch {
		return '';
	}
};

function machine() {
	const [cpu] = os.cpus();
	const memKb = Number(/MemTotal:\s+(\d+)/.exec(read('/proc/meminfo'))?.[1] ?? 0);
	return {
		cores: os.cpus().length,
		cpuModel: cpu?.model?.trim() ?? 'unknown',
		cpuMHz: cpu?.speed ?? null,
		memoryGiB: (memKb * 1024 || os.totalmem()) / 1024 ** 3,
		kernel: `${os.type()} ${os.release()} ${os.arch()}`,
		virtualization: /hypervisor/.test(read('/proc/cpuinfo'))
			? 'virtual machine (hypervisor flag set)'
			: 'not detected',
	};
}

/** VmRSS (now) and VmHWM (peak since start or resetPeak) in KiB; null when the process is gone. */
function memory(/** @type {number} */ pid) {
	const status = read(`/proc/${pid}/status`);
	const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
	return status ? { rssKb: kb('VmRSS'), hwmKb: kb('VmHWM') } : null;
}

/** Resets VmHWM to the current RSS (5 to clear_refs, Linux >= 4.0); whether it worked. */
function resetPeak(/** @type {number} */ pid) {
	try {
		fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
		return true;
	} catch {
		return false;
	}
}

/** The fields of /proc/<pid>/stat after the command name: [0] is field 3 of stat(5). */
const statFields = (/** @type {number | string} */ pid) => {
	const stat = read(`/proc/${pid}/stat`);
	return stat ? stat.slice(stat.lastIndexOf(')') + 2).split(' ') : null;
};

/** Pids of the descendants of pid (children, grandchildren...). */
function descendants(/** @type {number} */ pid) {
	const pids = fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
	const parents = pids.map((entry) => [Number(entry), Number(statFields(entry)?.[1])]);
	const out = [pid];
	for (let i = 0; i < out.length && out.length < 10_000; i++)
		for (const [child, ppid] of parents) if (ppid === out[i]) out.push(child);
	return out.slice(1);
}

/** user+system CPU seconds of a process's own threads (fields 14 and 15). */
function processCpuSeconds(/** @type {number} */ pid) {
	const rest = statFields(pid);
	return rest ? (Number(rest[11]) + Number(rest[12])) / CLK_TCK : 0;
}

/** CPU other processes than this one and its descendants (n8n, the services) use, from now. */
function foreignCpuMeter() {
	const snapshot = () => {
		const ours = [process.pid, ...descendants(process.pid)];
		// /proc/stat: user nice system idle iowait irq softirq steal
		const f = read('/proc/stat').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
		const busy = (f[0] + f[1] + f[2] + f[5] + f[6] + (f[7] || 0)) / CLK_TCK;
		return {
			t: performance.now(),
			busy,
			perPid: new Map(ours.map((p) => [p, processCpuSeconds(p)])),
		};
	};
	const start = snapshot();
	return {
		stop() {
			const end = snapshot();
			let ours = 0;
			for (const [pid, cpu] of end.perPid) ours += cpu - (start.perPid.get(pid) ?? 0);
			const seconds = (end.t - start.t) / 1000;
			const busy = end.busy - start.busy;
			const foreignCores = Math.max(0, busy - ours) / seconds;
			return { oursCores: ours / seconds, foreignCores };
		},
	};
}

const loadavg = () => os.loadavg().map((v) => Math.round(v * 100) / 100);

/** Waits (at most maxWaitSeconds) until the 1-minute load average is below maxLoad. */
async function waitForQuiet(maxLoad, maxWaitSeconds, log) {
	const start = Date.now();
	const waited = () => (Date.now() - start) / 1000;
	const probe = () => {
		const load = loadavg();
		if (load[0] >= maxLoad && waited() < maxWaitSeconds)
			log(`load ${load.join(' ')} >= ${maxLoad}: waiting (${Math.round(waited())} s)`);
		return load;
	};
	const load = await poll(probe, (l) => l[0] < maxLoad, maxWaitSeconds * 1000, 15_000);
	return { quiet: load[0] < maxLoad, waitedSeconds: waited(), load };
}

module.exports = {
	machine,
	memory,
	resetPeak,
	descendants,
	processCpuSeconds,
	foreignCpuMeter,
	loadavg,
	waitForQuiet,
};
