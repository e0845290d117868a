import type { z } from 'zod';
import type { createProfileResponse, retrieveProfileResponse } from '../contract/profiles';
import type { createShippingResponse, updateShippingResponse } from '../contract/shipping';
import type {
  createStyleResponse,
  retrieveStyleResponse,
  updateStyleResponse,
} from '../contract/styles';
import { request, type Transport } from './request';
import type {
  AddStoreRequest,
  BuyRequest,
  BuyResponse,
  GetOrderResponse,
  GetProductQuery,
  GetProductResponse,
  ListOrdersResponse,
  SearchProductsRequest,
  SearchProductsResponse,
  ShippingAddressInput,
  StoreListResponse,
  StoreOrdersResponse,
  StoreResponse,
  StoreVerificationResponse,
  SyncErrorsResponse,
  VisibleStoreListResponse,
} from './types';
import { ucpMethods } from './ucp';

export interface ClientOptions {
  /** The API's base URL, e.g. http://127.0.0.1:3000/api. */
  baseUrl: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

const enc = encodeURIComponent;

/**
 * The developer API, authenticated by an API key (`csk_...`). `orderSource` names the client
 * (the MCP server, the dashboard) in X-Order-Source, which the orders it places record.
 */
export function createApiClient(
  opts: ClientOptions & { apiKey: string; orderSource?: 'mcp' | 'dashboard' },
) {
  const t: Transport = {
    ...opts,
    authorization: opts.apiKey,
    ...(opts.orderSource ? { headers: { 'x-order-source': opts.orderSource } } : {}),
  };
  return {
    createProfile: () =>
      request<z.output<typeof createProfileResponse>>(t, 'POST', '/profiles/create'),
    getProfile: (id: string) =>
      request<z.output<typeof retrieveProfileResponse>>(t, 'GET', `/profiles/${enc(id)}`),
    createStyle: (profileId: string, text: string) =>
      request<z.output<typeof createStyleResponse>>(t, 'POST', '/styles/create', {
        body: { profile_id: profileId, text },
      }),
    updateStyle: (styleId: string, text: string) =>
      request<z.output<typeof updateStyleResponse>>(t, 'PUT', `/styles/update/${enc(styleId)}`, {
        body: { text },
      }),
    getStyle: (styleId: string) =>
      request<z.output<typeof retrieveStyleResponse>>(t, 'GET', `/styles/retrieve/${enc(styleId)}`),
    createShipping: (profileId: string, address: ShippingAddressInput) =>
      request<z.output<typeof createShippingResponse>>(t, 'POST', '/shipping/create', {
        body: { profile_id: profileId, shipping_address: address },
      }),
    updateShipping: (shippingId: string, address: ShippingAddressInput) =>
      request<z.output<typeof updateShippingResponse>>(
        t,
        'PUT',
        `/shipping/update/${enc(shippingId)}`,
        { body: { shipping_address: address } },
      ),
    searchProducts: (body: SearchProductsRequest) =>
      request<SearchProductsResponse>(t, 'POST', '/search/products', { body }),
    /** The stores open to this key: the ones searched when no store is named. */
    listStores: () => request<VisibleStoreListResponse>(t, 'GET', '/stores'),
    /** One product as search shows it; `profile_id` pre-fills the checkout links. */
    getProduct: (id: string, query: GetProductQuery = {}) =>
      request<GetProductResponse>(t, 'GET', `/products/${enc(id)}`, { query }),
    /** The same idempotency key never creates two orders: reuse it when retrying. */
    buy: (body: BuyRequest, idempotencyKey?: string) =>
      request<BuyResponse>(t, 'POST', '/buy', {
        body,
        headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : undefined,
      }),
    getOrder: (id: string) => request<GetOrderResponse>(t, 'GET', `/orders/${enc(id)}`),
    listOrders: (userId?: string, limit?: number) =>
      request<ListOrdersResponse>(t, 'GET', '/orders', {
        query: { user_id: userId, limit: limit?.toString() },
      }),
    ...ucpMethods(t),
  };
}

/** The operator (store staff) API under /admin, authenticated by the operator token. */
export function createOperatorClient(opts: ClientOptions & { operatorToken: string }) {
  const t: Transport = { ...opts, authorization: `Bearer ${opts.operatorToken}` };
  const store = (id: string) => `/admin/stores/${enc(id)}`;
  return {
    listStores: () => request<StoreListResponse>(t, 'GET', '/admin/stores'),
    createStore: (body: AddStoreRequest) =>
      request<StoreResponse>(t, 'POST', '/admin/stores', { body }),
    getStore: (id: string) => request<StoreResponse>(t, 'GET', store(id)),
    syncStore: (id: string, baseUrl?: string) =>
      request<StoreResponse>(t, 'POST', `${store(id)}/sync`, {
        body: baseUrl ? { base_url: baseUrl } : {},
      }),
    syncErrors: (id: string) => request<SyncErrorsResponse>(t, 'GET', `${store(id)}/sync-errors`),
    setPolicy: (id: string, policy: 'open' | 'allow', developerIds?: string[]) =>
      request<StoreResponse>(t, 'PUT', `${store(id)}/policy`, {
        body: { policy, ...(developerIds ? { developer_ids: developerIds } : {}) },
      }),
    setToken: (id: string, token: string) =>
      request<StoreVerificationResponse>(t, 'PUT', `${store(id)}/token`, { body: { token } }),
    verify: (id: string) => request<StoreVerificationResponse>(t, 'POST', `${store(id)}/verify`),
    storeOrders: (id: string) => request<StoreOrdersResponse>(t, 'GET', `${store(id)}/orders`),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
export type OperatorClient = ReturnType<typeof createOperatorClient>;
