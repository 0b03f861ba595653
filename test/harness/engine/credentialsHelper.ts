import {
	type ICredentialsHelper,
	type ICredentialDataDecryptedObject,
	type ICredentials,
	type ICredentialType,
	type IHttpRequestOptions,
	type INode,
	type INodeProperties,
	type Workflow,
} from 'n8n-workflow';

/**
 * The slice of n8n's CredentialsHelper that a routing node uses, for tests: it hands out the
 * test's decrypted credential data and applies a credential type's generic `authenticate` the way
 * n8n's own helper does (each header/qs/body entry resolved as an expression over $credentials).
 */
export class TestCredentialsHelper implements ICredentialsHelper {
	constructor(
		private readonly types: Record<string, ICredentialType>,
		private readonly data: Record<string, ICredentialDataDecryptedObject>,
	) {}

	async getDecrypted(_additionalData: unknown, _nodeCredentials: unknown, type: string) {
		return { ...(this.data[type] ?? {}) };
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = this.types[typeName];
		if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);
		if (authenticate?.type !== 'generic' || !workflow || !node) return requestOptions;
		const resolve = (value: unknown) =>
			String(
				workflow.expression.getSimpleParameterValue(
					node,
					value as string,
					'internal',
					{ $credentials: credentials },
					undefined,
					'',
				),
			);
		for (const [target, entries] of Object.entries(authenticate.properties)) {
			const bag = ((requestOptions as unknown as Record<string, Record<string, unknown>>)[
				target
			] ??= {});
			for (const [key, value] of Object.entries(entries as Record<string, unknown>))
				bag[resolve(key)] = resolve(value);
		}
		return requestOptions;
	}

	// n8n's helper answers undefined for credentials without an expirable property, like ours.
	preAuthentication = async () => undefined;
	runPreAuthentication = async () => undefined;
	getParentTypes = (): string[] => [];
	isCredentialUsableByNode = () => true;
	getCredentials = async (): Promise<ICredentials> => {
		throw new Error('not used by these tests');
	};
	updateCredentials = async () => {};
	updateCredentialsOauthTokenData = async () => {};

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.types[type].properties;
	}
}
