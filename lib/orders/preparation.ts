import { and, eq, inArray } from 'drizzle-orm';
import type { Caller } from '../auth/keys';
import type { ParsedBuyRequest, OrderLine } from '../contract/orders';
import type { ShippingRecord } from '../contract/shipping';
import { centsToString, totalPrice } from '../catalog/decimal';
import { describeIssues, type FieldIssue } from '../contract/issues';
import type { Db } from '../db/client';
import { products, variants } from '../db/schema';
import { ApiError } from '../errors';
import { attachedShipping, findProfile } from '../profiles/service';
import { requireStoreAccess, type StoreRow } from '../stores/access';

/** Everything a purchase needs, checked: who, where, what, and where to ship it. */
export interface PreparedOrder {
  store: StoreRow;
  profileId: string;
  lines: OrderLine[];
  totalPrice: string;
  shipping: ShippingRecord;
}

function badRequest(issues: FieldIssue[]): ApiError {
  return new ApiError('BAD_REQUEST_ERROR', describeIssues(issues), undefined, undefined, {
    issues,
  });
}

async function priceLines(db: Db, store: StoreRow, body: ParsedBuyRequest): Promise<OrderLine[]> {
  const ids = body.items.map((i) => i.variant_id);
  const rows = await db
    .select({
      externalId: variants.externalId,
      title: variants.title,
      price: variants.price,
      available: variants.available,
      productExternalId: products.externalId,
      productTitle: products.title,
    })
    .from(variants)
    .innerJoin(
      products,
      and(eq(products.storeId, variants.storeId), eq(products.id, variants.productId)),
    )
    .where(and(eq(variants.storeId, store.id), inArray(variants.externalId, ids)));
  const byId = new Map(rows.map((r) => [r.externalId, r]));
  const issues: FieldIssue[] = [];
  const lines: OrderLine[] = [];
  body.items.forEach((item, index) => {
    const path = `items.${index}.variant_id`;
    const row = byId.get(item.variant_id);
    if (!row) {
      issues.push({ path, message: `${item.variant_id} is not a variant of store ${store.id}` });
    } else if (!row.available) {
      issues.push({
        path,
        message: `${item.variant_id} (${row.productTitle} - ${row.title}) is not available`,
      });
    } else {
      lines.push({
        variant_id: row.externalId,
        product_id: row.productExternalId,
        title: row.productTitle,
        variant_title: row.title,
        quantity: item.quantity,
        price: row.price,
      });
    }
  });
  if (issues.length) throw badRequest(issues);
  return lines;
}

/**
 * Checks a purchase in the order its refusals are documented: the user, the store, the store's
 * policy and verification, then the items and the shipping address. Nothing is written.
 */
export async function prepareOrder(
  db: Db,
  caller: Caller,
  body: ParsedBuyRequest,
): Promise<PreparedOrder> {
  const profile = await findProfile(db, caller, body.user_id);
  if (!profile) throw new ApiError('USER_NOT_FOUND', `No user with id ${body.user_id}`);
  const store = await requireStoreAccess(db, body.store_id, caller.developerId);
  if (!store.verified) {
    throw new ApiError(
      'STORE_NOT_VERIFIED',
      `Store ${store.id} is not verified yet: purchases open once its staff attach an Admin API token that works`,
    );
  }
  const lines = await priceLines(db, store, body);
  const shipping = await attachedShipping(db, profile.id);
  if (!shipping) {
    throw badRequest([
      {
        path: 'user_id',
        message: `${profile.id} has no shipping address attached: create one with POST /shipping/create first`,
      },
    ]);
  }
  return {
    store,
    profileId: profile.id,
    lines,
    totalPrice: centsToString(totalPrice(lines)),
    shipping,
  };
}
