import { and, eq, ne } from 'drizzle-orm';
import type { Caller } from '../auth/keys';
import type { ShippingAddressInput } from '../contract/shipping';
import type { ProfileRecord } from '../contract/profiles';
import type { Db } from '../db/client';
import { newId } from '../db/ids';
import { profiles, shippingAddresses, styles } from '../db/schema';
import type { EmbeddingProvider } from '../embeddings/provider';
import { ApiError } from '../errors';
import { toShippingRecord, toStyleRecord } from './records';

/** A profile of this caller, or undefined: another developer's id looks exactly like a missing one. */
export async function findProfile(db: Db, caller: Caller, profileId: string) {
  const [row] = await db
    .select()
    .from(profiles)
    .where(and(eq(profiles.id, profileId), eq(profiles.developerId, caller.developerId)));
  return row;
}

export async function createProfile(db: Db, caller: Caller): Promise<ProfileRecord> {
  const [row] = await db
    .insert(profiles)
    .values({ id: newId('prof'), developerId: caller.developerId })
    .returning();
  return {
    id: row!.id,
    dev_id: row!.developerId,
    created_at: row!.createdAt.toISOString(),
    styles: [],
    shipping: null,
  };
}

export async function getProfile(
  db: Db,
  caller: Caller,
  profileId: string,
): Promise<ProfileRecord> {
  const profile = await findProfile(db, caller, profileId);
  if (!profile) throw new ApiError('PROFILE_NOT_FOUND', `No profile with id ${profileId}`);
  const styleRows = await db.select().from(styles).where(eq(styles.profileId, profile.id));
  const [shipping] = profile.shippingAddressId
    ? await db
        .select()
        .from(shippingAddresses)
        .where(eq(shippingAddresses.id, profile.shippingAddressId))
    : [];
  return {
    id: profile.id,
    dev_id: profile.developerId,
    created_at: profile.createdAt.toISOString(),
    styles: styleRows.map(toStyleRecord),
    shipping: shipping ? toShippingRecord(shipping) : null,
  };
}

export async function createStyle(
  db: Db,
  embedder: EmbeddingProvider,
  caller: Caller,
  profileId: string,
  text: string,
) {
  const profile = await findProfile(db, caller, profileId);
  if (!profile) throw new ApiError('PROFILE_NOT_FOUND', `No profile with id ${profileId}`);
  const [existing] = await db
    .select({ id: styles.id })
    .from(styles)
    .where(eq(styles.profileId, profileId));
  if (existing)
    throw new ApiError(
      'STYLE_EXISTS',
      `Profile ${profileId} already has style ${existing.id}; update it instead`,
    );
  const [embedding] = await embedder.embedTexts([text]);
  const rows = await db
    .insert(styles)
    .values({
      id: newId('style'),
      developerId: caller.developerId,
      profileId,
      text,
      embedding: embedding!,
      embeddingModel: embedder.modelId,
    })
    // Two concurrent creates for one profile: the unique index lets one win, the other is told.
    .onConflictDoNothing({ target: styles.profileId })
    .returning();
  if (!rows[0])
    throw new ApiError(
      'STYLE_EXISTS',
      `Profile ${profileId} already has a style; update it instead`,
    );
  return toStyleRecord(rows[0]);
}

export async function getStyle(db: Db, caller: Caller, styleId: string) {
  const [row] = await db
    .select()
    .from(styles)
    .where(and(eq(styles.id, styleId), eq(styles.developerId, caller.developerId)));
  if (!row) throw new ApiError('STYLE_NOT_FOUND', `No style with id ${styleId}`);
  return toStyleRecord(row);
}

/** Replaces the text and its embedding in one statement, so they can never disagree. */
export async function updateStyle(
  db: Db,
  embedder: EmbeddingProvider,
  caller: Caller,
  styleId: string,
  text: string,
) {
  await getStyle(db, caller, styleId);
  const [embedding] = await embedder.embedTexts([text]);
  const [row] = await db
    .update(styles)
    .set({ text, embedding: embedding!, embeddingModel: embedder.modelId, updatedAt: new Date() })
    .where(and(eq(styles.id, styleId), eq(styles.developerId, caller.developerId)))
    .returning();
  if (!row) throw new ApiError('STYLE_NOT_FOUND', `No style with id ${styleId}`);
  return toStyleRecord(row);
}

function addressColumns(a: ShippingAddressInput) {
  return {
    firstName: a.first_name,
    lastName: a.last_name,
    email: a.email,
    phone: a.phone,
    address1: a.address_1,
    address2: a.address_2 ?? null,
    city: a.city,
    countryCode: a.country_code,
    provinceCode: a.province_code,
    postalCode: a.postal_code,
  };
}

/** Creates the address and makes it the profile's attached one, atomically. */
export async function createShipping(
  db: Db,
  caller: Caller,
  profileId: string,
  address: ShippingAddressInput,
) {
  const profile = await findProfile(db, caller, profileId);
  if (!profile) throw new ApiError('PROFILE_NOT_FOUND', `No profile with id ${profileId}`);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(shippingAddresses)
      .values({
        id: newId('ship'),
        developerId: caller.developerId,
        profileId,
        ...addressColumns(address),
      })
      .returning();
    await tx
      .update(profiles)
      .set({ shippingAddressId: row!.id, updatedAt: new Date() })
      .where(eq(profiles.id, profileId));
    return toShippingRecord(row!);
  });
}

export async function updateShipping(
  db: Db,
  caller: Caller,
  shippingId: string,
  address: ShippingAddressInput,
) {
  const [row] = await db
    .update(shippingAddresses)
    .set({ ...addressColumns(address), updatedAt: new Date() })
    .where(
      and(
        eq(shippingAddresses.id, shippingId),
        eq(shippingAddresses.developerId, caller.developerId),
      ),
    )
    .returning();
  if (!row)
    throw new ApiError('SHIPPING_UPDATE_FAILED', `No shipping address with id ${shippingId}`, 404);
  return toShippingRecord(row);
}

/** The profile's attached address, used for checkout links and orders. */
export async function attachedShipping(db: Db, profileId: string) {
  const [row] = await db
    .select({ address: shippingAddresses })
    .from(profiles)
    .innerJoin(shippingAddresses, eq(shippingAddresses.id, profiles.shippingAddressId))
    .where(eq(profiles.id, profileId));
  return row ? toShippingRecord(row.address) : undefined;
}

/** Styles per model call when they are embedded again, so that memory stays bounded however many. */
const STYLE_BATCH = 64;

/**
 * After a model change: embeds again, for the active model, every style embedded by another, so
 * that search can compare it with products (it skips a style of another model). Returns how
 * many it embedded.
 */
export async function reembedStyles(db: Db, embedder: EmbeddingProvider): Promise<number> {
  const stale = await db
    .select({ id: styles.id, text: styles.text })
    .from(styles)
    .where(ne(styles.embeddingModel, embedder.modelId));
  for (let start = 0; start < stale.length; start += STYLE_BATCH) {
    const batch = stale.slice(start, start + STYLE_BATCH);
    const vectors = await embedder.embedTexts(batch.map((s) => s.text));
    for (const [i, style] of batch.entries()) {
      // The text is matched too: a style updated meanwhile keeps the vector of its new text.
      await db
        .update(styles)
        .set({ embedding: vectors[i]!, embeddingModel: embedder.modelId })
        .where(and(eq(styles.id, style.id), eq(styles.text, style.text)));
    }
  }
  return stale.length;
}
