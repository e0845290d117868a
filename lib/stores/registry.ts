import { count, eq, inArray, sql } from 'drizzle-orm';
import type { AccessPolicy, StoreSummary, SyncProgress } from '../contract/admin-stores';
import type { Db } from '../db/client';
import { newId } from '../db/ids';
import { analyzeStorePolicies, analyzeStoresWhenStale } from '../db/statistics';
import { developers, products, storeAllowedDevelopers, stores } from '../db/schema';
import { ApiError } from '../errors';
import { storeHost } from '../platforms/store-host';
import { findStoreByDomain, findStoreById, type StoreRow } from './access';

/** A store domain as stored (see storeHost); anything that is not a host name is refused. */
export function normalizeDomain(input: string): string {
  const host = storeHost(input);
  if (!host) {
    throw new ApiError(
      'INVALID_REQUEST',
      `"${input.slice(0, 100)}" is not a store domain; expected a host name such as shop.example.com`,
    );
  }
  return host;
}

/** An http(s) URL without a trailing slash; null clears the override. */
export function normalizeBaseUrl(input: string | null | undefined): string | null {
  if (input === null || input === undefined || input.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new ApiError('INVALID_REQUEST', `base_url "${input.slice(0, 200)}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ApiError('INVALID_REQUEST', 'base_url must be an http or https URL');
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new ApiError(
      'INVALID_REQUEST',
      'base_url must not carry credentials, a query or a fragment',
    );
  }
  return url.toString().replace(/\/+$/, '');
}

/** The domain's first label, capitalized: "acme-outfitters.example" -> "Acme Outfitters". */
function nameFromDomain(domain: string): string {
  return domain
    .split('.')[0]!
    .split('-')
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ');
}

function iso(date: Date | null): string | null {
  return date ? date.toISOString() : null;
}

/**
 * Each store's products, and of those the ones whose image waits in the background queue
 * (lib/images/queue.ts: image_due_at set), retried after a failed fetch, or stuck on an
 * unreachable host: one pass over the store's products.
 */
async function productCounts(db: Db, ids: string[]) {
  const queued = sql`${products.imageDueAt} IS NOT NULL`;
  const rows = await db
    .select({
      storeId: products.storeId,
      n: count(),
      pending: sql<number>`count(*) FILTER (WHERE ${queued})::int`,
      retrying: sql<number>`count(*) FILTER (WHERE ${queued} AND ${products.imageAttempts} > 0)::int`,
      hosts: sql<string[] | null>`array_agg(DISTINCT ${products.imageUnreachableHost})
        FILTER (WHERE ${queued} AND ${products.imageUnreachableHost} IS NOT NULL)`,
    })
    .from(products)
    .where(inArray(products.storeId, ids))
    .groupBy(products.storeId);
  return new Map(rows.map((r) => [r.storeId, r]));
}

async function summarizeStores(db: Db, rows: StoreRow[]): Promise<StoreSummary[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [allowed, counts] = await Promise.all([
    db
      .select()
      .from(storeAllowedDevelopers)
      .where(inArray(storeAllowedDevelopers.storeId, ids))
      .orderBy(storeAllowedDevelopers.developerId),
    productCounts(db, ids),
  ]);
  return rows.map((r) => {
    const c = counts.get(r.id);
    return {
      id: r.id,
      domain: r.domain,
      name: r.name,
      platform: r.platform,
      base_url: r.baseUrl,
      access_policy: r.accessPolicy,
      allowed_developer_ids: allowed.filter((a) => a.storeId === r.id).map((a) => a.developerId),
      verified: r.verified,
      verification_reason: r.verificationReason,
      verified_at: iso(r.verifiedAt),
      has_admin_token: Boolean(r.adminTokenEncrypted),
      product_count: Number(c?.n ?? 0),
      sync: {
        state: r.syncState,
        started_at: iso(r.syncStartedAt),
        finished_at: iso(r.syncFinishedAt),
        progress: (r.syncProgress as SyncProgress | null) ?? null,
        last_error: r.syncLastError,
      },
      images: {
        pending: Number(c?.pending ?? 0),
        retrying: Number(c?.retrying ?? 0),
        unreachable_hosts: [...(c?.hosts ?? [])].sort(),
      },
      created_at: r.createdAt.toISOString(),
    };
  });
}

export async function requireStore(db: Db, storeId: string): Promise<StoreRow> {
  const store = await findStoreById(db, storeId);
  if (!store) throw new ApiError('STORE_NOT_FOUND', `No store with id ${storeId}`);
  return store;
}

export async function getStoreSummary(db: Db, storeId: string): Promise<StoreSummary> {
  const [summary] = await summarizeStores(db, [await requireStore(db, storeId)]);
  return summary!;
}

export async function listStores(db: Db): Promise<StoreSummary[]> {
  return summarizeStores(db, await db.select().from(stores).orderBy(stores.createdAt, stores.id));
}

export async function addStore(
  db: Db,
  input: { domain: string; name?: string | null; baseUrl?: string | null },
): Promise<StoreSummary> {
  const domain = normalizeDomain(input.domain);
  const baseUrl = normalizeBaseUrl(input.baseUrl);
  if (await findStoreByDomain(db, domain)) {
    throw new ApiError('STORE_EXISTS', `A store with domain ${domain} is already registered`);
  }
  const id = newId('store');
  const inserted = await db
    .insert(stores)
    .values({ id, domain, name: input.name?.trim() || nameFromDomain(domain), baseUrl })
    .onConflictDoNothing({ target: stores.domain })
    .returning({ id: stores.id });
  // Lost a race with another registration of the same domain.
  if (inserted.length === 0) {
    throw new ApiError('STORE_EXISTS', `A store with domain ${domain} is already registered`);
  }
  await analyzeStoresWhenStale(db);
  return getStoreSummary(db, id);
}

/** Sets where products.json (and the Admin API) are reached; null means https://{domain}. */
export async function setStoreBaseUrl(db: Db, storeId: string, baseUrl: string | null) {
  await db
    .update(stores)
    .set({ baseUrl: normalizeBaseUrl(baseUrl), updatedAt: new Date() })
    .where(eq(stores.id, storeId));
}

/**
 * `open`: every developer may search and buy. `allow`: only the listed developers, whose list
 * replaces the previous one; unknown developer ids are refused rather than silently kept.
 */
export async function setAccessPolicy(
  db: Db,
  storeId: string,
  policy: AccessPolicy,
  developerIds: string[] = [],
): Promise<StoreSummary> {
  await requireStore(db, storeId);
  const wanted = [...new Set(developerIds.map((d) => d.trim()).filter(Boolean))];
  if (policy === 'open' && wanted.length > 0) {
    throw new ApiError(
      'INVALID_REQUEST',
      'developer_ids apply only to the allow policy; an open store admits every developer',
    );
  }
  if (wanted.length > 0) {
    const found = await db
      .select({ id: developers.id })
      .from(developers)
      .where(inArray(developers.id, wanted));
    const missing = wanted.filter((d) => !found.some((f) => f.id === d));
    if (missing.length > 0) {
      throw new ApiError('INVALID_REQUEST', `Unknown developer ids: ${missing.join(', ')}`);
    }
  }
  await db.transaction(async (tx) => {
    await tx
      .update(stores)
      .set({ accessPolicy: policy, updatedAt: sql`now()` })
      .where(eq(stores.id, storeId));
    await tx.delete(storeAllowedDevelopers).where(eq(storeAllowedDevelopers.storeId, storeId));
    if (wanted.length > 0) {
      await tx
        .insert(storeAllowedDevelopers)
        .values(wanted.map((developerId) => ({ storeId, developerId })));
    }
  });
  await analyzeStorePolicies(db);
  return getStoreSummary(db, storeId);
}
