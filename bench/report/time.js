'use strict';

// Section 1 (time) and, when the per-page target is missed, why.

const { f0, f1, f2, f3, int, table, columns, blocks } = require('./format');
const { LABELS, TARGET_PER_PAGE_MS } = require('./targets');

const range = (f, [a, b]) => `${f(a)}–${f(b)}`;

function variantsTable(time, stats) {
	const ms = (v) => stats[v].ms;
	const n8nCpu = (v) =>
		v.startsWith('floor')
			? `– (client: ${f0(stats[v].clientCpu.median)})`
			: f0(stats[v].n8nCpu.median);
	const cells = {
		Variant: (v) => LABELS[v],
		'median ms': (v) => `**${f1(ms(v).median)}**`,
		'95 % CI of median': (v) => (ms(v).ci95 ? range(f1, ms(v).ci95) : 'n/a'),
		'p25–p75': (v) => range(f1, [ms(v).p25, ms(v).p75]),
		'p10–p90': (v) => range(f1, [ms(v).p10, ms(v).p90]),
		'min–max': (v) => range(f1, [ms(v).min, ms(v).max]),
		'n8n CPU ms (median)': n8nCpu,
		'service CPU ms': (v) => f0(stats[v].serviceCpu.median),
	};
	return columns(cells, time.variants);
}

/** The derived rows: [label, paired key, unit]; the (e) rows only when (e) ran. */
const DERIVED = [
	['(a)/(b) time ratio', 'ratio', ''],
	['(a) per-page overhead over (d): ((a) − (c) − (d)) / pages', 'aNet'],
	['(b) per-page overhead over (d): ((b) − (c) − (d)) / pages', 'bNet'],
	['(a) per page over (d), n8n floor included: ((a) − (d)) / pages', 'aGross'],
	['(b) per page over (d), n8n floor included: ((b) − (d)) / pages', 'bGross'],
	['(a) n8n CPU per page (above the no-op)', 'aCpuPage'],
	['(b) n8n CPU per page (above the no-op)', 'bCpuPage'],
	['(d) client CPU per page (undici loop)', 'dCpuPage'],
	['(a) per-page overhead over (e): ((a) − (c) − (e)) / pages', 'aNetE'],
	['(b) per-page overhead over (e): ((b) − (c) − (e)) / pages', 'bNetE'],
	['(e) client CPU per page', 'eCpuPage'],
];

function derivedTable(paired) {
	const withE = Number.isFinite(paired.aNetE.median);
	const rows = DERIVED.filter(([, k]) => withE || !/E$|^e/.test(k));
	return columns(
		{
			Figure: ([label]) => label,
			median: ([, k, unit = 'ms']) => `**${f2(paired[k].median)}**${unit ? ` ${unit}` : ''}`,
			'p25–p75': ([, k]) => range(f2, [paired[k].p25, paired[k].p75]),
			'p10–p90': ([, k]) => range(f2, [paired[k].p10, paired[k].p90]),
		},
		rows,
	);
}

function timeSection(results, { stats, paired }) {
	const time = results.phases.time;
	const pages = time.pages;
	return blocks(
		`## 1. Time: Return All over ${pages} pages of ${time.pageSize} sounds`,
		`${time.rounds} rounds after ${time.warmup} warm-up rounds; in each round the variants ran back to back, in an order rotated from round to round, against the same reference service (cache off, so every page is a fresh reading for every variant). Every run was checked: ${int(pages * time.pageSize)} sounds out, all distinct, ${pages} calls recorded by the service (0 for the no-op). Times are wall times seen by the caller (webhook request to complete answer; for (d) the first request to the last page parsed).`,
		variantsTable(time, stats),
		'Derived, per round (paired), then the median and the spread over the rounds:',
		derivedTable(paired),
		`Per call, the raw floor (d) costs ${f2(stats.floor.ms.median / pages)} ms of wall time (the reference service building a page of ${time.pageSize} sounds and the loopback round trip); n8n's own floor (c), a webhook that runs a no-op workflow and answers, costs ${f1(stats.noop.ms.median)} ms per execution, once.`,
	);
}

