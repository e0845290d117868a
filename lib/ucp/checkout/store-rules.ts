import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { storeDiscountCodes, storePromotions, storeShippingRates } from '../../db/schema';
import type { DiscountRule } from './totals';
import type { FulfillmentOption } from './types';

/**
 * The store's codes among `codes`, in the order asked, each under the spelling asked: UCP matches
 * codes case-insensitively, so `save10` is the store's `SAVE10`, and a code asked twice in two
 * spellings counts once. Unknown ones are left out.
 */
export async function discountRules(
  db: Db,
  storeId: string,
  codes: string[],
): Promise<DiscountRule[]> {
  if (!codes.length) return [];
  const folded = (code: string) => code.toLowerCase();
  const rows = await db
    .select()
    .from(storeDiscountCodes)
    .where(
      and(
        eq(storeDiscountCodes.storeId, storeId),
        inArray(sql`lower(${storeDiscountCodes.code})`, [...new Set(codes.map(folded))]),
      ),
    );
  const byCode = new Map(rows.map((r) => [folded(r.code), r]));
  const seen = new Set<string>();
  return codes.flatMap((code) => {
    const row = byCode.get(folded(code));
    if (!row || seen.has(folded(code))) return [];
    seen.add(folded(code));
    return [{ code, type: row.type, value: row.value, description: row.description }];
  });
}

/** Whether a free-shipping promotion of the store covers this basket. */
async function shipsFree(
  db: Db,
  storeId: string,
  basket: { subtotal: number; itemIds: string[] },
): Promise<boolean> {
  const promotions = await db
    .select()
    .from(storePromotions)
    .where(and(eq(storePromotions.storeId, storeId), eq(storePromotions.type, 'free_shipping')));
  return promotions.some(
    (p) =>
      (p.minSubtotal !== null && basket.subtotal >= p.minSubtotal) ||
      p.eligibleItemIds.some((id) => basket.itemIds.includes(id)),
  );
}

/**
 * The shipping options to a country: one per service level, the country's own rate replacing
 * the default one of its level; cheapest first. A free-shipping promotion makes the standard
 * level free (as the reference server does).
 */
export async function shippingOptions(
  db: Db,
  storeId: string,
  country: string,
  basket: { subtotal: number; itemIds: string[] },
): Promise<FulfillmentOption[]> {
  const rates = await db
    .select()
    .from(storeShippingRates)
    .where(
      and(
        eq(storeShippingRates.storeId, storeId),
        inArray(storeShippingRates.countryCode, [country.toUpperCase(), 'default']),
      ),
    )
    .orderBy(sql`${storeShippingRates.countryCode} = 'default'`, storeShippingRates.id);
  const byLevel = new Map<string, (typeof rates)[number]>();
  for (const rate of rates)
    if (!byLevel.has(rate.serviceLevel)) byLevel.set(rate.serviceLevel, rate);
  const free = byLevel.size > 0 && (await shipsFree(db, storeId, basket));
  return [...byLevel.values()]
    .sort((a, b) => a.price - b.price || a.id.localeCompare(b.id))
    .map((rate) => {
      const isFree = free && rate.serviceLevel === 'standard';
      const amount = isFree ? 0 : rate.price;
      return {
        id: rate.id,
        title: isFree ? `${rate.title} (Free)` : rate.title,
        totals: [
          { type: 'subtotal' as const, amount },
          { type: 'total' as const, amount },
        ],
      };
    });
}
