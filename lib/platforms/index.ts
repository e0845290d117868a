import type { StoreRow } from '../stores/access';
import { shopify } from './shopify';
import type { StoreConnection, StorePlatform } from './types';

const PLATFORMS: Record<StoreRow['platform'], StorePlatform> = { shopify };

export function platformFor(store: StoreRow): StorePlatform {
  return PLATFORMS[store.platform];
}

/** Where a store's Admin API lives: its base_url when set (a simulator, a proxy), else its domain. */
export function connectionFor(store: StoreRow, token: string): StoreConnection {
  return { baseUrl: store.baseUrl ?? `https://${store.domain}`, domain: store.domain, token };
}

export type * from './types';
