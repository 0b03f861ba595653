'use strict';

// Section 5: where n8n's time goes (CPU profile by category).

const { f0, f3, columns, blocks } = require('./format');

/** Categories of the labels' profiles, by time in the first label's; ms per unit of each. */
function profileTable(p, labels, perUnit, unit) {
	const ms = (l, c) => p[l].cats.get(c) ?? 0;
	const cats = [...new Set(labels.flatMap((l) => [...p[l].cats.keys()]))];
	cats.sort((a, b) => ms(labels[0], b) - ms(labels[0], a));
	const share = (l) => (c) =>
		c.startsWith('(idle') ? '–' : `${f0((100 * ms(l, c)) / p[l].busyMs)} %`;
	const cells = { Category: (c) => c };
	for (const l of labels)
		cells[`${l}: ms/${unit(l)}`] = (c) => f3(ms(l, c) / p[l].times / perUnit(l));
	for (const l of labels.filter((l) => l !== 'noop')) cells[`${l}: share of busy`] = share(l);
	return columns(cells, cats);
}

function profileSection(results, p) {
	const { pages, keywords, samplingIntervalUs } = results.phases.profile;
	const labels = Object.keys(p);
	const keywordLabels = labels.filter((l) => l.startsWith('keywords'));
	const perRun = (l) => l === 'noop';
	return blocks(
		'## 5. Where the time goes: CPU profile of n8n',
		`After the timed phases, n8n's inspector was opened on 127.0.0.1 (SIGUSR1) and V8's sampling profiler (every ${samplingIntervalUs} µs) recorded ${labels.map((l) => `${p[l].times} runs of ${l}`).join(', ')}. Self time by category; "(idle)" is the main thread waiting for the network. The profiler slows the process down, so read the shares, not the absolute values.`,
		`Return All over ${pages} pages, in ms per page (per run for the no-op):`,
		profileTable(
			p,
			labels.filter((l) => !l.startsWith('keywords')),
			(l) => (perRun(l) ? 1 : pages),
			(l) => (perRun(l) ? 'run' : 'page'),
		),
		keywordLabels.length > 0 && keywords
			? [
					`${keywords} keywords, one page each, in ms per keyword:`,
					profileTable(
						p,
						keywordLabels,
						() => keywords,
						() => 'keyword',
					),
				]
			: '',
	);
}

module.exports = { profileSection };
