import type { Db } from '../db/client';
import { findStoreByDomain, findStoreById, type StoreRow } from '../stores/access';

/** A store named by its id or its domain, as the CLI takes it. */
export async function findStoreByRef(db: Db, ref: string): Promise<StoreRow | undefined> {
  return (await findStoreById(db, ref)) ?? (await findStoreByDomain(db, ref));
}
