'use strict';

// Order statistics of the benchmark (the report shows no mean or standard deviation), and growth.

/** Quantile interpolated between order statistics (R's type 7). @param {number[]} values */
function quantile(values, /** @type {number} */ q) {
	const s = [...values].sort((a, b) => a - b);
	const pos = (s.length - 1) * q;
	const lo = Math.floor(pos);
	return values.length ? s[lo] + (s[Math.ceil(pos)] - s[lo]) * (pos - lo) : NaN;
}
const median = (/** @type {number[]} */ values) => quantile(values, 0.5);

/**
 * Distribution-free 95 % confidence interval of the median from order statistics (binomial,
 * normal approximation; n >= 6). @returns {[number, number] | null}
 */
function medianCi95(/** @type {number[]} */ values) {
	const n = values.length;
	const s = [...values].sort((a, b) => a - b);
	const half = 0.98 * Math.sqrt(n);
	const lo = Math.max(0, Math.floor(n / 2 - half) - 1);
	return n < 6 ? null : [s[lo], s[Math.min(n - 1, Math.ceil(n / 2 + half))]];
}

function summarize(/** @type {number[]} */ values) {
	const [min, p25, p75, max] = [0, 0.25, 0.75, 1].map((q) => quantile(values, q));
	return { n: values.length, min, p25, median: median(values), p75, max, ci95: medianCi95(values) };
}

/**
 * Exponent k of y ~ x^k between the smallest and the largest x (1 = linear, 2 = quadratic), after
 * removing a fixed part from y: a two-point log slope.
 * @param {number[]} xs @param {number[]} ys
 */
function growthExponent(xs, ys, fixed = 0) {
	const [i0, i1] = [Math.min(...xs), Math.max(...xs)].map((x) => xs.indexOf(x));
	const [y0, y1] = [ys[i0] - fixed, ys[i1] - fixed];
	return y0 <= 0 || y1 <= 0 ? NaN : Math.log(y1 / y0) / Math.log(xs[i1] / xs[i0]);
}

module.exports = { median, summarize, growthExponent };
