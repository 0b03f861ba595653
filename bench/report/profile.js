'use strict';

// Section 5: where n8n's time goes (CPU profile by category).

const { f0, f3, columns, blocks } = require('./format');

/** Categories of the labels' profiles, by time in the first label's, with ms per unit. */
function profileTable(p, labels, perUnit, unitOf) {
	const cats = new Set(labels.flatMap((l) => [...p[l].cats.keys()]));
	const order = [...cats].sort(
		(a, b) => (p[labels[0]]?.cats.get(b) ?? 0) - (p[labels[0]]?.cats.get(a) ?? 0),
	);
	const ms = (l, c) => p[l].cats.get(c) ?? 0;
	const share = (l) => (c) =>
		c.startsWith('(idle') ? '–' : `${f0((100 * ms(l, c)) / p[l].busyMs)} %`;
	return columns(
		[
			['Category', (c) => c],
			...labels.map(
				(l) =>
					/** @type {[string, (c: string) => string]} */ ([
						`${l}: ms/${unitOf(l)}`,
						(c) => f3(ms(l, c) / p[l].times / perUnit(l)),
					]),
			),
			...labels
				.filter((l) => l !== 'noop')
				.map(
					(l) => /** @type {[string, (c: string) => string]} */ ([`${l}: share of busy`, share(l)]),
				),
		],
		order,
	);
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
