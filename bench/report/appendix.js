'use strict';

// BENCHMARKS-appendix.md's sections: the targets of earlier issues, the machine, the method, and
// one table (or a few) per phase. A phase that did not run leaves its section out.

const { summarize, median, growthExponent } = require('../stats');
const { f0, f1, f2, f3, mib, int, pct, latency, table, blocks } = require('./format');
const S = require('./summary');
const { movingSection } = require('./moving');

const LABELS = {
	node: '(a) Sound Search node',
	http: '(b) HTTP Request + Split Out',
	noop: '(c) no-op workflow',
	floor: '(d) undici loop, outside n8n',
	'floor-new': '(e) = (d) with a new connection per page',
	'scale-node': 'Sound Search node',
	'scale-http': 'HTTP Request + Split Out',
};
const secs = (ms) => f1(ms / 1000);
const range = (f, a, b) => `${f(a)}–${f(b)}`;
const verdict = (met, missed) => (met ? '**met**' : `**${missed}**`);

/** Paired per-round figures of the time phase: (a)/(b), and per page over the floor. */
function analyseTime(time) {
	const rounds = [...new Set(time.runs.map((r) => r.round))].map((round) =>
		Object.fromEntries(time.runs.filter((r) => r.round === round).map((r) => [r.variant, r])),
	);
	const paired = (f) => summarize(rounds.map(f));
	const net = (v) => (r) => (r[v].ms - r.noop.ms - r.floor.ms) / time.pages;
	const cpu = (v) => (r) => (r[v].n8nCpuMs - r.noop.n8nCpuMs) / time.pages;
	return {
		ratio: paired((r) => r.node.ms / r.http.ms),
		aNet: paired(net('node')),
		bNet: paired(net('http')),
		aCpu: paired(cpu('node')),
		bCpu: paired(cpu('http')),
	};
}

/** The scale series: per variant and size, medians; the time's growth exponent. */
function analyseScale(scale, noopMs = 0) {
	const variants = [...new Set(scale.runs.map((r) => r.variant))];
	return variants.map((v) => {
		const rows = scale.sizes.map((size) => {
			const runs = scale.runs.filter((r) => r.variant === v && r.size === size);
			const m = (key) => median(runs.map((r) => r[key]));
			const items = runs.map((r) => r.items);
			return {
				size,
				pages: runs[0]?.pages,
				items,
				ms: m('ms'),
				cpu: m('n8nCpuMs'),
				peakKb: Math.max(...runs.map((r) => r.peakKb)),
			};
		});
		const ms = rows.map((r) => r.ms);
		return { v, rows, exponent: growthExponent(scale.sizes, ms, v === 'floor' ? 0 : noopMs) };
	});
}

/** The targets of earlier issues (9, 20, 30) that issue 43 does not restate, and the credits. */
function olderTargets(phases, t, scale) {
	const k = phases.keylists;
	const node = scale?.find((s) => s.v === 'scale-node');
	const [first, last] = node ? [node.rows[0], node.rows.at(-1)] : [];
	const checks = S.creditChecks({ credits: phases.credits, keywords: phases.keywords });
	const off = checks.filter((c) => !c.atMinimum);
	const rows = [
		t && [
			'(a)/(b) ≤ 1.0 on time',
			`median per-round ratio **${f3(t.ratio.median)}**`,
			verdict(t.ratio.median <= 1, `missed by ${f3(t.ratio.median - 1)}`),
		],
		t && [
			'node overhead per page within 2 ms of the raw floor',
			`**${f2(t.aNet.median)} ms** per page over (d), after n8n's own floor (c). HTTP Request: ${f2(t.bNet.median)} ms`,
			verdict(t.aNet.median <= 2, `missed by ${f2(t.aNet.median - 2)} ms per page`),
		],
		node && [
			`${int(last.size)} items, linear growth`,
			`${int(last.size)} items out (every run) in ${secs(last.ms)} s; n8n peak RSS ${mib(last.peakKb)} MiB; time ${int(first.size)}→${int(last.size)}: ×${f1(last.ms / first.ms)} (exponent ${f2(node.exponent)} after n8n's fixed floor; 1 = linear, 2 = quadratic)`,
			verdict(last.items.every((n) => n === last.size) && node.exponent <= 1.15, 'missed'),
		],
		k && [
			`credits = ${int(k.big)} (one per keyword, 429s free)`,
			`**${int(k.capped.node.credits)}** credits`,
			verdict(k.capped.node.credits === k.big, 'missed'),
		],
		checks.length && [
			'credits at the minimum: the credit matrix and several keywords (sections 3 to 5)',
			`${checks.length - off.length} of ${checks.length} cases`,
			verdict(off.length === 0, `missed: ${off.reduce((sum, c) => sum + c.over, 0)} credits over`),
		],
	];
	return rows.filter(Boolean);
}

