'use strict';

// Statistics of the benchmark: simple-statistics for the standard figures; written here only
// what it does not offer (see each function).

const ss = require('simple-statistics');

/**
 * Quantile by linear interpolation between order statistics (R's type 7, numpy's default): the
 * report's percentiles have always been this one; simple-statistics' quantile picks an order
 * statistic instead, so the figures would change meaning.
 * @param {number[]} values
 * @param {number} q in [0, 1]
 */
function quantile(values, q) {
	if (values.length === 0) return NaN;
	const s = [...values].sort((a, b) => a - b);
	const pos = (s.length - 1) * q;
	const lo = Math.floor(pos);
	return s[lo] + (s[Math.ceil(pos)] - s[lo]) * (pos - lo);
}

/** @param {number[]} values */
const median = (values) => (values.length === 0 ? NaN : ss.median(values));

/**
 * Approximate 95 % confidence interval of the median from order statistics (binomial, normal
 * approximation): no assumption about the distribution. Not in simple-statistics. Needs n >= 6.
 * @param {number[]} values
 * @returns {[number, number] | null}
 */
function medianCi95(values) {
	const n = values.length;
	if (n < 6) return null;
	const s = [...values].sort((a, b) => a - b);
	const half = 0.98 * Math.sqrt(n);
	const lo = Math.max(0, Math.floor(n / 2 - half) - 1);
	return [s[lo], s[Math.min(n - 1, Math.ceil(n / 2 + half))]];
}

/** @param {number[]} values */
function summarize(values) {
	const [p10, p25, p75, p90] = [0.1, 0.25, 0.75, 0.9].map((q) => quantile(values, q));
	const [min, max] = values.length ? [ss.min(values), ss.max(values)] : [NaN, NaN];
	const ci95 = medianCi95(values);
	return { n: values.length, min, p10, p25, median: median(values), p75, p90, max, ci95 };
	// (no mean or standard deviation: the report shows order statistics only)
}

/**
 * Least-squares line and its R² (simple-statistics).
 * @param {number[]} xs
 * @param {number[]} ys
 */
function linearFit(xs, ys) {
	const points = xs.map((x, i) => [x, ys[i]]);
	const line = ss.linearRegression(points);
	const r2 = ss.rSquared(points, ss.linearRegressionLine(line));
	return { intercept: line.b, slope: line.m, r2: Number.isFinite(r2) ? r2 : 1 };
}

/**
 * Exponent k of y ~ x^k between the smallest and the largest x (1 = linear, 2 = quadratic),
 * after removing a fixed part from y (n8n's per-execution floor). A two-point log slope: no
 * library function for it.
 * @param {number[]} xs
 * @param {number[]} ys
 */
function growthExponent(xs, ys, fixed = 0) {
	const i0 = xs.indexOf(Math.min(...xs));
	const i1 = xs.indexOf(Math.max(...xs));
	const [y0, y1] = [ys[i0] - fixed, ys[i1] - fixed];
	if (y0 <= 0 || y1 <= 0) return NaN;
	return Math.log(y1 / y0) / Math.log(xs[i1] / xs[i0]);
}

module.exports = { quantile, median, medianCi95, summarize, linearFit, growthExponent };
