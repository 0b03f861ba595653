'use strict';

// Section 2: the scale series and the memory a run needs.

const { f0, f1, f2, f3, mib, int, columns, blocks } = require('./format');
const { LABELS } = require('./targets');

/** The series of every variant, and the rows of every variant, each with its variant. */
const seriesOf = (s) => Object.entries(s).map(([v, a]) => ({ v, ...a }));
const rowsOf = (s) => Object.entries(s).flatMap(([v, a]) => a.rows.map((r) => ({ v, ...r })));
const label = (r) => LABELS[r.v] ?? r.v;
const n8nOnly = (f) => (r) => (r.v === 'floor' ? '–' : f(r));
const last = (rows) => rows[rows.length - 1];

function growthTable(sizes, s) {
	const steps = sizes.slice(1).map((size, i) => `${int(sizes[i] / 1000)}k→${int(size / 1000)}k`);
	const marginal = (rows) =>
		rows.slice(1).map((r, i) => `${f0(((r.ms - rows[i].ms) / (r.size - rows[i].size)) * 1000)}`);
	const cells = {
		Variant: label,
		[`time ${int(sizes[0])}→${int(last(sizes))}`]: (a) => `×${f1(last(a.rows).ms / a.rows[0].ms)}`,
		[`ms per 1,000 more sounds (${steps.join(' / ')})`]: (a) => marginal(a.rows).join(' / '),
		'time exponent (1 = linear)': (a) => f2(a.timeExponent),
		'R² of a straight line': (a) => f3(a.timeFit.r2),
		'slope per 1,000 sounds': (a) => `${f2(a.timeFit.slope * 1000)} ms`,
		'n8n CPU exponent': n8nOnly((a) => f2(a.cpuExponent)),
	};
	return columns(cells, seriesOf(s));
}

function memoryPart(memory, m) {
	const perSize = {
		Variant: label,
		sounds: (r) => int(r.size),
		'allocated MiB': (r) => `**${f1(r.allocatedKb / 1024)}**`,
		'allocated KiB per sound': (r) => f2(r.allocatedKb / r.size),
		'of it by this package, MiB': (r) => (r.v === 'scale-node' ? f1(r.ownKb / 1024) : '–'),
		'held at once MiB': (r) => f1(r.needKb / 1024),
		'heap baseline MiB': (r) => f0(r.baseKb / 1024),
		'n8n peak RSS MiB': (r) => mib(r.peakRssKb),
	};
	const fits = {
		Variant: label,
		'allocated: exponent (1 = linear)': (a) => f2(a.exponent),
		'allocated per 1,000 more sounds': (a) => `${f1((a.fit.slope * 1000) / 1024)} MiB`,
		'R²': (a) => f3(a.fit.r2),
		'held at once: per 1,000 more sounds': (a) =>
			`${f1((a.heldFit.slope * 1000) / 1024)} MiB (R² ${f2(a.heldFit.r2)})`,
	};
	return [
		`**Memory a run needs.** After the timed phases, with n8n's inspector open, ${memory.reps} repetition(s) after one unrecorded run of each variant, medians. *Allocated*: every byte the run allocated, garbage included (V8's sampling heap profiler, every ~16 KiB, keeping objects collected by minor and major GCs: an estimate); quadratic copying of pages would make it grow with the square of the size. *Held at once*: a forced garbage collection, the heap in use then (baseline), the heap polled every few ms during the run; peak minus baseline, a lower bound (a collection between two polls hides what it freed).`,
		columns(perSize, rowsOf(m)),
		columns(fits, seriesOf(m)),
	];
}

function scaleSection(results, s, m) {
	const scale = results.phases.scale;
	const runnerPeak = Math.max(...scale.runs.map((r) => r.runnerPeakKb));
	const cells = {
		Variant: label,
		sounds: (r) => int(r.size),
		pages: (r) => r.pages,
		'items out': (r) => r.items.join(', '),
		'wall ms (median)': (r) => `**${f0(r.ms)}**`,
		'ms per sound': (r) => f3(r.ms / r.size),
		'n8n CPU ms': n8nOnly((r) => f0(r.n8nCpuMs)),
		'n8n peak RSS MiB': n8nOnly((r) => mib(r.peakKb)),
	};
	return blocks(
		`## 2. Scale: Return All of ${scale.sizes.map(int).join(', ')} sounds`,
		`Pages of ${scale.pageSize} (the service's cap; Max Pages raised to 1,000 on the node, Max Pages 1,000 on the HTTP Request pagination), ${scale.reps} repetition(s) of the sizes in ascending order, the variants rotated. Peak memory: VmHWM of the n8n process (its own pid, not the harness's supervisor), reset before each run by writing 5 to /proc/<pid>/clear_refs, so it is the peak of that run. n8n's JavaScript task runner is a separate process (see below).`,
		columns(cells, rowsOf(s)),
		growthTable(scale.sizes, s),
		"Exponent k of time ~ sounds^k between the smallest and the largest size, after subtracting n8n's fixed per-execution floor (the no-op median) for the n8n variants: 1 is linear, 2 would be quadratic copying; below 1 means fixed costs (first pages, workflow start) still weigh at the small sizes. The marginal cost per 1,000 more sounds stays flat from step to step when growth is linear; quadratic copying would make it grow with the size.",
		`n8n's resident memory (RSS) hardly moves during these runs (the peak of each run is within a few MiB of the RSS before it; raw figures below): it was ${mib(results.n8nMemoryAfterStart?.rssKb)} MiB after start, and V8 had already grown its heap during the earlier phases, so a run reuses memory the process holds. What a run needs is measured below instead.`,
		m ? memoryPart(results.phases.memory, m) : '',
		`n8n's JavaScript task runner (a separate process, idle here: no Code node) peaked at ${mib(runnerPeak)} MiB RSS.`,
	);
}

module.exports = { scaleSection };
