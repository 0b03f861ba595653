'use strict';

// Statistics of the benchmark: simple-statistics, except where the report's figures need what it
// does not offer (said at each).

const ss = require('simple-statistics');

const sorted = (/** @type {number[]} */ values) => [...values].sort((a, b) => a - b);
const median = (/** @type {number[]} */ values) => (values.length ? ss.median(values) : NaN);

/**
 * Quantile interpolated between order statistics (R's type 7): ss.quantile picks an order
 * statistic, which would change what the report's percentiles mean.
 */
function quantile(/** @type {number[]} */ values, /** @type {number} */ q) {
	const s = sorted(values);
	const pos = (s.length - 1) * q;
	const lo = Math.floor(pos);
	return values.length ? s[lo] + (s[Math.ceil(pos)] - s[lo]) * (pos - lo) : NaN;
}

/**
 * Distribution-free 95 % confidence interval of the median from order statistics (binomial,
 * normal approximation; n >= 6): not in simple-statistics.
 * @returns {[number, number] | null}
 */
function medianCi95(/** @type {number[]} */ values) {
	const n = values.length;
	const s = sorted(values);
	const half = 0.98 * Math.sqrt(n);
	const lo = Math.max(0, Math.floor(n / 2 - half) - 1);
	return n < 6 ? null : [s[lo], s[Math.min(n - 1, Math.ceil(n / 2 + half))]];
}

/** Order statistics only: the report shows no mean or standard deviation. */
function summarize(/** @type {number[]} */ values) {
	const [p10, p25, p75, p90] = [0.1, 0.25, 0.75, 0.9].map((q) => quantile(values, q));
	const [min, max] = values.length ? [ss.min(values), ss.max(values)] : [NaN, NaN];
	return {
		n: values.length,
		min,
		p10,
		p25,
		median: median(values),
		p75,
		p90,
		max,
		ci95: medianCi95(values),
	};
}

/** Least-squares line and its R². @param {number[]} xs @param {number[]} ys */
function linearFit(xs, ys) {
	const points = xs.map((x, i) => [x, ys[i]]);
	const line = ss.linearRegression(points);
	const r2 = ss.rSquared(points, ss.linearRegressionLine(line));
	return { intercept: line.b, slope: line.m, r2: Number.isFinite(r2) ? r2 : 1 };
}

/**
 * Exponent k of y ~ x^k between the smallest and the largest x (1 = linear, 2 = quadratic), after
 * removing a fixed part from y: a two-point log slope, which no library offers.
 * @param {number[]} xs @param {number[]} ys
 */
function growthExponent(xs, ys, fixed = 0) {
	const [i0, i1] = [Math.min(...xs), Math.max(...xs)].map((x) => xs.indexOf(x));
	const [y0, y1] = [ys[i0] - fixed, ys[i1] - fixed];
	return y0 <= 0 || y1 <= 0 ? NaN : Math.log(y1 / y0) / Math.log(xs[i1] / xs[i0]);
}

module.exports = { median, summarize, linearFit, growthExponent };
