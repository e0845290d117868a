import { idParams } from '../../contract/common';
import {
  buyHeaders,
  buyRequest,
  buyResponse,
  getOrderResponse,
  listOrdersQuery,
  listOrdersResponse,
  MAX_LINE_QUANTITY,
  MAX_ORDER_LINES,
} from '../../contract/orders';
import { getOrder, listOrders, placeOrder } from '../../orders/service';
import { ORDER_SOURCE_HEADER, orderSource } from '../../orders/source';
import { defineOperation } from '../operation';
import type { Api } from '../openapi';

export function orderRoutes(api: Api): void {
  defineOperation(api, {
    auth: 'developer',
    method: 'post',
    path: '/buy',
    operationId: 'buy',
    summary: 'Create an order for a user in a store',
    description:
      `Places the order with the store through its platform (Shopify Admin API), shipping to the user's attached address, payment pending. ` +
      `At most ${MAX_ORDER_LINES} items, one per variant, each quantity 1 to ${MAX_LINE_QUANTITY}. ` +
      'The order is recorded before the store is called (GET /orders/{id} shows it as pending, created or failed). ' +
      'Extension to the contract: the success body carries `order_id`, and the `Idempotency-Key` header makes retries safe.',
    tags: ['Orders'],
    body: buyRequest,
    headers: buyHeaders,
    invalidCode: 'BAD_REQUEST_ERROR',
    success: { status: 201, schema: buyResponse, description: 'The store created the order' },
    failures: [
      {
        status: 400,
        codes: ['BAD_REQUEST_ERROR'],
        description:
          'Invalid items, a variant not in the store or unavailable, a user without shipping address, or the store refused the order',
      },
      {
        status: 403,
        codes: ['FORBIDDEN'],
        description: "The store's access policy excludes the caller",
      },
      {
        status: 404,
        codes: ['USER_NOT_FOUND', 'STORE_NOT_FOUND'],
        description: 'No such user (profile) for this caller, or no such store',
      },
      {
        status: 409,
        codes: ['STORE_NOT_VERIFIED', 'IDEMPOTENCY_KEY_IN_USE'],
        description:
          'The store is not verified (or its token just stopped working), or the order of this Idempotency-Key is still pending (with Retry-After: when to ask again)',
      },
      {
        status: 422,
        codes: ['IDEMPOTENCY_KEY_REUSED'],
        description: 'The Idempotency-Key was used before with a different body',
      },
      {
        status: 502,
        codes: ['STORE_PLATFORM_ERROR'],
        description:
          "The store's platform failed, timed out or kept rate-limiting. When the store may still have received the order it stays pending (Retry-After: when it is looked up again) until found or provably absent; otherwise it is recorded as failed",
      },
    ],
  }).handle(({ db, caller, body, header }) =>
    placeOrder(
      db,
      caller,
      body,
      header('idempotency-key'),
      orderSource(header(ORDER_SOURCE_HEADER), caller),
    ),
  );

  defineOperation(api, {
    auth: 'developer',
    method: 'get',
    path: '/orders/{id}',
    operationId: 'getOrder',
    summary: 'Retrieve one of your orders with its status and lines (extension)',
    tags: ['Orders'],
    params: idParams,
    invalidCode: 'BAD_REQUEST_ERROR',
    success: { status: 200, schema: getOrderResponse, description: 'The order' },
    failures: [
      { status: 404, codes: ['ORDER_NOT_FOUND'], description: 'No such order for this caller' },
    ],
  }).handle(async ({ db, caller, params }) => ({
    code: 'ORDER_RETRIEVED',
    order: await getOrder(db, caller, params.id),
  }));

  defineOperation(api, {
    auth: 'developer',
    method: 'get',
    path: '/orders',
    operationId: 'listOrders',
    summary: "List your orders, newest first, optionally one user's (extension)",
    tags: ['Orders'],
    query: listOrdersQuery,
    invalidCode: 'BAD_REQUEST_ERROR',
    success: { status: 200, schema: listOrdersResponse, description: 'The orders' },
    failures: [
      { status: 400, codes: ['BAD_REQUEST_ERROR'], description: 'Invalid query parameters' },
    ],
  }).handle(async ({ db, caller, query }) => ({
    code: 'ORDERS_LISTED',
    orders: await listOrders(db, caller, { userId: query.user_id, limit: query.limit }),
  }));
}
