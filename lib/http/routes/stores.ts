import { listVisibleStoresResponse } from '../../contract/stores';
import { listVisibleStores } from '../../stores/access';
import { defineOperation } from '../operation';
import type { Api } from '../openapi';

export function storeRoutes(api: Api): void {
  defineOperation(api, {
    auth: 'developer',
    method: 'get',
    path: '/stores',
    operationId: 'listStores',
    summary: 'List the stores open to your key (extension)',
    description:
      'Every store whose access policy admits the caller, by name: id, name, domain, product count and whether it takes orders. ' +
      'These are the stores POST /search/products searches when no store is named.',
    tags: ['Stores'],
    invalidCode: 'INVALID_REQUEST',
    success: { status: 200, schema: listVisibleStoresResponse, description: 'STORES_LISTED' },
    failures: [],
  }).handle(async ({ db, caller }) => ({
    code: 'STORES_LISTED',
    stores: await listVisibleStores(db, caller.developerId),
  }));
}
