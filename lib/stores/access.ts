import { and, asc, count, eq, exists, inArray, notExists, notInArray, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { queryPrepared } from '../db/prepared';
import { products, storeAllowedDevelopers, stores } from '../db/schema';
import type { VisibleStore } from '../contract/stores';
import { ApiError } from '../errors';

export type StoreRow = typeof stores.$inferSelect;

export async function findStoreById(db: Db, storeId: string): Promise<StoreRow | undefined> {
  const [row] = await db.select().from(stores).where(eq(stores.id, storeId));
  return row;
}

export async function findStoreByDomain(db: Db, domain: string): Promise<StoreRow | undefined> {
  const [row] = await db.select().from(stores).where(storeKeyWhere({ domain }));
  return row;
}

/** The allow-list row naming the developer for the store (a store id or the stores.id column). */
function listsDeveloper(storeId: string | typeof stores.id, developerId: string) {
  return and(
    eq(storeAllowedDevelopers.storeId, storeId),
    eq(storeAllowedDevelopers.developerId, developerId),
  );
}

/**
 * The statement behind closedStoreIds. The partial index stores_not_open_idx holds the stores
 * its policy test keeps, so the read costs the closed stores, where a scan would cost them all.
 * 'open' is written into the text, not bound: the statement is prepared, and a generic plan can
 * use a partial index only when the statement's own text implies the index's predicate; with a
 * parameter the server planned each run anew (0.3 ms of PGlite's 0.6 ms statement).
 */
export function closedStoresQuery(db: Db, developerId: string) {
  return db
    .select({ id: stores.id })
    .from(stores)
    .where(
      and(
        sql`${stores.accessPolicy} <> 'open'`,
        notExists(
          db
            .select({ one: storeAllowedDevelopers.storeId })
            .from(storeAllowedDevelopers)
            .where(listsDeveloper(stores.id, developerId)),
        ),
      ),
    )
    .orderBy(asc(stores.id));
}

/**
 * The stores whose policy shuts the developer out: closed ones that do not list it. A search of
 * every store excludes these, so its filter stays as short as the list of closed stores.
 */
export async function closedStoreIds(db: Db, developerId: string): Promise<string[]> {
  // Prepared: every search of all stores reads it first.
  const rows = await queryPrepared<{ id: string }>(db, closedStoresQuery(db, developerId).getSQL());
  return rows.map((r) => r.id);
}

/** The stores the developer may search and buy in, by name, with their product counts. */
export async function listVisibleStores(db: Db, developerId: string): Promise<VisibleStore[]> {
  const closed = await closedStoreIds(db, developerId);
  const rows = await db
    .select({
      id: stores.id,
      name: stores.name,
      domain: stores.domain,
      verified: stores.verified,
      currency: stores.currency,
    })
    .from(stores)
    .where(closed.length > 0 ? notInArray(stores.id, closed) : undefined)
    .orderBy(asc(stores.name), asc(stores.id));
  if (rows.length === 0) return [];
  // Counted apart from the join: on Citus the products are distributed, the stores are not.
  const counts = await db
    .select({ storeId: products.storeId, n: count() })
    .from(products)
    .where(
      inArray(
        products.storeId,
        rows.map((r) => r.id),
      ),
    )
    .groupBy(products.storeId);
  const countOf = new Map(counts.map((c) => [c.storeId, Number(c.n)]));
  return rows.map((r) => ({ ...r, product_count: countOf.get(r.id) ?? 0 }));
}

export async function canAccessStore(
  db: Db,
  store: StoreRow,
  developerId: string,
): Promise<boolean> {
  if (store.accessPolicy === 'open') return true;
  const [row] = await db
    .select({ id: storeAllowedDevelopers.developerId })
    .from(storeAllowedDevelopers)
    .where(listsDeveloper(store.id, developerId));
  return Boolean(row);
}

/** A store a request names: by id, or by domain (stored lower-case, so compared so). */
export type StoreKey = { id: string } | { domain: string };

/** The key's test on the stores table. */
export function storeKeyWhere(key: StoreKey) {
  return 'id' in key ? eq(stores.id, key.id) : eq(stores.domain, key.domain.trim().toLowerCase());
}

/**
 * The policy test a store passes for the developer: open, or listing the developer. 'open' is
 * written into the text as in closedStoresQuery, which is this test's negation written apart for
 * its partial index; canAccessStore is the same rule for a row already read.
 */
export function visibleTo(db: Db, developerId: string) {
  return or(
    sql`${stores.accessPolicy} = 'open'`,
    exists(
      db
        .select({ one: storeAllowedDevelopers.storeId })
        .from(storeAllowedDevelopers)
        .where(listsDeveloper(stores.id, developerId)),
    ),
  );
}

/**
 * STORE_NOT_FOUND for a store the request names that does not exist or is closed to the caller.
 * The operations that name stores by id or domain have no FORBIDDEN code, and a closed store's
 * existence is none of the caller's business.
 */
export function storeNotFound(key: StoreKey): ApiError {
  const name = 'id' in key ? `id ${key.id}` : `domain ${key.domain}`;
  return new ApiError('STORE_NOT_FOUND', `No store with ${name}`, 404, `Unknown store ${name}`);
}

/**
 * The id of the store a request names, if the developer may use it (else STORE_NOT_FOUND): one
 * prepared statement of the key, the policy and the allow-list, where reading the store's row and
 * then its allow-list took two.
 */
export async function requireVisibleStore(
  db: Db,
  developerId: string,
  key: StoreKey,
): Promise<string> {
  const [row] = await queryPrepared<{ id: string }>(
    db,
    db
      .select({ id: stores.id })
      .from(stores)
      .where(and(storeKeyWhere(key), visibleTo(db, developerId)))
      .getSQL(),
  );
  if (!row) throw storeNotFound(key);
  return row.id;
}

/** The store, if it exists (STORE_NOT_FOUND) and its policy admits the developer (FORBIDDEN). */
export async function requireStoreAccess(
  db: Db,
  storeId: string,
  developerId: string,
): Promise<StoreRow> {
  const store = await findStoreById(db, storeId);
  if (!store) throw new ApiError('STORE_NOT_FOUND', `No store with id ${storeId}`);
  if (!(await canAccessStore(db, store, developerId))) {
    throw new ApiError('FORBIDDEN', `This developer is not on the access list of store ${storeId}`);
  }
  return store;
}