/** What the credential's authenticate does, as read from the installed package. */
function authText(auth) {
	if (!auth || auth.kind === 'function')
		return auth ? ' (a function: no expression to resolve)' : '';
	const headers = Object.entries(auth.properties?.headers ?? {});
	const expressions = headers.filter(([, v]) => typeof v === 'string' && v.startsWith('='));
	if (expressions.length === 0) return '';
	return `; its ${expressions.map(([k, v]) => `\`${k}: ${v}\``).join(', ')} header is an expression, resolved in the isolated-vm sandbox on every request`;
}

/** Functions whose inclusive time the why-section shows, and what each is. */
const MARKERS = {
	'n8n-core: httpRequestWithAuthentication':
		"n8n's authenticated request helper, called by the node once per page",
	'n8n-core: getCredentials':
		'inside it: reading the credential from the database and decrypting it, on every request',
	'n8n: authenticate': 'inside it: applying the credential',
	'axios: dispatchRequest':
		'inside it: axios sending the request (n8n gives every request a new HTTP agent, so a new TCP connection)',
	'@n8n/expression-runtime: evaluate': 'every expression evaluation of the run, in the sandbox',
};

function profileOfNode(results, node, pages) {
	const perPage = (ms) => ms / node.times / pages;
	const cats = [...node.cats].filter(([c]) => !c.startsWith('(idle')).sort((a, b) => b[1] - a[1]);
	const own = node.cats.get('this package (n8n-nodes-sound-search)') ?? 0;
	const fn = new Map(node.functions.map((x) => [x.fn, x.ms]));
	const ownTop = node.functions.find((x) =>
		x.fn.startsWith('n8n-nodes-sound-search (this package): '),
	);
	const markers = Object.entries({
		...MARKERS,
		'n8n: authenticate': MARKERS['n8n: authenticate'] + authText(results.credentialAuthenticate),
		...(ownTop && {
			[ownTop.fn]: "this package's outermost function, inclusive of the n8n helpers it calls",
		}),
	}).filter(([key]) => fn.has(key));
	const largest = cats.slice(0, 4).map(([c, ms]) => `${c} ${f2(perPage(ms))} ms`);
	return [
		`In the profiled runs of (a) (section 5), n8n's main thread was busy ${f2(perPage(node.busyMs))} ms per page. This package's own code (paginator, input checks, page reading, item building) took ${f3(perPage(own))} ms of it; the largest parts are n8n's: ${largest.join(', ')}.`,
		markers.length === 0
			? ''
			: [
					'Inclusive time of a few functions (the function and what it calls), per page, in the profiled runs of (a). Only synchronous stacks count: work resumed from the event loop (database and socket callbacks) is counted where it resumes, so the rows overlap and do not add up:',
					table(
						['Function', 'ms per page', 'What it is'],
						markers.map(([key, what]) => [`\`${key}\``, f3(perPage(fn.get(key))), what]),
					),
				],
	];
}

function whySection(results, { paired, stats }, p) {
	const pages = results.phases.time.pages;
	const floorNewGap = (stats['floor-new']?.ms.median - stats.floor.ms.median) / pages;
	return blocks(
		'### Why the per-page target is missed',
		`Per page, the node costs ${f2(paired.aNet.median)} ms of wall time and ${f2(paired.aCpuPage.median)} ms of n8n CPU over the floor; the raw undici loop spends ${f2(paired.dCpuPage.median)} ms of client CPU per page. The built-in HTTP Request node, doing the same job, costs ${f2(paired.bNet.median)} ms (${f2(paired.bCpuPage.median)} ms CPU) per page. So the cost is in what n8n does around every request, which every node that makes one request per page pays; the CPU profile below shows where.`,
		p?.node ? profileOfNode(results, p.node, pages) : '',
		Number.isFinite(paired.aNetE.median)
			? `Connection set-up alone accounts for part of the gap: the floor with a new connection per page, (e), is ${f2(floorNewGap)} ms per page slower than (d), and against (e) the node's per-page overhead is ${f2(paired.aNetE.median)} ms.`
			: '',
		`So the per-page cost is n8n's request path (credential read and decryption, ${results.credentialAuthenticate?.kind === 'function' ? '' : "the credential's header expression, "}a new connection, axios), which every node that calls an API with a credential pays on every request; HTTP Request pays it too, plus its pagination expressions. This package's own per-page work is a small fraction of it. The node meets the target set against the alternative ((a)/(b)); the per-page target of ${TARGET_PER_PAGE_MS} ms over a raw client is missed by the amount above.`,
	);
}

module.exports = { timeSection, whySection };
