import type { z } from 'zod';
import type {
  addStoreRequest,
  storeListResponse,
  StoreSummary,
  syncErrorsResponse,
} from '../contract/admin-stores';
import type {
  getOrderResponse,
  listOrdersResponse,
  storeOrdersResponse,
  storeVerificationResponse,
} from '../contract/orders';
import type { getProductQuery, getProductResponse } from '../contract/products';
import type { searchProductsResponse } from '../contract/search';
import type { listVisibleStoresResponse } from '../contract/stores';

export type { ProfileRecord } from '../contract/profiles';
export type { ShippingAddressInput, ShippingRecord } from '../contract/shipping';
export type { StyleRecord } from '../contract/styles';
export type { BuyResponse, OrderRecord } from '../contract/orders';
export type { SearchProduct, SearchProductsRequest } from '../contract/search';
export type { BuyRequest } from '../contract/orders';

/** Requests as a caller writes them (the schemas' input side: defaults may be left out). */
export type GetProductQuery = Partial<Record<keyof z.input<typeof getProductQuery>, string>>;
export type AddStoreRequest = z.input<typeof addStoreRequest>;

export type SearchProductsResponse = z.output<typeof searchProductsResponse>;
export type SearchVariant = SearchProductsResponse['results'][number]['variants'][number];
export type GetProductResponse = z.output<typeof getProductResponse>;
export type GetOrderResponse = z.output<typeof getOrderResponse>;
export type ListOrdersResponse = z.output<typeof listOrdersResponse>;
export type StoreOrdersResponse = z.output<typeof storeOrdersResponse>;
export type StoreVerificationResponse = z.output<typeof storeVerificationResponse>;
export type StoreListResponse = z.output<typeof storeListResponse>;
export type VisibleStoreListResponse = z.output<typeof listVisibleStoresResponse>;
export type { VisibleStore } from '../contract/stores';
export type SyncErrorsResponse = z.output<typeof syncErrorsResponse>;
export type { StoreSummary, SyncProgress } from '../contract/admin-stores';
export type SyncState = StoreSummary['sync']['state'];
/** Operator answers about one store: `{code, store}`. */
export interface StoreResponse {
  code: string;
  store: StoreSummary;
}
