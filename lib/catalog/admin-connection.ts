import { logger } from '../log/logger';
import { connectionFor, type StoreConnection } from '../platforms';
import type { StoreRow } from '../stores/access';
import { storeToken } from '../stores/credentials';

/**
 * The store's Admin API connection when it has a token: what the syncs after a catalogue sync
 * (stock, rules) read through. A token that cannot be decrypted is logged as `{what} not
 * synced` and gives none: the catalogue sync itself succeeded.
 */
export function adminConnection(store: StoreRow, what: string): StoreConnection | undefined {
  try {
    const token = storeToken(store);
    return token ? connectionFor(store, token) : undefined;
  } catch (err) {
    logger().warn({ store: store.id, reason: (err as Error).message }, `${what} not synced`);
    return undefined;
  }
}
