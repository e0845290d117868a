import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { stores } from '../db/schema';
import { ApiError } from '../errors';
import { connectionFor, platformFor } from '../platforms';
import { findStoreById, type StoreRow } from './access';
import { encryptToken, storeToken } from './credentials';

/**
 * A store is verified when its platform confirms, with the attached Admin API token, that the
 * token works for that very shop (Shopify: `GET /admin/api/<version>/shop.json` names the
 * store's domain). Every write is conditioned on the token it judged, so a check that finishes
 * after a rotation can never stamp the new token with the old one's result.
 */

export type VerificationOutcome =
  | { state: 'verified'; store: StoreRow }
  | { state: 'unverified'; store: StoreRow; reason: string }
  /** The platform could not be asked; the store's recorded state is unchanged. */
  | { state: 'unreachable'; store: StoreRow; reason: string };

async function record(
  db: Db,
  store: StoreRow,
  change: {
    verified: boolean;
    verificationReason: string | null;
    verifiedAt: Date | null;
    currency?: string;
  },
): Promise<StoreRow> {
  const tokenCondition = store.adminTokenEncrypted
    ? eq(stores.adminTokenEncrypted, store.adminTokenEncrypted)
    : undefined;
  const [row] = await db
    .update(stores)
    .set({ ...change, updatedAt: new Date() })
    .where(and(eq(stores.id, store.id), tokenCondition))
    .returning();
  return row ?? (await findStoreById(db, store.id)) ?? store;
}

/** Marks the store unverified, unless its token was replaced since `store` was read. */
export function markUnverified(db: Db, store: StoreRow, reason: string): Promise<StoreRow> {
  return record(db, store, { verified: false, verificationReason: reason, verifiedAt: null });
}

export async function verifyStore(db: Db, store: StoreRow): Promise<VerificationOutcome> {
  const token = storeToken(store);
  if (!token) {
    const reason = 'No Admin API token is attached to this store';
    return { state: 'unverified', store: await markUnverified(db, store, reason), reason };
  }
  const result = await platformFor(store).verify(connectionFor(store, token));
  if (result.ok) {
    const row = await record(db, store, {
      verified: true,
      verificationReason: null,
      verifiedAt: new Date(),
      currency: result.currency,
    });
    return { state: 'verified', store: row };
  }
  if (!result.definitive) return { state: 'unreachable', store, reason: result.reason };
  return {
    state: 'unverified',
    store: await markUnverified(db, store, result.reason),
    reason: result.reason,
  };
}

/**
 * Attaches (or rotates) the store's Admin API token and verifies it at once. Until a check
 * succeeds the store is unverified: a new token is unproven, whatever the old one was.
 */
export async function attachToken(
  db: Db,
  storeId: string,
  token: string,
): Promise<VerificationOutcome> {
  const clean = token.trim();
  if (!clean) throw new ApiError('INVALID_REQUEST', 'The token is empty');
  const existing = await findStoreById(db, storeId);
  if (!existing) throw new ApiError('STORE_NOT_FOUND', `No store with id ${storeId}`);
  const [stored] = await db
    .update(stores)
    .set({
      adminTokenEncrypted: encryptToken(storeId, clean),
      verified: false,
      verificationReason: 'Token attached; verification pending',
      verifiedAt: null,
      updatedAt: new Date(),
    })
    .where(eq(stores.id, storeId))
    .returning();
  const outcome = await verifyStore(db, stored!);
  if (outcome.state !== 'unreachable') return outcome;
  const reason = `Could not verify the token yet: ${outcome.reason}`;
  return { state: 'unverified', store: await markUnverified(db, outcome.store, reason), reason };
}
