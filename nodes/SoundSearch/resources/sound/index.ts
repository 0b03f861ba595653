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
					// Base URL and path are set by the paginator from checked values, not by
					// expressions n8n would resolve once per input item.
					request: { method: 'GET' },
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
