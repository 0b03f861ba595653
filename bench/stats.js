'use strict';

// Small, dependency-free statistics for the benchmark: order statistics, a distribution-free
// confidence interval of the median, and a least-squares line (for the growth checks).

function sorted(values) {
	return [...values].sort((a, b) => a - b);
}

/** Quantile with linear interpolation between order statistics (q in [0, 1]). */
function quantile(values, q) {
	if (values.length === 0) return NaN;
	const s = sorted(values);
	const pos = (s.length - 1) * q;
	const lo = Math.floor(pos);
	const hi = Math.ceil(pos);
	return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}

const median = (values) => quantile(values, 0.5);

function mean(values) {
	return values.reduce((a, b) => a + b, 0) / values.length;
}

function stdev(values) {
	if (values.length < 2) return 0;
	const m = mean(values);
	return Math.sqrt(values.reduce((a, b) => a + (b - m) ** 2, 0) / (values.length - 1));
}

/**
 * Approximate 95 % confidence interval of the median from order statistics (binomial, normal
 * approximation): no assumption about the shape of the distribution. Needs n >= 6.
 * @returns {[number, number] | null}
 */
function medianCi95(values) {
	const n = values.length;
	if (n < 6) return null;
	const s = sorted(values);
	const half = 0.98 * Math.sqrt(n);
	const lo = Math.max(0, Math.floor(n / 2 - half) - 1);
	const hi = Math.min(n - 1, Math.ceil(n / 2 + half));
	return [s[lo], s[hi]];
}

/** Summary of a sample: n, min, p10, p25, median, p75, p90, max, mean, stdev, ci95 of median. */
function summarize(values) {
	return {
		n: values.length,
		min: Math.min(...values),
		p10: quantile(values, 0.1),
		p25: quantile(values, 0.25),
		median: median(values),
		p75: quantile(values, 0.75),
		p90: quantile(values, 0.9),
		max: Math.max(...values),
		mean: mean(values),
		stdev: stdev(values),
		ci95: medianCi95(values),
	};
}

/**
 * Least-squares line y = a + b x and its R^2.
 * @param {number[]} xs
 * @param {number[]} ys
 */
function linearFit(xs, ys) {
	const mx = mean(xs);
	const my = mean(ys);
	let sxy = 0;
	let sxx = 0;
	let syy = 0;
	for (let i = 0; i < xs.length; i++) {
		sxy += (xs[i] - mx) * (ys[i] - my);
		sxx += (xs[i] - mx) ** 2;
		syy += (ys[i] - my) ** 2;
	}
	const slope = sxx === 0 ? 0 : sxy / sxx;
	const intercept = my - slope * mx;
	const r2 = syy === 0 ? 1 : (sxy * sxy) / (sxx * syy);
	return { intercept, slope, r2 };
}

/**
 * Exponent k of y ~ x^k between the smallest and the largest x (1 = linear, 2 = quadratic),
 * after removing a fixed part `fixed` from y (e.g. n8n's per-execution floor).
 */
function growthExponent(xs, ys, fixed = 0) {
	const i0 = xs.indexOf(Math.min(...xs));
	const i1 = xs.indexOf(Math.max(...xs));
	const y0 = ys[i0] - fixed;
	const y1 = ys[i1] - fixed;
	if (y0 <= 0 || y1 <= 0) return NaN;
	return Math.log(y1 / y0) / Math.log(xs[i1] / xs[i0]);
}

module.exports = {
	quantile,
	median,
	mean,
	stdev,
	medianCi95,
	summarize,
	linearFit,
	growthExponent,
};
