import type { ProfileRecord } from '../contract/profiles';
import type { ShippingAddressInput, ShippingRecord } from '../contract/shipping';
import type { StyleRecord } from '../contract/styles';

export type { ProfileRecord, ShippingAddressInput, ShippingRecord, StyleRecord };

/**
 * Shapes of the operations whose zod schemas live with the search, purchase and store
 * engineers' code; written from ../shared/API-CONTRACT.md and the operator API's description.
 */
export interface SearchProductsRequest {
  query: { text: string; image_url?: string };
  profile_id?: string;
  store_id?: string;
  store_domain?: string;
  query_weight?: number;
  style_weight?: number;
  similarity_threshold?: number;
  max_result_count?: number;
  exclude_variant_ids?: string[];
  price_min?: number;
  price_max?: number;
}

export interface SearchVariant {
  /** A JSON number in the response shape; string ids are accepted too. */
  id: string | number;
  title: string;
  option1: string | null;
  option2: string | null;
  option3: string | null;
  /** A decimal string in the response shape. */
  price: string | number;
  available: boolean;
  checkout_url: string;
  checkout_url_with_shipping?: string;
}

export interface SearchProduct {
  id: string;
  title: string;
  handle: string;
  description: string;
  product_type: string;
  images: string[];
  options: Array<{ name: string; values: string[] }>;
  variants: SearchVariant[];
  store_id: string;
  store_name: string;
  store_domain: string;
}

export interface SearchProductsResponse {
  results: SearchProduct[];
  product_ids: string[];
  code: 'SEARCH_SUCCESS' | 'NO_RESULTS_FOUND';
}

export interface BuyRequest {
  items: Array<{ variant_id: string; quantity: number }>;
  user_id: string;
  store_id: string;
}

export interface BuyResponse {
  message: string;
  code: 'ORDER_CREATED';
  /** Extension beyond the contract: the id GET /orders/{id} answers to. */
  order_id?: string;
}

export interface OrderRecord {
  id: string;
  user_id: string;
  store_id: string;
  status: 'pending' | 'created' | 'failed';
  platform_order_id: string | null;
  error_code: string | null;
  error: string | null;
  lines: Array<{
    variant_id: string;
    product_id: string;
    title: string;
    variant_title: string;
    quantity: number;
    price: string;
  }>;
  total_price: string | null;
  created_at: string;
  updated_at: string;
}

export type SyncState = 'never' | 'running' | 'succeeded' | 'failed';

export interface SyncProgress {
  pages: number;
  seen: number;
  added: number;
  changed: number;
  unchanged: number;
  removed: number;
  failed: number;
  embedded: number;
}

export interface StoreSummary {
  id: string;
  domain: string;
  name: string;
  platform: string;
  base_url: string | null;
  access_policy: 'open' | 'allow';
  allowed_developer_ids: string[];
  verified: boolean;
  verification_reason: string | null;
  verified_at: string | null;
  has_admin_token: boolean;
  product_count: number;
  sync: {
    state: SyncState;
    started_at: string | null;
    finished_at: string | null;
    progress: Partial<SyncProgress> | null;
    last_error: string | null;
  };
  created_at: string;
}

export interface SyncErrorRecord {
  external_id?: string | null;
  message: string;
  created_at: string;
}
