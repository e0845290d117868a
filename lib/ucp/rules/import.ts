import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  products,
  storeCustomerAddresses,
  storeCustomers,
  storeDiscountCodes,
  storePromotions,
  storeShippingRates,
  variants,
} from '../../db/schema';
import { writeUcpSettings } from '../settings';
import type { StoreRules } from './read';

export interface ImportOutcome {
  discounts?: number;
  promotions?: number;
  shipping_rates?: number;
  customers?: number;
  addresses?: number;
  /** Variants whose stock was set, and the inventory ids the catalogue does not hold. */
  stocked_variants?: number;
  unknown_items?: string[];
  payment_handlers?: string[];
}

/**
 * Writes a store's rules in one transaction, so that running an import twice leaves one copy:
 * discount codes, promotions and shipping rates are replaced by the files' (the store's rules
 * are what the files say); customers and addresses are upserted by id, so that addresses
 * learned at checkouts stay. Stock goes to the variants of each inventory id: a variant with
 * that external id, or every variant of a product with it.
 */
export async function importStoreRules(
  db: Db,
  storeId: string,
  rules: StoreRules,
): Promise<ImportOutcome> {
  return db.transaction(async (tx) => {
    const outcome: ImportOutcome = {};
    if (rules.discounts) {
      await tx.delete(storeDiscountCodes).where(eq(storeDiscountCodes.storeId, storeId));
      if (rules.discounts.length) {
        await tx.insert(storeDiscountCodes).values(rules.discounts.map((d) => ({ storeId, ...d })));
      }
      outcome.discounts = rules.discounts.length;
    }
    if (rules.promotions) {
      await tx.delete(storePromotions).where(eq(storePromotions.storeId, storeId));
      if (rules.promotions.length) {
        await tx.insert(storePromotions).values(rules.promotions.map((p) => ({ storeId, ...p })));
      }
      outcome.promotions = rules.promotions.length;
    }
    if (rules.shippingRates) {
      await tx.delete(storeShippingRates).where(eq(storeShippingRates.storeId, storeId));
      if (rules.shippingRates.length) {
        await tx
          .insert(storeShippingRates)
          .values(rules.shippingRates.map((r) => ({ storeId, ...r })));
      }
      outcome.shipping_rates = rules.shippingRates.length;
    }
    if (rules.customers?.length) {
      await tx
        .insert(storeCustomers)
        .values(rules.customers.map((c) => ({ storeId, ...c })))
        .onConflictDoUpdate({
          target: [storeCustomers.storeId, storeCustomers.id],
          set: { name: sql`excluded.name`, email: sql`excluded.email` },
        });
      outcome.customers = rules.customers.length;
    }
    if (rules.addresses?.length) {
      await tx
        .insert(storeCustomerAddresses)
        .values(rules.addresses.map((a) => ({ storeId, ...a })))
        .onConflictDoUpdate({
          target: [storeCustomerAddresses.storeId, storeCustomerAddresses.id],
          set: {
            customerId: sql`excluded.customer_id`,
            streetAddress: sql`excluded.street_address`,
            city: sql`excluded.city`,
            region: sql`excluded.region`,
            postalCode: sql`excluded.postal_code`,
            country: sql`excluded.country`,
          },
        });
      outcome.addresses = rules.addresses.length;
    }
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
