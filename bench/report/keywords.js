'use strict';

// Section 4: several input items (50 keywords), and the repeated keywords.

const { f0, f2, f3, columns, blocks } = require('./format');
const { summarize } = require('../stats');
const { keywordRatio, pick } = require('./analyse');
const { LABELS, TARGET_RATIO } = require('./targets');

const VARIANTS = {
	node: LABELS.node,
	http: '(b) HTTP Request + Split Out',
	floor: '(d) undici, all requests at once, outside n8n',
};
const EXPR = 'Expression engine (isolated-vm sandbox)';
const EVALUATE = '@n8n/expression-runtime: evaluate';
const OWN = 'this package (n8n-nodes-sound-search)';

function variantsTable(k) {
	const n = k.keywords.length;
	const rows = Object.entries(VARIANTS).map(([v, label]) => {
		const runs = k.distinct.filter((r) => r.variant === v);
		const distinct = (key) => [...new Set(runs.map((r) => r[key]))].join(', ');
		return { label, ms: summarize(runs.map((r) => r.ms)), runs, distinct };
	});
	return columns(
		[
			['Variant', (r) => r.label],
			[`median ms for ${n} keywords`, (r) => `**${f0(r.ms.median)}**`],
			['min–max', (r) => `${f0(r.ms.min)}–${f0(r.ms.max)}`],
			['ms per keyword', (r) => `**${f2(r.ms.median / n)}**`],
			['sounds out', (r) => String(r.runs[0]?.items)],
			['calls', (r) => r.distinct('calls')],
			['credits', (r) => r.distinct('credits')],
		],
		rows,
	);
}

/** Where the node's time per keyword goes, from the profile (section 5). */
function profileWhy(p, n) {
	const [kn, kh] = [p?.['keywords-node'], p?.['keywords-http']];
	if (!kn || !kh) return '';
	const per = (x, ms) => ms / x.times / n;
	const fnOf = (x) => x.functions.find((f) => f.fn === EVALUATE)?.ms ?? 0;
	const both = (f) => `${f2(per(kn, f(kn)))} ms against ${f2(per(kh, f(kh)))} ms`;
	return ` In the profile (section 5), n8n was busy ${f2(per(kn, kn.busyMs))} ms per keyword for the node against ${f2(per(kh, kh.busyMs))} ms for HTTP Request; the expression sandbox took ${both((x) => x.cats.get(EXPR) ?? 0)} (expression evaluation, inclusive: ${both(fnOf)}), and this package's own code ${f3(per(kn, kn.cats.get(OWN) ?? 0))} ms. Per input item, n8n's declarative engine resolves the node's request expressions (the Base URL from the credential, the URL with the platform, the query) and, per request, the credential's header expression, each in the sandbox; HTTP Request here has a fixed URL and one expression (the query) besides its credential.`;
}

function slowerNote(results, k, p) {
	const ratio = keywordRatio(k);
	if (!(ratio > TARGET_RATIO)) return '';
	const n = k.keywords.length;
	const [a, b] = ['node', 'http'].map(
		(variant) => summarize(pick(k.distinct, { variant })).median / n,
	);
	return `**The node is slower than HTTP Request here**: ${f2(a)} ms against ${f2(b)} ms per keyword (median per-round ratio ${f2(ratio)}), while it is faster on the ${results.phases.time?.pages ?? 100}-page Return All (section 1). With one page per keyword, the fixed cost of each input item's search dominates, not the per-page cost.${profileWhy(p, n)}`;
}

function keywordsSection(results, p) {
	const k = results.phases.keywords;
	const n = k.keywords.length;
	return blocks(
		`## 4. Several input items: ${n} keywords`,
		`A webhook receives \`{"keywords": [...]}\`; Split Out makes one item per keyword; one search per item with Limit ${k.limit} (one page each). (a) the node, (b) HTTP Request (one request per item, Split Out on \`data.items\`), (d) undici, all ${n} requests at once (n8n's declarative engine also starts every item's search at once). ${k.rounds} interleaved rounds, cache emptied before each run.`,
		variantsTable(k),
		slowerNote(results, k, p),
		`Minimum credits for ${n} distinct keywords: ${k.minCreditsDistinct}.`,
		'Repeated keywords (the service answers an identical request made within its cache window from a repeat reading, free):',
		columns(
			[
				['Case', (r) => r.case],
				['Variant', (r) => (r.variant === 'node' ? 'Sound Search node' : 'HTTP Request')],
				['input items', (r) => r.keywords],
				['distinct keywords', (r) => r.distinctKeywords],
				['calls', (r) => r.calls],
				[
					'service outcomes',
					(r) =>
						Object.entries(r.outcomes)
							.map(([o, c]) => `${o} ${c}`)
							.join(', '),
				],
				['credits', (r) => `**${r.credits}**`],
				['minimum credits', (r) => r.minCredits],
				['ms', (r) => f0(r.ms)],
			],
			k.repeats,
		),
		'The node makes an identical search once per run and gives its sounds to every item that asked for it (those items carry `creditsCharged: 0`), so repeats in one run cost neither a call nor a credit; a repeat in a later run within the cache window is a call the service answers from its cache at 0 credits. HTTP Request sends every repeat; the reference service answers them from its cache because it handles them one after the other, but a service that receives identical requests at the same moment may read (and charge) each of them.',
	);
}

module.exports = { keywordsSection };
