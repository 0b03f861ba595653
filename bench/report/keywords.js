'use strict';

// Section 3 (the credit matrix) and section 4 (several input items, repeated keywords).

const { f0, f2, f3, columns, blocks } = require('./format');
const { summarize } = require('../stats');
const { keywordRatio, pick } = require('./analyse');
const { LABELS, TARGET_RATIO } = require('./targets');

function creditsSection({ phases: { credits } }) {
	const waste = (c) => c.credits - c.minCredits;
	const cells = {
		'Platform (price)': (c) => `${c.platform} (${c.price})`,
		'Page Size': (c) => c.pageSize,
		Limit: (c) => (c.limit === 'Return All' ? 'Return All' : `${c.label}: ${c.limit}`),
		'sounds out': (c) => c.itemsOut,
		calls: (c) => c.calls,
		'minimum calls': (c) => c.minCalls,
		credits: (c) => `**${c.credits}**`,
		'minimum credits': (c) => c.minCredits,
		waste: (c) => (waste(c) === 0 ? '0' : `**${waste(c)}**`),
	};
	return blocks(
		'## 3. Credits: Limit matrix and Return All',
		`Query with ${credits.cases[0]?.total} matching sounds (catalogue override); the service's cache emptied before each case, so every call is a fresh, charged reading. Minimum calls = max(1, ⌈min(Limit, results) / page size⌉): the fewest calls that return the sounds asked for and, when all results are wanted, see \`nextCursor: null\`; page size = the node's Page Size (≤ the service's cap of ${credits.cap}). Minimum credits = minimum calls × the platform's price. Calls, credits and outcomes are the service's ledger.`,
		columns(cells, credits.cases),
	);
}

const VARIANTS = {
	node: LABELS.node,
	http: LABELS.http,
	floor: '(d) undici, all requests at once, outside n8n',
};

function variantsTable(k) {
	const n = k.keywords.length;
	const rows = Object.entries(VARIANTS).map(([v, label]) => {
		const runs = k.distinct.filter((r) => r.variant === v);
		const distinct = (key) => [...new Set(runs.map((r) => r[key]))].join(', ');
		return { label, ms: summarize(runs.map((r) => r.ms)), items: runs[0]?.items, distinct };
	});
	const cells = {
		Variant: (r) => r.label,
		[`median ms for ${n} keywords`]: (r) => `**${f0(r.ms.median)}**`,
		'min–max': (r) => `${f0(r.ms.min)}–${f0(r.ms.max)}`,
		'ms per keyword': (r) => `**${f2(r.ms.median / n)}**`,
		'sounds out': (r) => String(r.items),
		calls: (r) => r.distinct('calls'),
		credits: (r) => r.distinct('credits'),
	};
	return columns(cells, rows);
}

/** Where the node's time per keyword goes, from the profile (section 5). */
function profileWhy(p, n) {
	const [kn, kh] = [p?.['keywords-node'], p?.['keywords-http']];
	if (!kn || !kh) return '';
	const per = (x, ms) => ms / x.times / n;
	const evaluate = (x) =>
		x.functions.find((f) => f.fn === '@n8n/expression-runtime: evaluate')?.ms ?? 0;
	const sandbox = (x) => x.cats.get('Expression engine (isolated-vm sandbox)') ?? 0;
	const both = (f) => `${f2(per(kn, f(kn)))} ms against ${f2(per(kh, f(kh)))} ms`;
	const own = kn.cats.get('this package (n8n-nodes-sound-search)') ?? 0;
	return ` In the profile (section 5), n8n was busy ${f2(per(kn, kn.busyMs))} ms per keyword for the node against ${f2(per(kh, kh.busyMs))} ms for HTTP Request; the expression sandbox took ${both(sandbox)} (expression evaluation, inclusive: ${both(evaluate)}), and this package's own code ${f3(per(kn, own))} ms. Per input item, n8n's declarative engine resolves the node's request expressions (the Base URL from the credential, the URL with the platform, the query) and, per request, the credential's header expression, each in the sandbox; HTTP Request here has a fixed URL and one expression (the query) besides its credential.`;
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

const REPEATS = {
	Case: (r) => r.case,
	Variant: (r) => (r.variant === 'node' ? 'Sound Search node' : 'HTTP Request'),
	'input items': (r) => r.keywords,
	'distinct keywords': (r) => r.distinctKeywords,
	calls: (r) => r.calls,
	'service outcomes': (r) =>
		Object.entries(r.outcomes)
			.map(([o, c]) => `${o} ${c}`)
			.join(', '),
	credits: (r) => `**${r.credits}**`,
	'minimum credits': (r) => r.minCredits,
	ms: (r) => f0(r.ms),
};

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
		columns(REPEATS, k.repeats),
		'The node makes an identical search once per run and gives its sounds to every item that asked for it (those items carry `creditsCharged: 0`), so repeats in one run cost neither a call nor a credit; a repeat in a later run within the cache window is a call the service answers from its cache at 0 credits. HTTP Request sends every repeat; the reference service answers them from its cache because it handles them one after the other, but a service that receives identical requests at the same moment may read (and charge) each of them.',
	);
}

module.exports = { creditsSection, keywordsSection };
