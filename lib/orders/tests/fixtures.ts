import { randomBytes } from 'node:crypto';
import { resetEnvCache } from '../../config/env';
import type { Db } from '../../db/client';
import { newId } from '../../db/ids';
import { eq } from 'drizzle-orm';
import { orders, products, stores, variants } from '../../db/schema';
import type { TestServer } from '../../testing/server';
import { usAddress } from '../../testing/fixtures/address';
import { newProfile } from '../../testing/profiles';

export interface FixtureVariant {
  id: number;
  title: string;
  price: string;
  available: boolean;
}

export interface FixtureProduct {
  id: number;
  title: string;
  variants: FixtureVariant[];
}

/**
 * A fresh token key, and store-platform and order timings short enough to keep a suite fast
 * (both are read on every call).
 */
export function fastOrderSettings(): void {
  process.env.STORE_TOKEN_KEY = randomBytes(32).toString('base64');
  process.env.PLATFORM_TIMEOUT_MS = '400';
  process.env.PLATFORM_RETRY_LIMIT = '2';
  process.env.PLATFORM_MAX_RETRY_AFTER_MS = '1000';
  process.env.ORDER_LEASE_MS = '1000';
  process.env.STORE_LATE_ORDER_MS = '300';
  resetEnvCache();
}

/** The same product in Shopify's storefront shape, for the store simulator's catalogue. */
export function storefrontProduct(p: FixtureProduct) {
  return {
    id: p.id,
    title: p.title,
    handle: p.title.toLowerCase().replace(/\W+/g, '-'),
    tags: [],
    images: [],
    options: [{ name: 'Title', position: 1, values: p.variants.map((v) => v.title) }],
    variants: p.variants,
  };
}

/**
 * A registered store with its catalogue rows, written directly: purchase tests need variants
 * and prices, not the catalogue sync and its embeddings.
 */
export async function insertStore(
  db: Db,
  input: { domain: string; baseUrl: string; products: FixtureProduct[]; policy?: 'open' | 'allow' },
): Promise<string> {
  const id = newId('store');
  await db.insert(stores).values({
    id,
    domain: input.domain,
    name: `Shop ${input.domain}`,
    baseUrl: input.baseUrl,
    accessPolicy: input.policy ?? 'open',
  });
  for (const p of input.products) {
    const [row] = await db
      .insert(products)
      .values({
        storeId: id,
        externalId: String(p.id),
        title: p.title,
        raw: storefrontProduct(p),
        contentHash: `fixture-${p.id}`,
      })
      .returning({ id: products.id });
    await db.insert(variants).values(
      p.variants.map((v, i) => ({
        productId: row!.id,
        storeId: id,
        externalId: String(v.id),
        title: v.title,
        price: v.price,
        available: v.available,
        position: i + 1,
      })),
    );
  }
  return id;
}

export const address = usAddress;

/** A profile of the key's developer, with `address` attached unless told otherwise. */
export function newShopper(t: TestServer, key: string, withAddress = true): Promise<string> {
  return newProfile(t, key, withAddress ? address : undefined);
}

/** Waits until a pending order's store lookup would be final (its settle_after has passed). */
export async function pastSettleTime(db: Db, orderId: string): Promise<void> {
  const [row] = await db.select().from(orders).where(eq(orders.id, orderId));
  const wait = row!.settleAfter!.getTime() - Date.now() + 50;
  await new Promise((resolve) => setTimeout(resolve, Math.max(wait, 0)));
}