function machineTable(results) {
	const { machine: m, versions: v, quiet } = results;
	const foreign = Object.entries(results.phases).filter(([, p]) => p?.cpu);
	const rows = {
		CPU: `${m.cpuModel}, ${m.cores} cores`,
		Memory: `${f1(m.memoryGiB)} GiB`,
		OS: `${m.kernel}; ${m.virtualization}`,
		'Load average (1, 5, 15 min)': `before: ${quiet.load.join(', ')}; after: ${(results.loadAtEnd ?? []).join(', ')}`,
		'CPU used by other processes': foreign
			.map(([name, p]) => `${name}: ${f2(p.cpu.foreignCores)} cores (ours ${f2(p.cpu.oursCores)})`)
			.join('; '),
		'Node.js': `${v.benchNode} (benchmark), ${v.n8nNode} (n8n)`,
		n8n: `${v.n8n} (n8n-core ${v.n8nCore}, n8n-nodes-base ${v.n8nNodesBase}); started in ${f1(results.startSeconds)} s; RSS ${mib(results.n8nMemoryAfterStart?.rssKb)} MiB after start`,
		Package: results.tarball
			? `the tarball ${results.tarball} (--tarball)`
			: `n8n-nodes-sound-search ${v.package}, packed from the working tree at commit ${v.commit}`,
		Nodes: `Sound Search 1, HTTP Request ${v.httpRequestVersion}, Webhook ${v.webhookVersion}, Split Out 1, Summarize 1.1, No Operation 1`,
		Client: `undici ${v.undici}`,
		'Wall time of this run': `${f0(results.wallSeconds)} s from packing to the report`,
	};
	return table(['', ''], Object.entries(rows));
}

const METHOD = [
	'- **One n8n, real webhooks.** `bench/run.js` packs the package (`n8n-node build`, `npm pack`), installs the tarball into a fresh n8n user folder the way n8n installs a community package, imports the credentials and the workflows ([bench/workflows.js](bench/workflows.js)) with the n8n CLI, starts `n8n start` on 127.0.0.1, activates every workflow, and calls the production webhooks with undici (keep-alive). Every workflow answers with one Summarize item (count and distinct count of `soundId`), checked after every run.',
	'- **Same work for every variant.** (a) Sound Search with default options; (b) HTTP Request (for Return All its pagination on `nextCursor`), then Split Out on `data.items` so that it too outputs one item per sound; (c) Webhook → No Operation; (d) a plain undici loop in the benchmark process. HTTP Request authenticates with a Header Auth credential, the node with its own.',
	'- **Fair timing.** Warm-up rounds first; then rounds in which the variants run back to back in an order rotated each round; medians, and ratios and overheads computed per round (paired) before taking medians.',
	'- **Reference services.** Timing with its cache off (every page a fresh reading), credits and keywords with its 60 s cache window, keyword lists on a third one, cache off, reset before every run: calls, refusals and credits are its ledger. Production executions are not stored.',
	"- **First contact.** The node remembers what it learnt of a service per credential, so each keyword-list case runs on its own API key: its first run there is the node's first contact, the next a later run.",
	"- **CPU.** n8n's CPU is that of its process and task runner from /proc; other processes' CPU is the machine's total less this benchmark's process tree.",
	'- **In CI only as a smoke.** The nightly tier runs `npm run bench -- --smoke` (every phase at a tiny size); a full run fails only when a variant gives a wrong answer (items, distinct ids, calls).',
].join('\n');

