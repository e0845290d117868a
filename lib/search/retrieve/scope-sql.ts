import { sql, type SQL } from 'drizzle-orm';
import { textArray } from '../../sql/arrays';
import type { CandidateFilters, RetrievalRequest, SearchScope } from './request';

/**
 * A row count written into the statement rather than bound: the statement is prepared
 * (queryPrepared), and a generic plan knows a bound LIMIT only as a guess (a tenth of the rows),
 * for which it planned the neighbours' join as a scan of every product. The counts take a few
 * values, so the statement's texts stay few.
 */
export function limit(count: number): SQL {
  return sql.raw(String(Math.max(0, Math.trunc(count))));
}

/** The rows of `alias` in scope: one store named with `=` (Citus routes it), or all but some. */
export function inScope(scope: SearchScope, alias: string): SQL {
  const column = sql.raw(`${alias}.store_id`);
  if ('storeId' in scope) return sql`${column} = ${scope.storeId}`;
  if (scope.excludeStoreIds.length === 0) return sql`true`;
  return sql`${column} <> ALL(${textArray(scope.excludeStoreIds)})`;
}

/** The filters' conditions on a variant row `v` (price range, excluded ids); none without filters. */
export function variantConditions(filters: CandidateFilters): SQL[] {
  const parts: SQL[] = [];
  if (filters.priceMin !== undefined) parts.push(sql`v.price >= ${filters.priceMin}`);
  if (filters.priceMax !== undefined) parts.push(sql`v.price <= ${filters.priceMax}`);
  if (filters.excludeVariantIds?.length) {
    parts.push(sql`v.external_id <> ALL(${textArray(filters.excludeVariantIds)})`);
  }
  return parts;
}

/**
 * The filter on variants as an uncorrelated IN over the variants in scope: Citus refuses a
 * correlated subquery beside a CTE, and the set is computed once. Undefined without filters.
 */
export function variantFilter(req: RetrievalRequest, alias: string): SQL | undefined {
  const parts = variantConditions(req);
  if (parts.length === 0) return undefined;
  return sql`(${sql.raw(`${alias}.store_id`)}, ${sql.raw(`${alias}.product_id`)}) IN (
    SELECT v.store_id, v.product_id FROM variants v
    WHERE ${inScope(req.scope, 'v')} AND ${sql.join(parts, sql` AND `)})`;
}
