import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { variants } from '../db/schema';
import { logger } from '../log/logger';
import { platformFor } from '../platforms';
import { claimForSync } from '../ucp/rules/sources';
import { adminConnection } from './admin-connection';
import { bigintArray, textArray } from '../sql/arrays';
import type { StoreRow } from '../stores/access';

/**
 * After a sync, the variants' stock (`variants.inventory_quantity`, which UCP checkouts check)
 * from the store's Admin API, when the store has a token: the storefront's products.json, which
 * the sync reads, says only whether a variant is available. A variant the platform does not
 * limit by stock gets null; one the Admin API does not list keeps what it had. Stock imported
 * with `store import-rules` (inventory.csv) is the import's and is left alone unless `reclaim`
 * takes it back (lib/ucp/rules/sources.ts). A failure is logged and leaves the stock as it was: the catalogue
 * sync itself succeeded. Returns how many variants were written.
 */
export async function syncStock(
  db: Db,
  store: StoreRow,
  { reclaim = false } = {},
): Promise<number> {
  const connection = adminConnection(store, 'stock');
  if (!connection) return 0;
  const read = await platformFor(store).readStock(connection);
  if (!read.ok) {
    logger().warn({ store: store.id, reason: read.reason }, 'stock not synced');
    return 0;
  }
  const counted = read.stock.filter((s) => s.quantity !== null);
  const unlimited = read.stock.filter((s) => s.quantity === null).map((s) => s.variantId);
  return db.transaction(async (tx) => {
    if (!(await claimForSync(tx, store.id, ['stock'], { reclaim })).has('stock')) {
      logger().info({ store: store.id }, 'stock is imported: not synced');
      return 0;
    }
    let written = 0;
    if (counted.length > 0) {
      const rows = await tx
        .update(variants)
        .set({ inventoryQuantity: sql`s.quantity::int` })
        .from(
          sql`unnest(${textArray(counted.map((s) => s.variantId))}, ${bigintArray(
            counted.map((s) => s.quantity!),
          )}) AS s(external_id, quantity)`,
        )
        .where(and(eq(variants.storeId, store.id), sql`${variants.externalId} = s.external_id`))
        .returning({ id: variants.id });
      written += rows.length;
    }
    if (unlimited.length > 0) {
      const rows = await tx
        .update(variants)
        .set({ inventoryQuantity: null })
        .where(
          and(
            eq(variants.storeId, store.id),
            sql`${variants.externalId} = ANY(${textArray(unlimited)})`,
          ),
        )
        .returning({ id: variants.id });
      written += rows.length;
    }
    return written;
  });
}
