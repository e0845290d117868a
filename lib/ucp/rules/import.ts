import { and, eq, inArray, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { products, variants } from '../../db/schema';
import { writeUcpSettings } from '../settings';
import type { StoreRules } from '../../contract/store-rules';
import { markImported } from './sources';
import { partsOf, writeRules, type RulesWritten } from './write';

export interface ImportOutcome extends RulesWritten {
  /** Variants whose stock was set, and the inventory ids the catalogue does not hold. */
  stocked_variants?: number;
  unknown_items?: string[];
  payment_handlers?: string[];
}

/**
 * Writes a store's rules in one transaction, so that running an import twice leaves one copy
 * (write.ts says how each part is written). Each part imported becomes the import's: the sync
 * from the store's platform leaves it alone from then on (sources.ts). Stock goes to the
 * variants of each inventory id: a variant with that external id, or every variant of a
 * product with it.
 */
export async function importStoreRules(
  db: Db,
  storeId: string,
  rules: StoreRules,
): Promise<ImportOutcome> {
  return db.transaction(async (tx) => {
    await markImported(tx, storeId, partsOf(rules));
    const outcome: ImportOutcome = await writeRules(tx, storeId, rules);
    if (rules.inventory) {
      let stocked = 0;
      const unknown: string[] = [];
      for (const { itemId, quantity } of rules.inventory) {
        const ofProduct = tx
          .select({ id: products.id })
          .from(products)
          .where(and(eq(products.storeId, storeId), eq(products.externalId, itemId)));
        const rows = await tx
          .update(variants)
          .set({ inventoryQuantity: quantity })
          .where(
            and(
              eq(variants.storeId, storeId),
              or(eq(variants.externalId, itemId), inArray(variants.productId, ofProduct)),
            ),
          )
          .returning({ id: variants.id });
        stocked += rows.length;
        if (!rows.length) unknown.push(itemId);
      }
      outcome.stocked_variants = stocked;
      outcome.unknown_items = unknown;
    }
    if (rules.paymentHandlers) {
      await writeUcpSettings(tx, storeId, { paymentHandlers: rules.paymentHandlers });
      outcome.payment_handlers = rules.paymentHandlers.map((h) => h.id);
    }
    return outcome;
  });
}