function timeSection(time, t) {
	const stats = (v, key) => summarize(time.runs.filter((r) => r.variant === v).map((r) => r[key]));
	const rows = time.variants.map((v) => {
		const ms = stats(v, 'ms');
		const cpu = v.startsWith('floor')
			? `– (client: ${f0(stats(v, 'clientCpuMs').median)})`
			: f0(stats(v, 'n8nCpuMs').median);
		const ci = ms.ci95 ? range(f1, ...ms.ci95) : 'n/a';
		return `${LABELS[v] ?? v} | **${f1(ms.median)}** | ${ci} | ${range(f1, ms.p25, ms.p75)} | ${range(f1, ms.min, ms.max)} | ${cpu}`;
	});
	const derived = [
		['(a)/(b) time ratio', t.ratio, ''],
		['(a) per page over (d): ((a) − (c) − (d)) / pages', t.aNet, ' ms'],
		['(b) per page over (d): ((b) − (c) − (d)) / pages', t.bNet, ' ms'],
		['(a) n8n CPU per page (above the no-op)', t.aCpu, ' ms'],
		['(b) n8n CPU per page (above the no-op)', t.bCpu, ' ms'],
	].map(([label, s, unit]) => `${label} | **${f2(s.median)}**${unit} | ${range(f2, s.p25, s.p75)}`);
	return [
		`## 1. Time: Return All over ${time.pages} pages of ${time.pageSize} sounds`,
		`${time.rounds} rounds after ${time.warmup} warm-up rounds, the variants back to back in an order rotated each round. Every run was checked: ${int(time.pages * time.pageSize)} sounds out, all distinct, ${time.pages} calls recorded by the service (0 for the no-op). Wall times seen by the caller, in ms.`,
		table(
			'Variant | median ms | 95 % CI of median | p25–p75 | min–max | n8n CPU ms (median)',
			rows,
		),
		table('Per round (paired), then the median | median | p25–p75', derived),
	];
}

function scaleSection(scale, series) {
	const label = (v) => LABELS[v] ?? v;
	const n8n = (v, text) => (v === 'floor' ? '–' : text);
	const rows = series.flatMap(({ v, rows: r }) =>
		r.map(
			(x) =>
				`${label(v)} | ${int(x.size)} | ${x.pages} | ${x.items.join(', ')} | **${f0(x.ms)}** | ${f3(x.ms / x.size)} | ${n8n(v, f0(x.cpu))} | ${n8n(v, mib(x.peakKb))}`,
		),
	);
	const growth = series.map(
		({ v, rows: r, exponent }) => `${label(v)} | ×${f1(r.at(-1).ms / r[0].ms)} | ${f2(exponent)}`,
	);
	const [first, last] = [scale.sizes[0], scale.sizes.at(-1)];
	return [
		`## 2. Scale: Return All of ${scale.sizes.map(int).join(', ')} sounds`,
		`Pages of ${scale.pageSize} (the service's cap), ${scale.reps} repetition(s) of the sizes in ascending order, the variants rotated. Peak memory: VmHWM of the n8n process, reset before each run (5 to /proc/<pid>/clear_refs). Medians.`,
		table(
			'Variant | sounds | pages | items out | wall ms | ms per sound | n8n CPU ms | n8n peak RSS MiB',
			rows,
		),
		table(
			`Variant | time ${int(first)}→${int(last)} | time exponent (1 = linear, after n8n's no-op floor)`,
			growth,
		),
	];
}

