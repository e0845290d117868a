import { shopify } from './shopify';
import type { StoreConnection, StorePlatform } from './types';

const PLATFORMS = { shopify } satisfies Record<string, StorePlatform>;

/**
 * What the platform layer needs of a registered store: the layer sits below lib/stores (which
 * verifies tokens through it), so it takes the store's shape rather than its row type.
 */
export interface PlatformStore {
  platform: keyof typeof PLATFORMS;
  domain: string;
  baseUrl: string | null;
}

export function platformFor(store: PlatformStore): StorePlatform {
  return PLATFORMS[store.platform];
}

/** Where a store's Admin API lives: its base_url when set (a simulator, a proxy), else its domain. */
export function connectionFor(store: PlatformStore, token: string): StoreConnection {
  return { baseUrl: store.baseUrl ?? `https://${store.domain}`, domain: store.domain, token };
}

export type * from './types';
