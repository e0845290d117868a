import { storeResponse } from '../../contract/admin-stores';
import {
  storeOrdersResponse,
  storeTokenRequest,
  storeVerificationResponse,
} from '../../contract/orders';
import { idParams } from '../../contract/common';
import { ApiError } from '../../errors';
import { listStoreOrders } from '../../orders/service';
import { TokenKeyError } from '../../stores/credentials';
import { getStoreSummary, requireStore } from '../../stores/registry';
import { attachToken, verifyStore } from '../../stores/verification';
import type { Api } from '../openapi';
import { defineOperation } from '../operation';
import { operatorStoreOperation } from './admin-stores';

const NOT_FOUND = { status: 404, codes: ['STORE_NOT_FOUND'], description: 'No such store' };
const KEY_MISSING = {
  status: 500,
  codes: ['INTERNAL_ERROR'],
  description: 'The store token key is missing or wrong on the server (the error says which)',
};
const STORE_ORDER_LIMIT = 200;

/** A missing or wrong store token key is the operator's to fix, so they are told exactly that. */
async function withTokenKey<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof TokenKeyError) throw new ApiError('INTERNAL_ERROR', err.message, 500);
    throw err;
  }
}

export function adminStoreCredentialRoutes(api: Api): void {
  defineOperation(api, {
    ...operatorStoreOperation,
    method: 'put',
    path: '/admin/stores/{id}/token',
    params: idParams,
    operationId: 'setStoreToken',
    summary: "Attach or rotate a store's Admin API token, and verify it",
    description:
      'The token is encrypted at rest (AES-256-GCM, key STORE_TOKEN_KEY or the data directory key file) and never returned. It is verified at once ' +
      '(Shopify: GET /admin/api/<version>/shop.json must answer for the store domain); the store stays unverified, ' +
      'with the reason, until that succeeds.',
    body: storeTokenRequest,
    success: {
      status: 200,
      schema: storeResponse('STORE_TOKEN_UPDATED').meta({ id: 'StoreTokenResponse' }),
      description: 'The store with its verification result (`verified`, `verification_reason`)',
    },
    failures: [
      { status: 400, codes: ['INVALID_REQUEST'], description: 'No token' },
      NOT_FOUND,
      KEY_MISSING,
    ],
  }).handle(({ db, params: { id }, body }) =>
    withTokenKey(async () => {
      await attachToken(db, id, body.token);
      return { code: 'STORE_TOKEN_UPDATED', store: await getStoreSummary(db, id) };
    }),
  );

  defineOperation(api, {
    ...operatorStoreOperation,
    method: 'post',
    path: '/admin/stores/{id}/verify',
    params: idParams,
    operationId: 'verifyStore',
    summary: "Check the store's Admin API token again and record the result",
    description:
      'STORE_VERIFIED or STORE_UNVERIFIED (with `verification_reason`). When the platform cannot be reached the ' +
      'recorded state is left as it was and STORE_PLATFORM_ERROR is answered.',
    success: {
      status: 200,
      schema: storeVerificationResponse,
      description:
        'The store with its verification result (code STORE_VERIFIED or STORE_UNVERIFIED)',
    },
    failures: [
      NOT_FOUND,
      KEY_MISSING,
      {
        status: 502,
        codes: ['STORE_PLATFORM_ERROR'],
        description: 'The store platform could not be reached; nothing changed',
      },
    ],
  }).handle(({ db, params: { id } }) =>
    withTokenKey(async () => {
      const outcome = await verifyStore(db, await requireStore(db, id));
      if (outcome.state === 'unreachable') {
        throw new ApiError(
          'STORE_PLATFORM_ERROR',
          `Could not verify store ${id}: ${outcome.reason}. Its recorded state is unchanged.`,
        );
      }
      return {
        code: outcome.state === 'verified' ? 'STORE_VERIFIED' : 'STORE_UNVERIFIED',
        store: await getStoreSummary(db, id),
      };
    }),
  );

  defineOperation(api, {
    ...operatorStoreOperation,
    method: 'get',
    path: '/admin/stores/{id}/orders',
    params: idParams,
    operationId: 'listStoreOrders',
    summary: `A store's orders from every developer, newest first (at most ${STORE_ORDER_LIMIT})`,
    success: { status: 200, schema: storeOrdersResponse, description: 'The orders' },
    failures: [NOT_FOUND],
  }).handle(async ({ db, params: { id } }) => {
    await requireStore(db, id);
    return {
      code: 'STORE_ORDERS_LISTED',
      orders: await listStoreOrders(db, id, STORE_ORDER_LIMIT),
    };
  });
}