function creditsSection(credits) {
	const limit = (c) => (c.limit === 'Return All' ? c.limit : `${c.label}: ${c.limit}`);
	const rows = credits.cases.map(
		(c) =>
			`${c.platform} (${c.price}) | ${c.pageSize} | ${limit(c)} | ${c.itemsOut} | ${c.calls} | ${c.minCalls} | **${c.credits}** | ${c.minCredits}`,
	);
	return [
		'## 3. Credits: Limit matrix and Return All',
		`A query with ${credits.cases[0]?.total} matching sounds, the service's cache emptied before each case. Minimum calls: max(1, ⌈min(Limit, results) ÷ page size⌉), the fewest that return the sounds asked for and see the search end; minimum credits: that × the platform's price.`,
		table(
			'Platform (price) | Page Size | Limit | sounds out | calls | minimum calls | credits | minimum credits',
			rows,
		),
	];
}

function keywordsSections(k) {
	const names = {
		node: 'Sound Search node',
		http: 'HTTP Request',
		floor: '(d) undici, outside n8n',
	};
	const n = k.keywords.length;
	const distinct = k.distinct.map(
		(r) =>
			`${names[r.variant]} | ${r.round} | ${f0(r.ms)} | ${f2(r.ms / n)} | ${r.items} | ${r.calls} | **${r.credits}**`,
	);
	const outcomes = (o) =>
		Object.entries(o)
			.map((e) => e.join(' '))
			.join(', ');
	const repeats = k.repeats.map(
		(r) =>
			`${r.case} | ${names[r.variant]} | ${r.keywords} | ${r.distinctKeywords} | ${r.calls} | ${outcomes(r.outcomes)} | **${r.credits}** | ${r.minCredits}`,
	);
	return [
		`## 4. Several input items: ${n} keywords`,
		`A webhook receives \`{"keywords": [...]}\`, Split Out makes one item per keyword, one search per item (Limit ${k.limit}, one page), the service's cache emptied first: every keyword a fresh, charged reading (${k.minCreditsDistinct} credits at the least).`,
		table('Variant | round | ms | ms per keyword | sounds out | calls | credits', distinct),
		'## 5. Repeated keywords',
		'The node makes an identical search once per run and gives its sounds to every item that asked for it; a repeat in a later run within the cache window is answered from the cache at 0 credits. HTTP Request sends every repeat.',
		table(
			'Case | Variant | input items | distinct keywords | calls | service outcomes | credits | minimum credits',
			repeats,
		),
	];
}

function keylistsSection(k) {
	const label = { node: '(a) Sound Search, default options', http: '(b) HTTP Request, untuned' };
	const compare = k.latencies.flatMap((ms) => {
		const runs = S.runsAt(k, ms);
		return S.sizesOf(runs).flatMap((size) =>
			['node', 'http'].map((v) => {
				const [rounds, first] = [S.timed(runs, size, v), S.firstRun(runs, size, v)];
				const firstCell = first
					? `${secs(first.ms)}${v === 'node' ? ' (first contact)' : ''}`
					: '–';
				const ratio = v === 'node' ? `**${f2(S.ratioFor(runs, size))}**` : '';
				const each = rounds.map((r) => secs(r.ms)).join(', ');
				const mid = secs(median(rounds.map((r) => r.ms)));
				return `${latency(ms)} | ${int(size)} | ${label[v]} | ${firstCell} | ${each} | **${mid}** | ${int(rounds[0].calls)} | ${int(rounds[0].credits)} | ${ratio}`;
			}),
		);
	});
	const { node, http, batched } = k.capped;
	const capped = [
		['Sound Search, default options', node],
		['HTTP Request, untuned', http],
		...batched.map((b) => [`HTTP Request, Batching ${b.batchSize} per ${b.batchInterval} ms`, b]),
	].map(
		([name, r]) =>
			`${name} | ${r.status} | ${secs(r.ms)} | ${int(r.items)} of ${int(r.expected)} | ${int(r.calls)} | ${int(S.refusedOf(r))} | ${int(r.credits)} | ${pct(S.ofCapacity(k, r))}`,
	);
	const s = k.slowCapped;
	const slow = s.runs.map(
		(r, i) =>
			`${i ? 'later run' : 'first contact'} | ${secs(r.ms)} | ${secs(s.idealMs)} | **${pct(S.ofCapacity(s, r))}** | ${int(r.calls)} | ${int(S.refusedOf(r))} | ${int(r.mostInFlight)} | ${int(r.credits)}`,
	);
	return [
		'## 6. Keyword lists at service scale',
		`One search per keyword (Limit ${k.limit}, one page) against a reference service with its cache off, reset before every run; calls, refusals (free 429s) and credits are its ledger.`,
		`**No limit**, at ${k.latencies.map(latency).join(' and ')} an answer: one first run of each ((b) first; the node's is its first contact), then ${k.rounds} interleaved round(s). (a)/(b): the median per round.`,
		table(
			'latency | keywords | variant | first run s | s per round | median s | calls | credits | (a)/(b)',
			compare,
		),
		`**Capped at ${k.capacity} calls in flight, ${latency(k.latencyMs)} an answer, ${int(k.big)} keywords** (429 with \`Retry-After: 1\` beyond). Ideal: ${int(k.big)} × ${k.latencyMs} ms ÷ ${k.capacity} = ${secs(k.idealMs)} s. HTTP Request untuned fails at its first 429; its Batching was tuned by hand (intervals tried in order until one completed).`,
		table(
			'Variant | webhook status | s | sounds out | calls | refused | credits | share of capacity',
			capped,
		),
		`**Capped at ${s.capacity} calls in flight, ${latency(s.latencyMs)} an answer, ${int(s.keywords)} keywords**: the node's first contact, then a later run. Ideal: ⌈${int(s.keywords)} ÷ ${s.capacity}⌉ waves × ${latency(s.latencyMs)} = ${secs(s.idealMs)} s.`,
		table(
			'Sound Search, default options | s | ideal s | share of capacity | calls | refused | most in flight (service) | credits',
			slow,
		),
	];
}

