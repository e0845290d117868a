import type { Db } from '../db/client';
import { logger } from '../log/logger';
import { platformFor } from '../platforms';
import type { StoreRow } from '../stores/access';
import { claimForSync, type RulePart } from '../ucp/rules/sources';
import { writeRules, type RulesWritten } from '../ucp/rules/write';
import { adminConnection } from './admin-connection';

export interface RulesSyncOutcome {
  synced: true;
  written: RulesWritten;
  /** Parts `store import-rules` wrote, which the sync leaves as they are. */
  imported: RulePart[];
  /** What the platform has that a checkout here could not honour, with the reason. */
  skipped: string[];
  /** Resources that could not be read: their parts stay as they were. */
  failed: string[];
}

export type RulesSync = RulesSyncOutcome | { synced: false; reason: string };

/**
 * After a catalogue sync of a store with an Admin API token, its checkout rules from the
 * platform (shipping rates, discount codes, free-shipping promotions, customers and their
 * addresses) into the tables `store import-rules` writes, in one transaction, written as the
 * import writes them (lib/ucp/rules/write.ts), so that syncing twice leaves one copy. A part
 * the store imported stays the import's unless `reclaim` takes it back (`store sync-rules`). A
 * failed read is logged and leaves its part as it was: the catalogue sync itself succeeded.
 */
export async function syncStoreRules(
  db: Db,
  store: StoreRow,
  { reclaim = false } = {},
): Promise<RulesSync> {
  const connection = adminConnection(store, 'rules');
  if (!connection) return { synced: false, reason: 'the store has no usable Admin API token' };
  const rules = await platformFor(store).readRules(connection);
  if (rules.failed.length) {
    logger().warn(
      { store: store.id, failed: rules.failed },
      'rules not synced from every resource',
    );
  }
  const read: RulePart[] = [];
  if (rules.shippingRates) read.push('shipping_rates');
  if (rules.discounts) read.push('discounts');
  if (rules.promotions) read.push('promotions');
  if (rules.customers) read.push('customers');
  if (!read.length) return { synced: false, reason: rules.failed.join('; ') };
  const outcome = await db.transaction(async (tx) => {
    const ours = await claimForSync(tx, store.id, read, { reclaim });
    const written = await writeRules(tx, store.id, {
      shippingRates: ours.has('shipping_rates') ? rules.shippingRates : undefined,
      discounts: ours.has('discounts') ? rules.discounts : undefined,
      promotions: ours.has('promotions') ? rules.promotions : undefined,
      customers: ours.has('customers') ? rules.customers : undefined,
      addresses: ours.has('customers') ? rules.addresses : undefined,
    });
    const imported = read.filter((p) => !ours.has(p));
    return {
      synced: true as const,
      written,
      imported,
      skipped: rules.skipped,
      failed: rules.failed,
    };
  });
  logger().info({ store: store.id, ...outcome }, 'rules synced');
  return outcome;
}
