import type { IAuthenticate, Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

export class SoundSearchApi implements ICredentialType {
	name = 'soundSearchApi';

	displayName = 'Sound Search API';

	icon: Icon = {
		light: 'file:../icons/soundSearch.svg',
		dark: 'file:../icons/soundSearch.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-sound-search/n8n-nodes-sound-search?tab=readme-ov-file#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description: 'Your service API key. It is sent as a Bearer token and never shown in output.',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. https://sound-search.example.com',
			description:
				'Address of the Sound Search service, with its path if your provider gives one (e.g. https://api.vendor.example/sound-search); the node adds /v1/... to it. Every request, including the API key, goes to this host only.',
		},
	];

	// A function, not a generic header expression: n8n 2.x resolves an expression in its sandbox on
	// every request, about 1 ms a page (BENCHMARKS.md, "Where the time goes").
	authenticate: IAuthenticate = async (credentials, requestOptions) => ({
		...requestOptions,
		headers: { ...requestOptions.headers, Authorization: `Bearer ${String(credentials.apiKey)}` },
	});

	// No `test` here: n8n would run it instead of the nodes' credentialTest (`testedBy`), which
	// speaks as a node run does (nodes/shared/credentialTest.ts).
}