const CASES = {
	first: 'first contact',
	later: 'later run',
	headers: 'first contact, quota in headers',
	headersLater: 'later run, quota in headers',
};

function quotasSection(q) {
	const http = (r) =>
		r.batchInterval ? `Batching ${r.batchSize} per ${secs(r.batchInterval)} s` : 'untuned';
	const label = (r) => (r.role ? 'Sound Search, default options' : `HTTP Request, ${http(r)}`);
	const outcome = (r) => (S.ok(r) ? 'complete' : `failed (${r.status})`);
	const share = (r) => (S.ok(r) ? `**${pct(S.throughput(r))}**` : '–');
	const refused = (r) => `${int(r.refused)} of ${int(r.calls)} (${pct(S.share(r))})`;
	const cells = (r) =>
		`${outcome(r)} | ${secs(r.ms)} | ${secs(r.idealMs)} | ${share(r)} | ${refused(r)} | ${int(r.credits)}`;
	const rows = [q.perSecond, q.perWindow].flatMap((g) =>
		[...g.node, g.http, ...g.batched].map(
			(r) =>
				`${g.quota} | ${latency(r.latencyMs)} | ${label(r)} | ${CASES[r.role] ?? '–'} | ${int(r.keywords)} | ${cells(r)}`,
		),
	);
	const f = q.flood;
	const flood = f.runs.map(
		(r) =>
			`${latency(r.latencyMs)} | ${r.run} | ${CASES[r.contact]} | ${cells(r)} | ${int(r.flood.refused)} of ${int(r.flood.calls)}`,
	);
	return [
		'## 7. Keyword lists against request quotas',
		`One search per keyword against the service in quota mode: N calls per rolling window per API key, beyond that a free 429 whose Retry-After counts to the next free slot, at ${q.latencies.map(latency).join(' and ')} an answer. The node is not told the quota; with headers, the service announces it on every answer (\`RateLimit-*\`). A later run follows the first after a window, on the same key. Ideal: (⌈keywords ÷ quota⌉ − 1) windows plus one latency. HTTP Request ran at ${latency(q.latencies[0])}.`,
		table(
			'quota | latency | variant | run | keywords | outcome | s | ideal s | share of quota | refused calls | credits',
			rows,
		),
		`**Flooded quota.** Before each run another client (HTTP Request on the same key) sent ${f.burst} requests at once against the ${f.quota} quota; the node's list started as soon as the whole burst had reached the service. Refused calls and credits are the node's own.`,
		table(
			'latency | run | node | outcome | s | ideal s | share of quota | refused calls | credits | burst: refused calls',
			flood,
		),
	];
}

