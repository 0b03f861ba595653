import type { INodeProperties } from 'n8n-workflow';
import { paginateSearch } from '../../shared/paginateSearch';
import { readSearchPage } from '../../shared/searchPage';
import { soundSearchFields } from './search';

const showForSound = { resource: ['sound'] };

export const soundOperations: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: showForSound },
		options: [
			{
				name: 'Search',
				value: 'search',
				action: 'Search sounds by keyword',
				description: 'Search public sounds (audio tracks) by keyword on one platform',
				routing: {
					request: {
						method: 'GET',
						url: '=/v1/{{$parameter.platform}}/sound/search',
					},
					// Every search goes through the cursor paginator, Limit included: it alone knows
					// when enough sounds are in hand, so no page is fetched (and paid) needlessly.
					send: { paginate: true },
					operations: { pagination: paginateSearch },
					output: { postReceive: [readSearchPage] },
				},
			},
		],
		default: 'search',
	},
	...soundSearchFields,
];
