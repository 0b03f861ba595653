import {
	NodeOperationError,
	type IDataObject,
	type IHttpRequestOptions,
	type INode,
} from 'n8n-workflow';

/**
 * n8n adds a "Request Options" setting to every declarative node; its routing node applies the
 * proxy and "Ignore SSL Issues" to each request, and spaces out the items of later batches
 * (Batching). The Search operation, run as a custom operation, applies them the same way. Its
 * Timeout is not used: the node's own Timeout option rules (the paginator sets it on each call).
 */
export interface RequestSettings {
	http: Partial<IHttpRequestOptions>;
	batch?: { size: number; intervalMs: number };
}

export function readRequestOptions(node: INode, options: IDataObject): RequestSettings {
	const { proxy, allowUnauthorizedCerts, batching } = options;
	const http: Partial<IHttpRequestOptions> = {};
	if (typeof proxy === 'string' && proxy !== '') http.proxy = proxyOf(node, proxy);
	if (allowUnauthorizedCerts === true) http.skipSslCertificateValidation = true;
	const batch = (batching as { batch?: { batchSize?: number; batchInterval?: number } })?.batch;
	const size = typeof batch?.batchSize === 'number' && batch.batchSize > 0 ? batch.batchSize : 1;
	const intervalMs = typeof batch?.batchInterval === 'number' ? batch.batchInterval : 0;
	return { http, ...(intervalMs > 0 && { batch: { size, intervalMs } }) };
}

function proxyOf(node: INode, value: string): IHttpRequestOptions['proxy'] {
	let url: URL;
	try {
		url = new URL(value);
	} catch {
		throw new NodeOperationError(node, 'The proxy is not valid', {
			description: `Set Request Options → Proxy to an address like http://127.0.0.1:3128, not ${JSON.stringify(value.slice(0, 80))}. No request was sent.`,
		});
	}
	const auth = url.username
		? { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) }
		: undefined;
	return {
		host: url.hostname,
		port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
		protocol: url.protocol.replace(/:$/, ''),
		...(auth && { auth }),
	};
}
