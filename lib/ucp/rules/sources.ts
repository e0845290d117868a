import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { storeRuleSources } from '../../db/schema';

export type RulePart = (typeof storeRuleSources.$inferSelect)['part'];
export type RuleSource = (typeof storeRuleSources.$inferSelect)['source'];

/**
 * Claims parts of a store's rules for the sync, inside the transaction that writes them, and
 * returns those it may write: every part but the imported ones, or with `reclaim` (the
 * operator's `store sync-rules`) every part, imported ones taken back. The upsert locks each
 * part's row, so an import of the same part waits for this transaction, or this one for the
 * import's.
 */
export async function claimForSync(
  tx: Db,
  storeId: string,
  parts: RulePart[],
  { reclaim = false } = {},
): Promise<Set<RulePart>> {
  const claimed = await tx
    .insert(storeRuleSources)
    .values(parts.map((part) => ({ storeId, part, source: 'shopify' as const })))
    .onConflictDoUpdate({
      target: [storeRuleSources.storeId, storeRuleSources.part],
      // A parameter, not now(): Citus refuses a function that is not immutable in DO UPDATE SET.
      set: { source: 'shopify', updatedAt: new Date() },
      setWhere: reclaim ? undefined : sql`${storeRuleSources.source} <> 'import'`,
    })
    .returning({ part: storeRuleSources.part });
  return new Set(claimed.map((c) => c.part));
}

/** An import's parts become the import's: the sync leaves them alone from now on. */
export async function markImported(tx: Db, storeId: string, parts: RulePart[]): Promise<void> {
  if (!parts.length) return;
  await tx
    .insert(storeRuleSources)
    .values(parts.map((part) => ({ storeId, part, source: 'import' as const })))
    .onConflictDoUpdate({
      target: [storeRuleSources.storeId, storeRuleSources.part],
      set: { source: 'import', updatedAt: new Date() },
    });
}

/** Where each part of the store's rules comes from now. */
export async function ruleSources(db: Db, storeId: string): Promise<Record<string, RuleSource>> {
  const rows = await db
    .select({ part: storeRuleSources.part, source: storeRuleSources.source })
    .from(storeRuleSources)
    .where(eq(storeRuleSources.storeId, storeId));
  return Object.fromEntries(rows.map((r) => [r.part, r.source]));
}
