import {
  addStoreRequest,
  storeListResponse,
  storePolicyRequest,
  storeResponse,
  syncErrorsResponse,
  syncStoreRequest,
} from '../../contract/admin-stores';
import { idParams } from '../../contract/common';
import { listSyncErrors } from '../../catalog/store-job';
import { startSync } from '../../catalog/sync';
import { onStop } from '../../server/lifecycle';
import {
  addStore,
  getStoreSummary,
  listStores,
  requireStore,
  setAccessPolicy,
} from '../../stores/registry';
import type { Api } from '../openapi';
import { defineOperation } from '../operation';

const INVALID = { status: 400, codes: ['INVALID_REQUEST'], description: 'Invalid input' };
const NOT_FOUND = { status: 404, codes: ['STORE_NOT_FOUND'], description: 'No such store' };

/** What every operator store operation shares: the operator token, its tag and its id. */
export const operatorStoreOperation = {
  auth: 'operator',
  tags: ['Operator: stores'],
  invalidCode: 'INVALID_REQUEST',
} as const;

export function adminStoreRoutes(api: Api): void {
  defineOperation(api, {
    ...operatorStoreOperation,
    method: 'get',
    path: '/admin/stores',
    operationId: 'listStores',
    summary: 'List registered stores with their policy, verification and sync status',
    success: { status: 200, schema: storeListResponse, description: 'All stores' },
    failures: [],
  }).handle(async ({ db }) => ({ code: 'STORES_LISTED', stores: await listStores(db) }));

  defineOperation(api, {
    ...operatorStoreOperation,
    method: 'post',
    path: '/admin/stores',
    operationId: 'addStore',
    summary: 'Register a store by domain',
    description:
      'The domain is normalized (lower case, scheme and path dropped). `base_url` overrides where products.json is fetched (default https://{domain}).',
    body: addStoreRequest,
    success: {
      status: 201,
      schema: storeResponse('STORE_CREATED').meta({ id: 'StoreCreatedResponse' }),
      description: 'The new store',
    },
    failures: [
      INVALID,
      { status: 409, codes: ['STORE_EXISTS'], description: 'The domain is already registered' },
    ],
  }).handle(async ({ db, body }) => ({
    code: 'STORE_CREATED',
    store: await addStore(db, { domain: body.domain, name: body.name, baseUrl: body.base_url }),
  }));

  defineOperation(api, {
    ...operatorStoreOperation,
    method: 'get',
    path: '/admin/stores/{id}',
    params: idParams,
    operationId: 'getStore',
    summary: 'One store, with its sync progress',
    success: {
      status: 200,
      schema: storeResponse('STORE_RETRIEVED').meta({ id: 'StoreResponse' }),
      description: 'The store',
    },
    failures: [NOT_FOUND],
  }).handle(async ({ db, params: { id } }) => ({
    code: 'STORE_RETRIEVED',
    store: await getStoreSummary(db, id),
  }));

  defineOperation(api, {
    ...operatorStoreOperation,
    method: 'post',
    path: '/admin/stores/{id}/sync',
    params: idParams,
    operationId: 'syncStore',
    summary: "Start a catalogue sync from the store's products.json",
    description:
      'Runs in the background of the server; poll GET /admin/stores/{id} for `sync.state` and `sync.progress`. One sync per store at a time.',
    body: syncStoreRequest,
    bodyOptional: true,
    success: {
      status: 202,
      schema: storeResponse('SYNC_STARTED').meta({ id: 'SyncStartedResponse' }),
      description: 'The sync started',
    },
    failures: [
      INVALID,
      NOT_FOUND,
      { status: 409, codes: ['SYNC_RUNNING'], description: 'A sync of this store is running' },
    ],
  }).handle(async ({ db, params: { id }, body }) => {
    await requireStore(db, id);
    // A server told to stop asks the sync to stop after the page in hand, so that the store
    // records it as interrupted rather than showing `running` until the claim goes stale.
    const stop = new AbortController();
    const { done } = await startSync(db, id, { baseUrl: body.base_url, signal: stop.signal });
    const forget = onStop(`sync of store ${id}`, async () => {
      stop.abort();
      await done;
    });
    void done.finally(forget);
    return { code: 'SYNC_STARTED', store: await getStoreSummary(db, id) };
  });

  defineOperation(api, {
    ...operatorStoreOperation,
    method: 'get',
    path: '/admin/stores/{id}/sync-errors',
    params: idParams,
    operationId: 'listSyncErrors',
    summary: 'Records the last sync or import skipped, and why',
    success: { status: 200, schema: syncErrorsResponse, description: 'Skipped records' },
    failures: [NOT_FOUND],
  }).handle(async ({ db, params: { id } }) => {
    await requireStore(db, id);
    return { code: 'SYNC_ERRORS_LISTED', errors: await listSyncErrors(db, id) };
  });

  defineOperation(api, {
    ...operatorStoreOperation,
    method: 'put',
    path: '/admin/stores/{id}/policy',
    params: idParams,
    operationId: 'setStorePolicy',
    summary: 'Set who may search and buy in a store: everyone, or an allow-list of developers',
    body: storePolicyRequest,
    success: {
      status: 200,
      schema: storeResponse('STORE_POLICY_UPDATED').meta({ id: 'StorePolicyResponse' }),
      description: 'The store with its new policy',
    },
    failures: [INVALID, NOT_FOUND],
  }).handle(async ({ db, params: { id }, body }) => ({
    code: 'STORE_POLICY_UPDATED',
    store: await setAccessPolicy(db, id, body.policy, body.developer_ids),
  }));
}
