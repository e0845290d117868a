import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  storeCustomerAddresses,
  storeCustomers,
  storeDiscountCodes,
  storePromotions,
  storeShippingRates,
} from '../../db/schema';
import type { StoreRules } from '../../contract/store-rules';
import type { RulePart } from './sources';

export interface RulesWritten {
  discounts?: number;
  promotions?: number;
  shipping_rates?: number;
  customers?: number;
  addresses?: number;
}

/** The rules' parts that are present, by the part each belongs to. */
export function partsOf(rules: StoreRules): RulePart[] {
  const parts: RulePart[] = [];
  if (rules.shippingRates) parts.push('shipping_rates');
  if (rules.discounts) parts.push('discounts');
  if (rules.promotions) parts.push('promotions');
  if (rules.customers || rules.addresses) parts.push('customers');
  if (rules.inventory) parts.push('stock');
  return parts;
}

/**
 * Writes the parts of a store's rules that `rules` holds, inside the caller's transaction:
 * discount codes, promotions and shipping rates are replaced (the store's rules are what the
 * source says); customers and addresses are upserted by id, so that addresses learned at
 * checkouts stay.
 */
export async function writeRules(
  tx: Db,
  storeId: string,
  rules: Pick<StoreRules, 'discounts' | 'promotions' | 'shippingRates' | 'customers' | 'addresses'>,
): Promise<RulesWritten> {
  const written: RulesWritten = {};
  if (rules.discounts) {
    await tx.delete(storeDiscountCodes).where(eq(storeDiscountCodes.storeId, storeId));
    if (rules.discounts.length) {
      await tx.insert(storeDiscountCodes).values(rules.discounts.map((d) => ({ storeId, ...d })));
    }
    written.discounts = rules.discounts.length;
  }
  if (rules.promotions) {
    await tx.delete(storePromotions).where(eq(storePromotions.storeId, storeId));
    if (rules.promotions.length) {
      await tx.insert(storePromotions).values(rules.promotions.map((p) => ({ storeId, ...p })));
    }
    written.promotions = rules.promotions.length;
  }
  if (rules.shippingRates) {
    await tx.delete(storeShippingRates).where(eq(storeShippingRates.storeId, storeId));
    if (rules.shippingRates.length) {
      await tx
        .insert(storeShippingRates)
        .values(rules.shippingRates.map((r) => ({ storeId, ...r })));
    }
    written.shipping_rates = rules.shippingRates.length;
  }
  if (rules.customers?.length) {
    await tx
      .insert(storeCustomers)
      .values(rules.customers.map((c) => ({ storeId, ...c })))
      .onConflictDoUpdate({
        target: [storeCustomers.storeId, storeCustomers.id],
        set: { name: sql`excluded.name`, email: sql`excluded.email` },
      });
    written.customers = rules.customers.length;
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
          extendedAddress: sql`excluded.extended_address`,
          city: sql`excluded.city`,
          region: sql`excluded.region`,
          postalCode: sql`excluded.postal_code`,
          country: sql`excluded.country`,
          firstName: sql`excluded.first_name`,
          lastName: sql`excluded.last_name`,
        },
      });
    written.addresses = rules.addresses.length;
  }
  return written;
}