function sharedSection(rounds) {
	const outcome = (r) => (S.sharedOk(r) ? 'complete' : `failed (${r.statuses.join(', ')})`);
	const share = (r) => (S.sharedOk(r) ? `**${pct(S.sharedShare(r))}**` : '–');
	const rows = rounds.map(
		(r) =>
			`${latency(r.latencyMs)} | ${r.round} | ${outcome(r)} | ${int(r.keywords)} | ${secs(r.ms)} | ${secs(r.idealMs)} | ${share(r)} | ${int(r.refused)} of ${int(r.calls)} (${pct(S.share(r))}) | ${int(r.credits)}`,
	);
	return [
		'## 8. Two executions at once on one key',
		`Two executions of one Sound Search workflow started together on one API key against a ${rounds[0].quota} quota, in rounds. Share of the quota: the ideal time of both lists at the quota ÷ the time from the first start to the last answer.`,
		table(
			'latency | round | outcome | keywords (both) | s | ideal s | share of quota | refused calls | credits',
			rows,
		),
	];
}

function doomedSection(runs) {
	const cores = (r) => (Number.isFinite(r.foreignCores) ? f2(r.foreignCores) : '–');
	const rows = runs.map(
		(r) =>
			`${latency(r.latencyMs)} | **${int(r.paidAfter)}** | ${int(r.doomedAt)} of ${int(r.calls)} | ${cores(r)}`,
	);
	return [
		'## 9. A run that a 402 dooms',
		'5 keywords, one the service answers 402 (no credits left) at its latency, 40 more, against a service capped at 8 calls in flight: the paid calls that reached the service after it had answered the 402 (sent once the run was doomed).',
		table('run | paid calls after the 402 | the 402 at call | other processes (cores)', rows),
	];
}

/** Every section of the appendix after its title, from the results. */
function appendixSections(results) {
	const { phases } = results;
	const t = phases.time && analyseTime(phases.time);
	const noop =
		phases.time && median(phases.time.runs.filter((r) => r.variant === 'noop').map((r) => r.ms));
	const scale = phases.scale && analyseScale(phases.scale, noop);
	const q = phases.quotas;
	const doomed = S.doomedRuns(q);
	return blocks(
		'## All targets',
		"The targets of earlier issues (9, 20, 30) that issue 43 does not restate, and the credits behind the summary's row. The summary's verdicts are those that count; the node beside HTTP Request batched by hand against a service capped at 4 is in section 6.",
		table(['Target', 'Result', 'Verdict'], olderTargets(phases, t, scale)),
		'## Machine, versions, commands',
		machineTable(results),
		'```sh\nnpm run bench               # = bash bench/run.sh: set-up, Node 24, the pinned n8n, then node bench/run.js\nnpm run bench -- --smoke    # every phase at a tiny size, report in .cache/bench/smoke.md\nnode bench/report.js        # both files again from the kept results, without measuring\n```',
		`This run: \`node bench/run.js${results.options.argv.length ? ` ${results.options.argv.join(' ')}` : ''}\`.`,
		'## Method',
		METHOD,
		t ? timeSection(phases.time, t) : '',
		scale ? scaleSection(phases.scale, scale) : '',
		phases.credits ? creditsSection(phases.credits) : '',
		phases.keywords ? keywordsSections(phases.keywords) : '',
		phases.keylists ? keylistsSection(phases.keylists) : '',
		q ? quotasSection(q) : '',
		q?.shared?.length ? sharedSection(q.shared) : '',
		doomed.length ? doomedSection(doomed) : '',
		phases.moving ? movingSection(phases.moving) : '',
	);
}

module.exports = { appendixSections };
