'use strict';

// A gateway serving the reference service under a path prefix (<prefix>/v1/... passed on as
// /v1/..., 404 outside it), for a Base URL with a path; it records each request's path and whether
// it carried an Authorization header.

const http = require('node:http');

/**
 * @param {string} target the service's URL, e.g. http://127.0.0.1:4010
 * @param {string} prefix e.g. /sound-search
 */
async function startPathPrefixProxy(target, prefix) {
	/** @type {Array<{ path: string, authorized: boolean, status: number }>} */
	const seen = [];
	const server = http.createServer((req, res) => {
		const path = req.url ?? '/';
		const record = (/** @type {number} */ status) =>
			seen.push({ path, authorized: Boolean(req.headers.authorization), status });
		if (!path.startsWith(`${prefix}/`)) {
			record(404);
			res.writeHead(404, { 'content-type': 'application/json' });
			return void res.end(JSON.stringify({ success: false, error: { code: 'not_found' } }));
		}
		const upstream = http.request(
			new URL(path.slice(prefix.length), target),
			{ method: req.method, headers: req.headers },
			(answer) => {
				record(answer.statusCode ?? 0);
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
			},
		);
		upstream.on('error', () => res.destroy());
		req.pipe(upstream);
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
	const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
	return {
		url: `http://127.0.0.1:${port}${prefix}`,
		seen,
		close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
	};
}

module.exports = { startPathPrefixProxy };
