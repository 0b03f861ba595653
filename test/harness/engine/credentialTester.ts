import { CredentialTestContext } from 'n8n-core';
import type {
	ICredentialTestFunction,
	ICredentialType,
	INodeCredentialTestResult,
	INodeType,
} from 'n8n-workflow';
import { SoundSearchApi } from '../../../credentials/SoundSearchApi.credentials';
import { SoundSearch } from '../../../nodes/SoundSearch/SoundSearch.node';
import { SoundSearchTrigger } from '../../../nodes/SoundSearchTrigger/SoundSearchTrigger.node';
import type { Credentials } from './engine';

// What n8n's credential tester does when a credential is saved or opened (packages/cli,
// credentials-tester.service.ts, 2.41): a credential type's own `test` wins; else the node that
// lists the credential with `testedBy: '<name>'` supplies `methods.credentialTest.<name>`, which
// n8n calls with n8n-core's CredentialTestContext and the credential's decrypted data.

const CREDENTIAL = 'soundSearchApi';

/** The test function a node names for the credential, as n8n looks it up; undefined if none. */
export function credentialTestOf(node: INodeType): ICredentialTestFunction | undefined {
	const entry = node.description.credentials?.find(({ name }) => name === CREDENTIAL);
	const testedBy = entry?.testedBy;
	return typeof testedBy === 'string' ? node.methods?.credentialTest?.[testedBy] : undefined;
}

/** Whether n8n would run the credential's own declarative `test` instead of any node's function. */
export const credentialHasOwnTest = () => Boolean((new SoundSearchApi() as ICredentialType).test);

export const NODES_WITH_THE_CREDENTIAL = { SoundSearch, SoundSearchTrigger };

/** Tests a Sound Search API credential holding `data`, as n8n does on save and open. */
export async function runCredentialTest(data: Credentials): Promise<INodeCredentialTestResult> {
	const test = credentialTestOf(new SoundSearch());
	if (!test || credentialHasOwnTest()) throw new Error("n8n would not run the nodes' test");
	const credential = { id: 'c1', name: 'Sound Search account', type: CREDENTIAL, data };
	return await test.call(new CredentialTestContext(), credential);
}
