'use strict';

// What the benchmark reads from the machine (Linux /proc): its description, the memory of a
// process, resetting a process's peak (clear_refs), and how much CPU other processes used while
// the benchmark ran (/proc/stat minus this process tree). Hand-written: the libraries that read
// /proc report per-process figures, not VmHWM, clear_refs or the machine total minus a tree.

const fs = require('node:fs');
const os = require('node:os');

const CLK_TCK = 100; // USER_HZ on Linux; /proc/<pid>/stat and /proc/stat count in it
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

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
	const hypervisor = /hypervisor/.test(readText('/proc/cpuinfo') ?? '');
	return {
		cores: cpus.length,
		cpuModel: cpus[0]?.model?.trim() ?? 'unknown',
		cpuMHz: cpus[0]?.speed ?? null,
		memoryGiB: memKb ? memKb / 1024 / 1024 : os.totalmem() / 1024 ** 3,
		kernel: `${os.type()} ${os.release()} ${os.arch()}`,
		virtualization: hypervisor ? 'virtual machine (hypervisor flag set)' : 'not detected',
	};
}

/** VmRSS (now) and VmHWM (peak since start or the last resetPeak) in KiB; null when gone. */
function memory(pid) {
	const status = readText(`/proc/${pid}/status`);
	if (status === null) return null;
	const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
	return { rssKb: kb('VmRSS'), hwmKb: kb('VmHWM') };
}

/** Resets the peak RSS (VmHWM) to the current RSS (5 to clear_refs, Linux >= 4.0); worked? */
function resetPeak(pid) {
	try {
		fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
		return true;
	} catch {
		return false;
	}
}

/** The fields of /proc/<pid>/stat after the command name (rest[0] is field 3 of stat(5)). */
const statFields = (pid) => {
	const stat = readText(`/proc/${pid}/stat`);
	return stat ? stat.slice(stat.lastIndexOf(')') + 2).split(' ') : null;
};

/** Pids of the descendants of pid (children, grandchildren...). */
function descendants(pid) {
	const parents = fs
		.readdirSync('/proc')
		.filter((entry) => /^\d+$/.test(entry))
		.map((entry) => [Number(entry), Number(statFields(entry)?.[1])]);
	const out = [];
	for (let i = -1; i < out.length && out.length < 10_000; i++) {
		const parent = i < 0 ? pid : out[i];
		for (const [child, ppid] of parents) if (ppid === parent) out.push(child);
	}
	return out;
}

/** user+system CPU seconds a process has used (its own threads, not its children's). */
function processCpuSeconds(pid) {
	const rest = statFields(pid);
	return rest ? (Number(rest[11]) + Number(rest[12])) / CLK_TCK : 0; // fields 14 and 15
}

/** Busy CPU seconds of the whole machine (all cores) from /proc/stat. */
function machineBusySeconds() {
	const f = (readText('/proc/stat') ?? '').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
	// user nice system idle iowait irq softirq steal
	return (f[0] + f[1] + f[2] + f[5] + f[6] + (f[7] || 0)) / CLK_TCK;
}

/**
 * Measures the CPU used by processes outside this process tree (this process and its
 * descendants: n8n, its task runner, the reference services) between start and stop().
 */
function foreignCpuMeter() {
	const snapshot = () => {
		const pids = [process.pid, ...descendants(process.pid)];
		const perPid = new Map(pids.map((p) => [p, processCpuSeconds(p)]));
		return { t: performance.now(), busy: machineBusySeconds(), perPid };
	};
	const start = snapshot();
	return {
		/** @returns {{ seconds: number, foreignCores: number, oursCores: number, busyCores: number }} */
		stop() {
			const end = snapshot();
			let ours = 0;
			for (const [pid, cpu] of end.perPid) ours += cpu - (start.perPid.get(pid) ?? 0);
			const seconds = (end.t - start.t) / 1000;
			const busy = end.busy - start.busy;
			const foreignCores = Math.max(0, busy - ours) / seconds;
			return { seconds, busyCores: busy / seconds, oursCores: ours / seconds, foreignCores };
		},
	};
}

const loadavg = () => os.loadavg().map((v) => Math.round(v * 100) / 100);

/**
 * Measures with `probe` until `quiet` holds or maxWaitSeconds have passed (bounded).
 * @template T @param {() => Promise<T>} probe @param {(x: T) => boolean} quiet
 * @param {(x: T, waited: number) => string} busy what to log while waiting
 */
async function waitUntilQuiet(probe, quiet, maxWaitSeconds, log, busy) {
	const start = Date.now();
	for (let i = 0; ; i++) {
		const x = await probe();
		const waitedSeconds = (Date.now() - start) / 1000;
		if (quiet(x) || waitedSeconds >= maxWaitSeconds || i >= 1000)
			return { quiet: quiet(x), waitedSeconds, x };
		log(`${busy(x, waitedSeconds)}: waiting (${Math.round(waitedSeconds)} of ${maxWaitSeconds} s)`);
	}
}

/** Waits (bounded) until the 1-minute load average is below maxLoad. */
async function waitForQuiet(maxLoad, maxWaitSeconds, log) {
	let first = true;
	const probe = async () => {
		if (!first) await sleep(15_000);
		first = false;
		return loadavg();
	};
	const r = await waitUntilQuiet(
		probe,
		(load) => load[0] < maxLoad,
		maxWaitSeconds,
		log,
		(load) => `load average ${load.join(' ')} >= ${maxLoad}`,
	);
	return { quiet: r.quiet, waitedSeconds: r.waitedSeconds, load: r.x };
}

/**
 * Waits (bounded) until other processes use less than maxForeignCores over a 10 s window (this
 * process tree excluded, so an idle n8n of ours does not count).
 */
async function waitForQuietCpu(maxForeignCores, maxWaitSeconds, log) {
	const probe = async () => {
		const meter = foreignCpuMeter();
		await sleep(10_000);
		return meter.stop().foreignCores;
	};
	const busy = (cores) => `other processes use ${cores.toFixed(2)} cores (>= ${maxForeignCores})`;
	const r = await waitUntilQuiet(
		probe,
		(cores) => cores < maxForeignCores,
		maxWaitSeconds,
		log,
		busy,
	);
	return { quiet: r.quiet, waitedSeconds: r.waitedSeconds, foreignCores: r.x };
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
	waitForQuietCpu,
};
