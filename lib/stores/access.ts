import { and, asc, eq, ne, notExists } from 'drizzle-orm';
import type { Db } from '../db/client';
import { storeAllowedDevelopers, stores } from '../db/schema';
import { ApiError } from '../errors';

export type StoreRow = typeof stores.$inferSelect;

export async function findStoreById(db: Db, storeId: string): Promise<StoreRow | undefined> {
  const [row] = await db.select().from(stores).where(eq(stores.id, storeId));
  return row;
}

export async function findStoreByDomain(db: Db, domain: string): Promise<StoreRow | undefined> {
  const [row] = await db
    .select()
    .from(stores)
    .where(eq(stores.domain, domain.trim().toLowerCase()));
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
 * The stores whose policy shuts the developer out: closed ones that do not list it. A search of
 * every store excludes these, so its filter stays as short as the list of closed stores.
 */
export async function closedStoreIds(db: Db, developerId: string): Promise<string[]> {
  const rows = await db
    .select({ id: stores.id })
    .from(stores)
    .where(
      and(
        ne(stores.accessPolicy, 'open'),
        notExists(
          db
            .select({ one: storeAllowedDevelopers.storeId })
            .from(storeAllowedDevelopers)
            .where(listsDeveloper(stores.id, developerId)),
        ),
      ),
    )
    .orderBy(asc(stores.id));
  return rows.map((r) => r.id);
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

/**
 * The store a request names by id (which wins) or by domain, if the developer may use it. A
 * store closed to the developer is reported like a missing one: the operations that name stores
 * this way have no FORBIDDEN code, and a closed store's existence is none of the caller's business.
 */
export async function requireVisibleStore(
  db: Db,
  developerId: string,
  ref: { storeId?: string; storeDomain?: string },
): Promise<StoreRow> {
  const store = ref.storeId
    ? await findStoreById(db, ref.storeId)
    : ref.storeDomain !== undefined
      ? await findStoreByDomain(db, ref.storeDomain)
      : undefined;
  if (!store || !(await canAccessStore(db, store, developerId))) {
    const name = ref.storeId ? `id ${ref.storeId}` : `domain ${ref.storeDomain}`;
    throw new ApiError('STORE_NOT_FOUND', `No store with ${name}`, 404, `Unknown store ${name}`);
  }
  return store;
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
